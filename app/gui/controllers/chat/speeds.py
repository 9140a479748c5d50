"""How fast answers were against plain decoding, and Auto's loss notice.

Each complete answer feeds the speed baselines (:mod:`app.core.measure.baselines`): a plain
answer records its decode speed, a speculative one is compared with the recorded plain speed of
the same target file, engine and thread count, so its strip can show the speedup obtained. When
Auto's choice keeps losing on real answers, the chat says so with the two ways out."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace

from app.core.chat import AnswerStats
from app.core.measure.baselines import BaselineStore
from app.gui.engine import ModelInfo

log = logging.getLogger(__name__)

#: Auto's choice is said to lose when this many of the last AUTO_WINDOW answers with a known
#: speedup were below 1.0x
AUTO_LOSSES = 3
AUTO_WINDOW = 5


class AnswerSpeeds:
    """This load's speedups and the baselines they are measured against."""

    def __init__(
        self,
        baselines: BaselineStore,
        loaded_label: Callable[[], str | None],
        show_loss: Callable[[str, list[float]], None],
        auto_demotes: bool = False,
    ) -> None:
        self.baselines = baselines
        self._loaded_label = loaded_label
        self._show_loss = show_loss
        #: the Auto tuner demotes a losing choice by itself: no notice then
        self.auto_demotes = auto_demotes
        #: speedups of this load's answers (message id -> ratio)
        self._speedups: dict[int, float] = {}
        self._warned = False

    def reset(self) -> None:
        """A new load: its answers start a new record."""
        self._speedups.clear()
        self._warned = False

    def compare_with_baseline(self, stats: AnswerStats, info: ModelInfo) -> AnswerStats:
        """Record a plain answer's speed, or attach the plain speed to a speculative answer."""
        key = info.baseline_key
        if not key:
            return stats
        # Auto may choose "off": those answers are plain decoding and feed the baseline too
        plain = not stats.speculation or (info.auto is not None and info.auto.label == "off")
        try:
            if plain:
                self.baselines.record(key, stats.decode_tps, stats.completion_tokens)
                return stats
            baseline = self.baselines.get(key)
        except OSError as exc:  # a full disk must not cost the answer
            log.warning("speed baseline not updated: %s", exc)
            return stats
        if baseline is None:
            return stats
        return replace(stats, baseline_tps=baseline.tokens_per_second, baseline_samples=baseline.samples)

    def record_plain(self, info: ModelInfo, tps: float, tokens: int) -> None:
        """A measured plain run is a plain answer of this model too."""
        if info.baseline_key:
            try:
                self.baselines.record(info.baseline_key, tps, tokens)
            except OSError as exc:
                log.warning("speed baseline not updated: %s", exc)

    def note(self, message_id: int, stats: AnswerStats, info: ModelInfo) -> None:
        """Keep this load's speedups; say so when Auto's choice keeps losing."""
        chosen = info.auto
        ratio = stats.speedup
        if chosen is None or ratio is None or info.label != self._loaded_label():
            return
        if chosen.label == "off" or self.auto_demotes:  # plain decoding, or the tuner handles it
            return
        self._speedups[message_id] = ratio
        recent = list(self._speedups.values())[-AUTO_WINDOW:]
        if self._warned or sum(r < 1.0 for r in recent) < AUTO_LOSSES:
            return
        self._warned = True
        self._show_loss(chosen.label, recent)
