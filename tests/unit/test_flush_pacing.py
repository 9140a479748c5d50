"""How often the chat shows a streaming answer (app/gui/controllers/chat/pacing.py): the pure
rules, without a window or a QApplication. The window following them is tested in
tests/gui/test_chat_streaming.py."""

from __future__ import annotations

from app.gui.controllers.chat import pacing as chat_ctl
from app.gui.controllers.chat.pacing import flush_interval, typical_cost


def test_the_typical_cost_is_the_median_once_there_are_three() -> None:
    assert typical_cost([]) == 0.0
    assert typical_cost([1.0, 60.0]) == 0.0  # too few to judge: the usual interval
    assert typical_cost([1.0, 60.0, 1.2]) == 1.2
    assert typical_cost([1.0, 60.0, 1.2, 0.9, 1.1]) == 1.1  # one spike is not typical
    assert typical_cost([12.0, 13.0, 60.0, 11.0, 12.5]) == 12.5  # a long block's flushes all are


def test_cheap_flushes_keep_the_base_interval_of_their_answer_length() -> None:
    assert flush_interval(0.0, long=False) == chat_ctl.FLUSH_INTERVAL_MS
    assert flush_interval(1.0, long=False) == chat_ctl.FLUSH_INTERVAL_MS
    assert flush_interval(1.0, long=True) == chat_ctl.LONG_FLUSH_INTERVAL_MS


def test_a_costly_flush_stretches_the_interval_to_its_share_up_to_the_cap() -> None:
    # 12 ms a flush at a 4 % share: 300 ms between flushes, short answer or long
    assert chat_ctl.FLUSH_SHARE == 0.04
    assert flush_interval(12.0, long=False) == 300
    assert flush_interval(12.0, long=True) == 300
    assert flush_interval(60.0, long=True) == chat_ctl.MAX_FLUSH_INTERVAL_MS
    assert flush_interval(1000.0, long=False) == chat_ctl.MAX_FLUSH_INTERVAL_MS
