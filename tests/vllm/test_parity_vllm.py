"""``tandem parity --engine remote`` between real vLLM servers, on token ids.

The seed contract: greedy, the same seed on both sides. Parity compares token ids (asked with
``logprobs`` + ``return_tokens_as_token_ids``) and, at a first difference, both sides' top
candidates; every divergence it reports is checked here against the servers' own answers.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.cli import main
from app.devtools import vllm_servers as harness

#: the first test also waits for the tier's setup (a venv build on a first run, servers starting)
pytestmark = [pytest.mark.vllm, pytest.mark.timeout(1800)]

PROMPTS = [
    "Repeat exactly: the quick brown fox jumps over the lazy dog. "
    "the quick brown fox jumps over the lazy dog.",
    "Write a Python function that returns the n-th Fibonacci number.",
    "请介绍一下长城。",
    "List five fruits, one per line.",
    "Copy this list: apple, banana, cherry, apple, banana, cherry, apple, banana, cherry.",
    "Explain recursion to a child.",
]


def server_ids(server: harness.VLLMServer, prompt: str, max_tokens: int) -> list[int]:
    """The server's own greedy answer as token ids (non-streamed, asked directly)."""
    body = {
        "model": "smollm2",
        "messages": [{"role": "user", "content": prompt}],
        "max_tokens": max_tokens,
        "temperature": 0.0,
        "seed": 0,
        "logprobs": True,
        "return_tokens_as_token_ids": True,
    }
    choice = httpx.post(server.url + "/chat/completions", json=body, timeout=120).json()["choices"][0]
    return [int(e["token"].removeprefix("token_id:")) for e in choice["logprobs"]["content"]]


def run_parity(
    spec: harness.VLLMServer, plain: harness.VLLMServer, prompts: Path, capsys: pytest.CaptureFixture[str]
) -> tuple[int, list[dict[str, Any]]]:
    code = main(
        [
            "parity",
            "--engine",
            "remote",
            "--endpoint",
            spec.url,
            "--baseline-endpoint",
            plain.url,
            "--prompts",
            str(prompts),
            "--max-tokens",
            "64",
            "--json",
        ]
    )
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    return code, rows


@pytest.mark.parametrize("method", ["ngram", "suffix"])
def test_parity_on_token_ids_with_evidence(
    method: str,
    vllm_servers: dict[str, harness.VLLMServer],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    if method not in vllm_servers:
        pytest.skip("the suffix server needs arctic-inference, which did not build")
    prompts = tmp_path / "prompts.txt"
    prompts.write_text("\n".join(PROMPTS) + "\n", "utf-8")
    code, rows = run_parity(vllm_servers[method], vllm_servers["plain"], prompts, capsys)
    assert len(rows) == len(PROMPTS)
    for row in rows:
        assert row["compared"] == "token ids", row  # never text pieces against vLLM
        off = server_ids(vllm_servers["plain"], str(row["prompt"]), 64)
        assert row["tokens_off"] == len(off)
        # ngram drafts from the prompt alone, so its answer repeats; suffix learns from every
        # request it served, so asking again may draft (and verify) differently
        on = server_ids(vllm_servers[method], str(row["prompt"]), 64) if method == "ngram" else None
        if on is not None:
            assert row["tokens_on"] == len(on)
        if row["verdict"] == "EXACT":
            assert on is None or off == on, row["prompt"]
            continue
        # a divergence: the position, both tokens and their figures, as the servers give them
        pos = row["first_difference"]
        assert isinstance(pos, int) and (on is None or off[:pos] == on[:pos])
        if pos < min(len(off), int(row["tokens_on"])):
            assert row["off_id"] == off[pos] and row["on_id"] != off[pos]
            assert on is None or row["on_id"] == on[pos]
            assert row["off_token"] is not None and row["off_logprob"] is not None
        if row["verdict"] == "TOP_K_MATCH":
            assert row["logprob_gap"] is not None and row["on_logprob"] is not None
    assert code == (1 if any(r["verdict"] == "FAIL" for r in rows) else 0)


def test_parity_text_report_names_the_verdicts(
    vllm_servers: dict[str, harness.VLLMServer], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    prompts = tmp_path / "prompts.txt"
    prompts.write_text(PROMPTS[0] + "\n" + PROMPTS[2] + "\n", "utf-8")
    code = main(
        [
            "parity",
            "--engine",
            "remote",
            "--endpoint",
            vllm_servers["ngram"].url,
            "--baseline-endpoint",
            vllm_servers["plain"].url,
            "--prompts",
            str(prompts),
            "--max-tokens",
            "48",
        ]
    )
    out = capsys.readouterr().out
    assert "(token ids;" in out and "EXACT" in out and "FAIL" in out  # the count line names all three
    assert code in (0, 1)


def test_parity_without_a_baseline_says_what_is_needed(
    vllm_servers: dict[str, harness.VLLMServer], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    prompts = tmp_path / "prompts.txt"
    prompts.write_text("Hello\n", "utf-8")
    code = main(
        ["parity", "--engine", "remote", "--endpoint", vllm_servers["ngram"].url, "--prompts", str(prompts)]
    )
    err = capsys.readouterr().err
    assert code == 2 and "--baseline-endpoint" in err and "\n" not in err.strip()
