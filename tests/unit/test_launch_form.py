"""Core returns codes, not English the dialog has to substring-match (issue 9)."""

from __future__ import annotations

from app.core.speculative import default_tokens


def test_default_depth_says_why_with_a_code() -> None:
    assert default_tokens("llama.cpp", "gemma-4", 3.0).code == "llamacpp-default"  # not in the table
    gemma = default_tokens("llama.cpp", "gemma-4", 4.0)
    assert gemma.code == "gemma4-size-table" and gemma.value is not None
    assert default_tokens("mlx", "gemma-4", 4.0, "mtp").code == "trained-depth"
    assert default_tokens("mlx", "x", 1.0, "ngram-mod").code == "not-offered"
    for method in ("draft", "ngram-mod", "ngram-simple", "ngram-cache"):
        assert default_tokens("llama.cpp", "smollm2", 0.135, method).code == "llamacpp-default"
