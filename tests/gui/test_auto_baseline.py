"""When Auto chooses "off", the answers are plain decoding and feed the speed baseline."""

from __future__ import annotations

from typing import Any

from app.core.chat.answer import AnswerStats
from app.core.measure.baselines import BaselineStore
from app.gui.engine import AutoPick, ModelInfo


def test_auto_off_answers_record_the_plain_baseline_and_auto_on_answers_do_not(make_window: Any) -> None:
    w = make_window()
    key = "llama.cpp|model.gguf|threads=2"
    off = AnswerStats(completion_tokens=40, decode_tps=80.0, speculation="Auto: off")
    w.chat.speeds.compare_with_baseline(off, ModelInfo(baseline_key=key, auto=AutoPick("off")))
    recorded = BaselineStore().get(key)
    assert recorded is not None and recorded.samples == 1 and recorded.tokens_per_second == 80.0

    on = AnswerStats(
        completion_tokens=40,
        decode_tps=160.0,
        speculation="Auto: ngram-mod 64/round",
        rounds=5,
        drafted=20,
        accepted=15,
    )
    shown = w.chat.speeds.compare_with_baseline(
        on, ModelInfo(baseline_key=key, auto=AutoPick("ngram-mod 64/round"))
    )
    assert shown.baseline_tps == 80.0 and shown.speedup == 2.0
    assert BaselineStore().get(key).samples == 1  # type: ignore[union-attr]  # a speculative answer adds none
