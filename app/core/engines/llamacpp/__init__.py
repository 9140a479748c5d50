"""llama.cpp: the engine (a client of llama-server in a child process), the child host and the
translation of speculation options to llama.cpp's native settings."""
