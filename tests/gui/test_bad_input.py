"""Bad numbers typed into the real launch dialog: an inline error and Launch disabled, no exception.

Text such as '²' (which passes ``str.isdigit``) and '++3' (which passes ``lstrip('+').isdigit()``)
must not reach a bare ``int()``: its ValueError, uncaught in a Qt slot, would leave Launch enabled.
"""

from __future__ import annotations

import sys
from types import TracebackType
from typing import Any

import pytest

from app.core.registry import Registry
from app.core.settings import Settings
from app.gui.cache_bridge import CacheBridge
from app.gui.views.launch_dialog import LaunchDialog


@pytest.fixture
def uncaught(monkeypatch: pytest.MonkeyPatch) -> list[BaseException]:
    """Exceptions escaping Qt slots go to sys.excepthook: collect them instead of printing."""
    seen: list[BaseException] = []

    def hook(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        seen.append(exc)

    monkeypatch.setattr(sys, "excepthook", hook)
    return seen


@pytest.mark.parametrize("bad", ["²", "++3", "٣", "３", "3.0", "1e3", "0x10", "-0", "3_000", "NaN"])
def test_odd_tokens_per_round_are_refused_inline(qtbot: Any, uncaught: list[BaseException], bad: str) -> None:
    fam, spec, quant = Registry.load().match("smollm2-135m-instruct", "gguf", None)
    dlg = LaunchDialog(fam, spec, quant, CacheBridge(), Settings())
    qtbot.addWidget(dlg)
    dlg.show()
    dlg.enable.setChecked(True)
    field = dlg.depth_field
    field.edit.setText("4")
    assert dlg.launch_button.isEnabled() and not field.error.isVisible()

    field.edit.setText(bad)
    assert uncaught == []
    assert field.error.isVisible() and "greater than zero" in field.error.text()
    assert "num_speculative_tokens" in field.error.toolTip()  # the core parser's own message
    assert not dlg.launch_button.isEnabled()

    field.edit.setText("4")  # back to a good value: Launch comes back
    assert not field.error.isVisible() and dlg.launch_button.isEnabled()
    assert dlg.choice().speculation.num_speculative_tokens == 4
