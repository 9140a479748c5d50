"""An MLX model in the window switches speculation per answer inside its own engine: the
conversation's choice offers off, the loaded drafter and the model-free methods, all without a
reload, and each answer names what wrote it. Real MLX (mlx[cpu]) on tiny generated checkpoints."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.core.engines.base import LoadRequest, Sampling
from app.core.speculative import SpeculationOptions
from app.gui.views.speculation_choice import SpeculationChoice
from tests.gui.test_chat import load_default
from tests.mlx_required import require_mlx

pytestmark = pytest.mark.mlx


def _choose(control: SpeculationChoice, value: str) -> None:
    item = control.entry(value)
    assert item is not None and item.isEnabled(), value
    control.combo.setCurrentIndex(item.row())


@pytest.mark.usefixtures("real_models")
def test_an_mlx_model_switches_per_answer_without_a_reload(
    make_window: Any, qtbot: Any, tmp_path: Path
) -> None:
    require_mlx()
    from app.core.engines.mlx.engine import MLXEngine
    from app.devtools import mlx_models as fx

    target = fx.write_llama_target(tmp_path / "target")
    drafter = fx.write_llama_drafter(tmp_path / "drafter")
    loads: list[str] = []

    def load(_engine: str, _req: Any, progress: Any) -> MLXEngine:
        loads.append("load")
        progress("loading the tiny MLX pair")
        spec = SpeculationOptions.build(
            enabled=True, method="draft", draft_model_path=str(drafter), num_speculative_tokens=4
        )
        engine = MLXEngine.load(LoadRequest(str(target), spec))
        # a fixed depth: the adaptive one may settle on plain decoding when another program takes
        # the cores, and this test asserts the drafter's answers drafted
        engine.adaptive_depth = False
        return engine

    w = make_window(loader=load)
    load_default(w, qtbot)
    assert w.engine.pool is None and w.engine.info is not None and w.engine.info.spec_kind == "draft"
    control: SpeculationChoice = w.chat_page.speculation
    shown = [control.combo.itemText(i) for i in range(control.combo.count())]
    assert shown == ["Auto", "Off", "draft", "suffix", "prompt-lookup"]
    for value in ("off", "suffix", "prompt-lookup"):
        item = control.entry(value)
        assert item is not None and item.isEnabled() and "inside the loaded engine" in item.toolTip()
    w.chat.sampling = Sampling(temperature=0.0, max_tokens=24)
    answered: dict[str, Any] = {}
    for value in ("off", "draft", "suffix", "auto"):
        w.new_chat()
        _choose(control, value)
        with qtbot.waitSignal(w.chat.answerFinished, timeout=60_000) as blocker:
            w.chat.send("Say something.")
        cid = w.chat.conversation_id
        assert cid is not None
        answered[value] = (w.store.messages(cid)[-1].content, blocker.args[0], control.answered.text())
    assert loads == ["load"]  # never reloaded
    assert len({text for text, _s, _h in answered.values()}) == 1, answered
    _t, off, off_header = answered["off"]
    assert off.drafted == 0 and off.speculation == "" and off_header.endswith("Off")
    _t, draft, draft_header = answered["draft"]
    assert draft.drafted > 0 and draft_header.endswith("draft")
    _t, suffix, suffix_header = answered["suffix"]
    assert suffix.speculation == "suffix" and suffix_header.endswith("suffix")
    _t, auto, auto_header = answered["auto"]
    assert auto.drafted > 0 and auto_header.endswith("draft")  # Auto on MLX: what the launch loaded
    # a stored choice the engine cannot switch to is greyed and names what it can run
    cid = w.chat.conversation_id
    assert cid is not None
    w.store.set_speculation(cid, "ngram-mod")
    w.chat.speculation.sync()
    item = control.entry("ngram-mod")
    assert item is not None and not item.isEnabled()
    assert "only between Off, draft, suffix, prompt-lookup" in item.toolTip()
