"""Every refused CLI input exits non-zero with ONE line that says why and no Python error text.

Among them: ``--draft-tokens ²`` (not ``invalid literal for int()``), ``--max-tokens 0`` (not run),
``bench --repeats 0`` (not ``max() arg is an empty sequence``) and a spec whose quantizations all
name one file (not registered). Nothing here loads a model: each refusal happens
before any engine starts.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main

PYTHON_TEXT = ("Traceback", "invalid literal", "Error:", "max() arg", "object has no attribute", "NoneType")
GEN = ["generate", "--prompt", "hi"]

# (id, argv, what the one line must say)
REFUSED: list[tuple[str, list[str], str]] = [
    ("max-tokens-0", [*GEN, "--max-tokens", "0"],
     "--max-tokens: must be at least 1 (got 0)"),
    ("max-tokens--1", [*GEN, "--max-tokens", "-1"],
     "--max-tokens: must be at least 1 (got -1)"),
    ("max-tokens-superscript", [*GEN, "--max-tokens", "²"],
     "--max-tokens: '²' is not"),
    ("max-tokens-exponent", [*GEN, "--max-tokens", "1e3"],
     "--max-tokens: '1e3' is not"),
    ("max-tokens-huge", [*GEN, "--max-tokens", "2000000"],
     "is more than 1000000"),
    ("draft-tokens-superscript", [*GEN, "--draft-tokens", "²"],
     "--draft-tokens: '²' is not a positive whole number"),
    ("draft-tokens-double-plus", [*GEN, "--draft-tokens", "++3"],
     "--draft-tokens: '++3' is not a positive whole number"),
    ("draft-tokens-arabic-digit", [*GEN, "--draft-tokens", "٣"],
     "--draft-tokens: '٣' is not"),
    ("draft-tokens-0", [*GEN, "--draft-tokens", "0"],
     "--draft-tokens: must be at least 1"),
    ("draft-tokens-huge", [*GEN, "--draft-tokens", "999"],
     "more than 256"),
    ("ctx-0", [*GEN, "--ctx", "0"],
     "--ctx: must be at least 1 (got 0)"),
    ("ctx-negative", [*GEN, "--ctx", "-5"],
     "--ctx: '-5' is not"),
    ("threads-0", [*GEN, "--threads", "0"],
     "--threads: must be at least 1 (got 0)"),
    ("threads-huge", [*GEN, "--threads", "100000"],
     "--threads: 100000 is more than 512"),
    ("temperature-negative", [*GEN, "--temperature", "-1"],
     "--temperature: must be from 0 to 5"),
    ("temperature-above-the-table", [*GEN, "--temperature", "7"],
     "--temperature: must be from 0 to 5 (got 7.0)"),
    ("temperature-nan", [*GEN, "--temperature", "nan"],
     "--temperature: 'nan' is not a number"),
    ("top-p-0", [*GEN, "--top-p", "0"],
     "--top-p: must be more than 0 and at most 1"),
    ("top-p-big", [*GEN, "--top-p", "1.5"],
     "--top-p: must be more than 0 and at most 1"),
    ("top-k-above-the-table", [*GEN, "--top-k", "5000"],
     "--top-k: 5000 is more than 1000"),
    ("top-k-negative", [*GEN, "--top-k", "-1"],
     "--top-k: '-1' is not a whole number >= 0"),
    ("penalty-0", [*GEN, "--repeat-penalty", "0"],
     "--repeat-penalty: must be more than 0"),
    ("penalty-inf", [*GEN, "--repeat-penalty", "inf"],
     "--repeat-penalty: 'inf' is not a number"),
    ("bench-repeats-0", ["bench", "--prompts", "{prompts}", "--repeats", "0"],
     "--repeats: must be at least 1 (got 0)"),
    ("bench-repeats-negative", ["bench", "--prompts", "{prompts}", "--repeats", "-2"],
     "--repeats: '-2' is not"),
    ("bench-max-tokens-0", ["bench", "--prompts", "{prompts}", "--max-tokens", "0"],
     "--max-tokens: must be at least 1"),
    ("parity-max-tokens--1", ["parity", "--prompts", "{prompts}", "--max-tokens", "-1"],
     "--max-tokens: must be at least 1"),
    ("parity-ctx-0", ["parity", "--prompts", "{prompts}", "--ctx", "0"],
     "--ctx: must be at least 1"),
    ("bench-no-prompts", ["bench", "--prompts", "{empty}"],
     "has no prompts"),
    ("bench-missing-prompts", ["bench", "--prompts", "{missing}"],
     "No such file"),
    ("register-same-file", ["register", "{same_file}"],
     "quantizations Q4_0 and Q8_0 both resolve to 'm.gguf'"),
    ("download-odd-size", ["download", "smollm2-135m-instruct", "--size", "²"],
     "no spec matches"),
    ("delete-odd-quant", ["delete", "smollm2-135m-instruct", "--quant", "++3"],
     "no spec matches"),
    ("missing-prompt", ["generate"],
     "the following arguments are required: --prompt"),
    ("bad-choice", ["generate", "--prompt", "hi", "--spec", "maybe"],
     "invalid choice: 'maybe'"),
    ("unknown-command", ["nonsense"],
     "invalid choice: 'nonsense'"),
]  # fmt: skip


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    prompts = tmp_path / "prompts.txt"
    prompts.write_text("Count to three.\n")
    empty = tmp_path / "empty.txt"
    empty.write_text("# only a comment\n")
    same = tmp_path / "same.json"
    same.write_text(
        json.dumps(
            {
                "name": "same-file",
                "specs": [
                    {
                        "format": "gguf",
                        "size_in_billions": 1,
                        "quantizations": ["Q4_0", "Q8_0"],
                        "model_file_name_template": "m.gguf",
                        "sources": {"huggingface": {"model_id": "me/m-GGUF"}},
                    }
                ],
            }
        )
    )
    return {"prompts": str(prompts), "empty": str(empty), "missing": str(tmp_path / "nope.txt"),
            "same_file": str(same)}  # fmt: skip


@pytest.mark.parametrize(
    ("argv", "reason"), [(a, r) for _i, a, r in REFUSED], ids=[i for i, _a, _r in REFUSED]
)
def test_refused_input_is_one_line(
    argv: list[str], reason: str, files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    code = main([a.format(**files) if a.startswith("{") else a for a in argv])
    out, err = capsys.readouterr()
    assert code != 0
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("tandem: ") and reason in lines[0], err
    assert not any(text in err for text in PYTHON_TEXT), err
    assert out == ""


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"<svg xmlns='http://www.w3.org/2000/svg'/>", "--image logo: SVG drawings are not supported"),
        (b"", "--image logo: the file is empty"),
        (b"hello, plain text", "--image logo: this is not an image Tandem can read"),
        (b"\x89PNG\r\n\x1a\n" + b"\0" * 40, "--image logo: the image is damaged or cut short"),
    ],
    ids=["svg", "empty", "not-an-image", "corrupt-png"],
)
def test_bad_image_is_refused_before_any_model_loads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, expected: str
) -> None:
    bad = tmp_path / "logo"
    bad.write_bytes(content)
    assert main([*GEN, "--image", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"tandem: {expected}") and "\n" not in err
    assert not any(t in err for t in PYTHON_TEXT)
