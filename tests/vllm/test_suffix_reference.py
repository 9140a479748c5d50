"""Tandem's suffix cache against arctic-inference's ``SuffixDecodingCache``.

The same workloads (:mod:`app.devtools.suffix_workloads`) run through arctic-inference, in the
interpreter of the ``arctic_python`` fixture (:mod:`app.devtools.arctic_driver` as a script), and through
:class:`app.core.speculative.suffix.SuffixCache` in this process, step by step:

* with arctic's semantics (``prompt_tail=0``: no openings corpus) the drafts are arctic's,
  position by position, on every workload (the 200k-token corpus and concurrent requests too);
* with the app's settings the mean accepted tokens per proposal is at least arctic's on every
  workload;
* an operation that fails in one fails in the other (unknown or repeated request ids).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from app.core.speculative.suffix import SuffixCache
from app.devtools import arctic_driver
from app.devtools import suffix_workloads as workloads

pytestmark = pytest.mark.vllm

DRIVER = Path(arctic_driver.__file__)


@pytest.fixture(scope="module")
def cases() -> dict[str, dict[str, Any]]:
    generated = workloads.all_workloads()
    assert [w["name"] for w in generated] == workloads.NAMES
    return {w["name"]: w for w in generated}


@pytest.fixture(scope="module")
def arctic(arctic_python: Path, cases: dict[str, dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """arctic-inference's results of every workload (one process for all)."""
    proc = subprocess.run(
        [str(arctic_python), str(DRIVER)],
        input=json.dumps(list(cases.values())),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    results = json.loads(proc.stdout)
    return {name: r["results"] for name, r in zip(cases, results, strict=True)}


def _ours(workload: dict[str, Any], **kwargs: Any) -> list[dict[str, Any]]:
    return arctic_driver.run(SuffixCache(workload["cache"]["max_tree_depth"], **kwargs), workload)


def _shape(results: list[dict[str, Any]]) -> list[str]:
    """The operations that failed, in order (the exceptions' kinds differ: KeyError/ValueError)."""
    return [r["op"] for r in results if "error" in r]


@pytest.mark.parametrize("name", workloads.NAMES)
def test_drafts_match_arctic(name: str, cases: dict[str, dict[str, Any]], arctic: dict[str, Any]) -> None:
    workload, ref = cases[name], arctic[name]
    ours = _ours(workload, prompt_tail=0)
    assert _shape(ours) == _shape(ref)
    summary = workloads.summary(ours, ref)
    if any("draft" in r for r in ref):
        assert summary["identical"] >= workload["identical"], summary
    if workload["identical"] == 1.0:
        assert [r.get("draft") for r in ours] == [r.get("draft") for r in ref]


@pytest.mark.parametrize("name", workloads.NAMES)
def test_acceptance_at_least_arctics(
    name: str, cases: dict[str, dict[str, Any]], arctic: dict[str, Any]
) -> None:
    workload, ref = cases[name], arctic[name]
    ours = _ours(workload)
    assert _shape(ours) == _shape(ref)
    mine, theirs = workloads.summary(ours, ref)["acceptance"]
    assert mine >= theirs, f"{name}: {mine:.4f} accepted tokens per proposal, arctic {theirs:.4f}"


def test_the_driver_needs_nothing_from_the_app() -> None:
    """arctic's interpreter has no Tandem: the driver imports the standard library only."""
    code = (
        f"import sys; sys.path.insert(0, {str(DRIVER.parent)!r}); import arctic_driver; "
        "print(sorted(sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-I", "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert "app" not in out.split("'") and "tests" not in out.split("'")
