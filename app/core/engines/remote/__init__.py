"""OpenAI-compatible servers (vLLM, SGLang, llama-server): the engine, endpoints and keys, and the
parsers of the acceptance figures each server reports."""
