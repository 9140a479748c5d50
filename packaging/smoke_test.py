"""Smoke-test a built bundle the way a user meets it: no Python, no venv, an empty home.

    python packaging/smoke_test.py [--dist DIR] [--gui-seconds N]

Every check runs the frozen executable with a clean environment (the equivalent of ``env -i``:
only a fresh temporary HOME and ``QT_QPA_PLATFORM=offscreen``; on Windows the few variables the OS
needs), so nothing from the build machine's venv, caches or settings can make it pass:

(a) ``tandem generate --prompt ... --max-tokens 8 --json`` answers with the embedded SmolLM2 model
    that lives inside the bundle (offline, out of the box);
(b) ``tandem-cli models --json`` lists the registry with the embedded model available;
(c) the GUI starts (it also autoloads the default model), is still running after a few seconds and
    prints nothing but known-benign notices; then it is terminated;
(d) ``tandem --self-test`` (``tandem-cli`` on Windows) answers with speculation on and exits 0.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
EXE = ".exe" if sys.platform == "win32" else ""
PROMPT = "What is the capital of France?"
EMBEDDED_FAMILY = "smollm2-135m-instruct"

# Lines the GUI may print in a clean environment without anything being wrong.
BENIGN = (
    re.compile(r"Detected locale .* which is not UTF-8"),  # env -i has no LANG; Qt switches to C.UTF-8
    re.compile(r"Qt depends on a UTF-8 locale"),
    re.compile(r"If this causes problems, reconfigure your locale"),
    re.compile(r"for more information\.$"),
    re.compile(r"^\S+ \S+ INFO "),  # app logging at INFO level
)


class SmokeFailure(AssertionError):
    pass


@dataclass(frozen=True)
class Executables:
    gui: Path  # `tandem`: the GUI without arguments; CLI with arguments (except windowed Windows)
    cli: Path  # `tandem-cli`: console executable, CLI only

    @property
    def cli_capable(self) -> Path:
        """The executable whose stdout a caller can read (a windowed .exe has none on Windows)."""
        return self.cli if sys.platform == "win32" else self.gui


def find_executables(dist: Path) -> Executables:
    folder = dist / "Tandem.app" / "Contents" / "MacOS" if sys.platform == "darwin" else dist / "tandem"
    exes = Executables(folder / f"tandem{EXE}", folder / f"tandem-cli{EXE}")
    for exe in (exes.gui, exes.cli):
        if not exe.is_file():
            raise SmokeFailure(f"{exe} is missing; build first: python {HERE / 'build.py'} --dist {dist}")
    return exes


def clean_env(home: Path) -> dict[str, str]:
    env = {"HOME": str(home), "QT_QPA_PLATFORM": "offscreen"}
    if sys.platform == "win32":  # Windows cannot start processes without these
        for key in ("SYSTEMROOT", "SYSTEMDRIVE", "WINDIR", "COMSPEC"):
            if key in os.environ:
                env[key] = os.environ[key]
        env.update(USERPROFILE=str(home), APPDATA=str(home / "AppData" / "Roaming"),
                   LOCALAPPDATA=str(home / "AppData" / "Local"), TEMP=str(home), TMP=str(home))  # fmt: skip
    return env


def _run_json(cmd: list[str], env: dict[str, str], timeout: float) -> object:
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout, cwd=env["HOME"])
    if proc.returncode != 0:
        raise SmokeFailure(f"{' '.join(cmd)} exited {proc.returncode}\nstderr:\n{proc.stderr[-3000:]}")
    try:
        return json.loads(proc.stdout)
    except json.JSONDecodeError as exc:
        raise SmokeFailure(f"{' '.join(cmd)} printed no JSON ({exc}):\n{proc.stdout[-2000:]}") from exc


def check_generate(exes: Executables, home: Path, timeout: float = 180) -> str:
    exe = exes.cli_capable
    cmd = [str(exe), "generate", "--prompt", PROMPT, "--max-tokens", "8", "--json"]
    out = _run_json(cmd, clean_env(home), timeout)
    if not isinstance(out, dict):
        raise SmokeFailure(f"generate --json printed {type(out).__name__}, not an object")
    text, model = out.get("text"), str(out.get("model", ""))
    if not isinstance(text, str) or not text.strip() or not out.get("completion_tokens"):
        raise SmokeFailure(f"generate returned no answer: {out}")
    bundle = exe.parent.parent if sys.platform == "darwin" else exe.parent
    if not Path(model).resolve().is_relative_to(bundle.resolve()):
        raise SmokeFailure(f"the answer did not come from the embedded model inside the bundle: {model}")
    return (
        f"{out.get('engine')} answered {text!r} ({out['completion_tokens']} tokens) from {Path(model).name}"
    )


def check_models(exes: Executables, home: Path, timeout: float = 120) -> str:
    out = _run_json([str(exes.cli), "models", "--json"], clean_env(home), timeout)
    if not isinstance(out, list) or not out:
        raise SmokeFailure(f"models --json printed no families: {out!r}")
    names = [f.get("name") for f in out if isinstance(f, dict)]
    family = next((f for f in out if isinstance(f, dict) and f.get("name") == EMBEDDED_FAMILY), None)
    if family is None:
        raise SmokeFailure(f"{EMBEDDED_FAMILY} is not listed; got {names}")
    quants = family["specs"][0]["quantizations"]
    if quants.get("Q4_1") != "cached":
        raise SmokeFailure(f"the embedded Q4_1 model is not available in the bundle: {quants}")
    return f"{len(out)} families listed; {EMBEDDED_FAMILY} Q4_1 is {quants['Q4_1']}"


def check_gui(exes: Executables, home: Path, seconds: float = 6.0) -> str:
    with tempfile.TemporaryFile("w+") as log:
        proc = subprocess.Popen(
            [str(exes.gui)], env=clean_env(home), stdout=log, stderr=subprocess.STDOUT, cwd=home
        )
        try:
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline and proc.poll() is None:
                time.sleep(0.2)
            code = proc.poll()
        finally:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        log.seek(0)
        output = log.read()
    if code is not None:
        raise SmokeFailure(f"the GUI exited after less than {seconds:.0f} s with {code}:\n{output[-3000:]}")
    unexpected = [ln for ln in output.splitlines() if ln.strip() and not any(p.search(ln) for p in BENIGN)]
    if unexpected:
        raise SmokeFailure("the GUI printed unexpected output:\n" + "\n".join(unexpected[-40:]))
    return f"GUI stayed up {seconds:.0f} s with no errors (offscreen)"


def check_selftest(exes: Executables, home: Path, timeout: float = 300) -> str:
    """The bundle's own ``--self-test``: the embedded model answers with speculation on."""
    cmd = [str(exes.cli_capable), "--self-test"]
    proc = subprocess.run(cmd, env=clean_env(home), capture_output=True, text=True, timeout=timeout, cwd=home)
    if proc.returncode != 0:
        raise SmokeFailure(f"{' '.join(cmd)} exited {proc.returncode}\nstderr:\n{proc.stderr[-3000:]}")
    lines = proc.stdout.strip().splitlines()
    if not lines or not lines[0].startswith("tandem self-test: ok"):
        raise SmokeFailure(f"{' '.join(cmd)} printed no success line:\n{proc.stdout[-2000:]}")
    return " | ".join(ln.strip() for ln in lines)


def run_all(dist: Path, gui_seconds: float = 6.0) -> dict[str, str]:
    """Run every check, each with its own empty home; raise SmokeFailure naming all failures."""
    exes = find_executables(dist)
    checks: dict[str, Callable[[Executables, Path], str]] = {
        "generate": check_generate,
        "models": check_models,
        "gui": lambda e, home: check_gui(e, home, gui_seconds),
        "self-test": check_selftest,
    }
    results: dict[str, str] = {}
    failures: list[str] = []
    for name, check in checks.items():
        with tempfile.TemporaryDirectory(prefix=f"tandem-smoke-{name}-") as tmp:
            try:
                results[name] = check(exes, Path(tmp))
            except (SmokeFailure, subprocess.TimeoutExpired) as exc:
                failures.append(f"[{name}] {exc}")
    if failures:
        raise SmokeFailure("\n\n".join(failures))
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Smoke-test a built Tandem bundle in a clean environment.")
    parser.add_argument("--dist", type=Path, default=HERE / "dist", help="build.py's --dist folder")
    parser.add_argument("--gui-seconds", type=float, default=6.0, help="how long the GUI must stay up")
    args = parser.parse_args(argv)
    try:
        for name, result in run_all(args.dist, args.gui_seconds).items():
            print(f"ok   {name}: {result}")
    except SmokeFailure as exc:
        print(f"FAIL {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
