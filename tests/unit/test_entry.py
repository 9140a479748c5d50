"""``tandem`` without a display says so in one line before Qt can abort."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from app.__main__ import display_problem, starting_line


def _env_without_display(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env.update(extra)
    return env


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="display servers are a Linux matter")
def test_no_display_is_one_clear_line_not_a_qt_abort() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "app"], env=_env_without_display(), capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("tandem: no display") and "DISPLAY" in lines[0]
    assert "tandem generate" in lines[0] and "QT_QPA_PLATFORM=offscreen" in lines[0]
    assert "xcb" not in proc.stderr.replace("QT_QPA_PLATFORM=xcb", "") and proc.stdout == ""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="display servers are a Linux matter")
def test_headless_commands_still_run_without_a_display() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "app", "models", "--json"],
        env=_env_without_display(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "smollm2-135m-instruct" in {f["name"] for f in json.loads(proc.stdout)}


@pytest.mark.parametrize(
    ("env", "platform", "refused"),
    [
        ({}, "linux", True),
        ({"DISPLAY": ":0"}, "linux", False),
        ({"WAYLAND_DISPLAY": "wayland-0"}, "linux", False),
        ({"QT_QPA_PLATFORM": "offscreen"}, "linux", False),
        ({"QT_QPA_PLATFORM": "minimal"}, "linux", False),
        ({"QT_QPA_PLATFORM": "vnc:size=800x600"}, "linux", False),
        ({"QT_QPA_PLATFORM": "xcb"}, "linux", True),
        ({"QT_QPA_PLATFORM": "xcb", "WAYLAND_DISPLAY": "w"}, "linux", True),
        ({"QT_QPA_PLATFORM": "wayland", "DISPLAY": ":0"}, "linux", True),
        ({"QT_QPA_PLATFORM": "wayland", "WAYLAND_DISPLAY": "w"}, "linux", False),
        ({}, "darwin", False),
        ({}, "win32", False),
    ],
)
def test_display_rule(env: dict[str, str], platform: str, refused: bool) -> None:
    problem = display_problem(env, platform)
    assert (problem is not None) == refused
    if problem:
        assert "\n" not in problem and "tandem generate" in problem


def test_starting_line_names_the_model_to_load() -> None:
    assert starting_line() == "Tandem is starting, loading smollm2-135m-instruct Q4_1 (gguf)"
