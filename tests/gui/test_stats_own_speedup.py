"""The answer strip and its statistics tell the speedup from the answer itself: no claim for an
answer that drafted nothing, the basis of the figure in its tooltip, and what every configuration
would have done on the answer (real Qt widgets)."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QLabel

from app.core.chat import AnswerStats
from app.gui.views.stats import StatsDialog, StatsStrip

ROUNDS: dict[str, Any] = {"rounds": 6, "completion_tokens": 40, "decode_tps": 50.0, "finish_reason": "stop"}


def test_an_answer_that_drafted_nothing_claims_no_speedup(qtbot: Any) -> None:
    strip = StatsStrip()
    qtbot.addWidget(strip)
    strip.show()
    old_baseline: dict[str, Any] = {
        "baseline_tps": 8.0,
        "baseline_samples": 5,
    }  # an old plain median would say 6x
    strip.set_stats(
        AnswerStats(
            speculation="ngram-mod",
            own_speedup=1.0,
            speedup_basis="nothing-drafted",
            **ROUNDS,
            **old_baseline,
        )
    )
    assert not strip.speedup.isVisible() and not strip.measure_btn.isVisible()
    assert "nothing drafted" in strip.acceptance.text()


def test_an_answers_own_speedup_says_where_its_plain_step_came_from(qtbot: Any) -> None:
    strip = StatsStrip()
    qtbot.addWidget(strip)
    strip.show()
    stats = AnswerStats(
        speculation="ngram-mod",
        drafted=30,
        accepted=25,
        own_speedup=1.37,
        speedup_basis="own-steps",
        **ROUNDS,
    )
    strip.set_stats(stats)
    assert strip.speedup.isVisible() and strip.speedup.text() == "1.37× vs plain"
    assert "measured during this answer" in strip.speedup.toolTip()
    strip.set_stats(
        AnswerStats(
            speculation="draft",
            drafted=30,
            accepted=25,
            own_speedup=0.8,
            speedup_basis="cost-model",
            **ROUNDS,
        )
    )
    assert (
        strip.speedup.text() == "0.80× vs plain" and "learned from earlier answers" in strip.speedup.toolTip()
    )


def test_the_statistics_list_every_configuration_on_the_answer(qtbot: Any) -> None:
    alternatives: list[dict[str, Any]] = [
        {
            "speculation": "off",
            "draft_tokens": None,
            "decode_tokens_per_second": 40.0,
            "basis": "replayed",
            "ran": False,
        },
        {
            "speculation": "ngram-mod",
            "draft_tokens": 64,
            "decode_tokens_per_second": 92.0,
            "basis": "replayed",
            "ran": True,
        },
        {
            "speculation": "ngram-simple",
            "draft_tokens": 64,
            "decode_tokens_per_second": 40.0,
            "basis": "replayed",
            "ran": False,
        },
    ]
    stats = AnswerStats(
        speculation="ngram-mod",
        drafted=30,
        accepted=25,
        own_speedup=2.3,
        speedup_basis="own-steps",
        alternatives=alternatives,
        **ROUNDS,
    )
    dlg = StatsDialog(stats)
    qtbot.addWidget(dlg)
    shown = "\n".join(label.text() for label in dlg.findChildren(QLabel))
    assert "ngram-mod: 2.30× (92.0 tok/s, replayed) ← answered" in shown
    assert "ngram-simple: 1.00× (40.0 tok/s, replayed)" in shown
    assert AnswerStats.from_json(stats.to_json()) == stats  # stored with the message
