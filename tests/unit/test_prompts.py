"""The CLI's prompts file is the benchmarks' parity set, written once in app.devtools.prompts."""

from __future__ import annotations

from pathlib import Path

from app.cli.common import read_prompts
from app.devtools import prompts

PROMPTS_FILE = Path(__file__).resolve().parents[2] / "benchmarks" / "prompts.txt"


def test_the_prompts_file_holds_the_parity_prompts() -> None:
    assert read_prompts(PROMPTS_FILE) == list(prompts.PARITY.values())
