"""``tandem --self-test``: can this installation answer, with speculation, right now?

Runs the CLI's own ``generate`` (the embedded default model, greedy, speculation on, ``--json``)
and checks what it printed, so an installed package or a frozen bundle is tested through the same
path a user takes. With speculation on, the embedded SmolLM2 Q4_1 model drafts for itself through
its declared drafter: unlike the model-free n-gram methods (which propose nothing on a first
request), that always drafts, so a run that drafted nothing means speculation did not work.

Needs no display and imports no Qt. Success: a few lines of figures on stdout, exit 0. Failure:
one line on stderr starting ``tandem self-test: FAILED``, and a nonzero exit (the CLI's own exit
code when it failed, else 1).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

PROMPT = "Name three primary colours."
MAX_TOKENS = 32
GENERATE_ARGS = (
    "generate", "--prompt", PROMPT, "--temperature", "0", "--spec", "on",
    "--max-tokens", str(MAX_TOKENS), "--json",
)  # fmt: skip

CliMain = Callable[[list[str]], int]


class SelfTestFailed(Exception):
    def __init__(self, reason: str, code: int = 1) -> None:
        super().__init__(reason)
        self.code = code


@dataclass(frozen=True)
class Figures:
    engine: str
    model: str
    drafter: str | None
    method: str
    text: str
    prompt_tokens: int
    completion_tokens: int
    tokens_per_second: float | None
    drafted: int
    accepted: int
    rounds: int
    seconds: float

    def lines(self) -> list[str]:
        rate = "-" if self.tokens_per_second is None else f"{self.tokens_per_second:.1f}"
        acceptance = f" ({self.accepted / self.drafted:.0%})" if self.drafted else ""
        drafter = f", drafter {PurePath(self.drafter).name}" if self.drafter else ""
        return [
            f"tandem self-test: ok in {self.seconds:.1f} s",
            f"  model:     {PurePath(self.model).name} ({self.engine})",
            f"  method:    {self.method}{drafter}",
            f"  answer:    {self.text.strip()[:80]!a}",  # ASCII: any console encoding can print it
            f"  tokens:    {self.completion_tokens} generated ({self.prompt_tokens} prompt), {rate} tok/s",
            f"  drafted:   {self.drafted}, accepted {self.accepted}{acceptance}, {self.rounds} rounds",
        ]


def _last_line(text: str) -> str:
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return lines[-1] if lines else ""


def _int(out: dict[str, Any], key: str) -> int:
    value = out.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def check(stdout: str, seconds: float) -> Figures:
    """The figures of one ``generate --json`` run; :class:`SelfTestFailed` when they show a problem."""
    try:
        out = json.loads(stdout)
    except json.JSONDecodeError:
        shown = _last_line(stdout)[:200] or "nothing"
        raise SelfTestFailed(f"generate printed no JSON (got {shown!r})") from None
    if not isinstance(out, dict):
        raise SelfTestFailed(f"generate printed {type(out).__name__}, not an object")
    text = out.get("text")
    completion = _int(out, "completion_tokens")
    if not isinstance(text, str) or not text.strip() or completion == 0:
        raise SelfTestFailed("the model produced no answer")
    if not out.get("speculation"):
        raise SelfTestFailed("the answer was generated without speculation")
    drafted, accepted = _int(out, "drafted_total"), _int(out, "accepted_total")
    if drafted == 0:
        raise SelfTestFailed(f"speculation was on ({out.get('method')}) but drafted no tokens")
    rate = out.get("decode_tokens_per_second")
    return Figures(
        engine=str(out.get("engine")),
        model=str(out.get("model")),
        drafter=out.get("drafter") if isinstance(out.get("drafter"), str) else None,
        method=str(out.get("method")),
        text=text,
        prompt_tokens=_int(out, "prompt_tokens"),
        completion_tokens=completion,
        tokens_per_second=float(rate) if isinstance(rate, int | float) else None,
        drafted=drafted,
        accepted=accepted,
        rounds=_int(out, "rounds"),
        seconds=seconds,
    )


def _cli_main(argv: list[str]) -> int:
    from app.cli import main

    return main(argv)


def run(cli: CliMain = _cli_main) -> Figures:
    """Answer the self-test prompt through ``cli`` (the CLI's ``main``) and check the result."""
    out, err = io.StringIO(), io.StringIO()
    start = time.monotonic()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli(list(GENERATE_ARGS))
        except Exception as exc:  # the CLI handles its own errors; anything else is a failure too
            code, reason = 1, f"{type(exc).__name__}: {exc}"
        else:
            reason = ""
    seconds = time.monotonic() - start
    if code != 0:
        reason = reason or _last_line(err.getvalue()).removeprefix("tandem: ") or "no message"
        raise SelfTestFailed(f"generate exited {code}: {reason}", code)
    return check(out.getvalue(), seconds)


def main(argv: Sequence[str] = (), cli: CliMain = _cli_main) -> int:
    parser = argparse.ArgumentParser(
        prog="tandem --self-test",
        description="Answer one greedy prompt with the embedded model and speculation on; "
        "print the figures. Exit 0 on success, nonzero with one line on failure.",
    )
    parser.add_argument(
        "--window",
        action="store_true",
        help="instead: open the desktop window (offscreen without a display), load the start-up model, "
        "send one message and check the answer and that nothing was reported as an error",
    )
    parser.parse_args(list(argv))
    try:
        figures = run(cli)
    except SelfTestFailed as exc:
        print(f"tandem self-test: FAILED: {exc}", file=sys.stderr)
        return exc.code
    except KeyboardInterrupt:
        print("tandem self-test: FAILED: interrupted", file=sys.stderr)
        return 130
    print("\n".join(figures.lines()), flush=True)
    return 0
