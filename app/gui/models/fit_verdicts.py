"""The memory verdicts (fits / tight / too large) of the family the model browser shows, computed off
the GUI thread; the spec tree (:mod:`app.gui.models.spec_tree`) only shows them."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, Signal

from app.core.catalog import fit
from app.core.catalog.fit import FitEstimate
from app.core.catalog.spec_fit import family_estimates
from app.core.registry import Family
from app.gui.cache_bridge import CacheBridge
from app.gui.ops import Ops

log = logging.getLogger(__name__)

FitKey = tuple[str, int, int]  # family name, id of the family object, context length


class FitVerdicts(QObject):
    """The memory verdicts of the family a view shows, computed in one batch per (family, context
    length) on an operations worker (file stats and GGUF headers), kept, and recomputed after the
    ``ops.changed`` broadcast (a download turns a size-based estimate into a header-based one) or
    when the context length changes. The latest request wins. Signal: ``changed()`` (the shown
    family's verdicts changed, or are being recomputed)."""

    changed = Signal()

    def __init__(
        self,
        ops: Ops,
        cache: CacheBridge,
        context_length: Callable[[], int],
        shown: Callable[[], Family | None],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._ops = ops
        self._cache = cache
        self._context_length = context_length
        self._shown = shown
        # (family, ctx) -> (family kept alive for its id, estimates per spec, or the failure)
        self._fits: dict[FitKey, tuple[Family, list[dict[str, FitEstimate]] | str]] = {}
        self._fresh: set[FitKey] = set()
        self._generation = 0  # bumped by ops.changed: an answer computed before is stale
        self._task: asyncio.Task[Any] | None = None
        ops.changed.connect(self._on_ops_changed)

    def context(self) -> int:
        """The settings' context length, capped at the shown family's; Auto's smallest context
        when the setting is Auto (a model that fits there runs: Auto takes what fits)."""
        ctx = self._context_length() or fit.MIN_AUTO_CONTEXT
        family = self._shown()
        return min(ctx, family.context_length) if family is not None else ctx

    def _key(self) -> FitKey | None:
        family = self._shown()
        return None if family is None else (family.name, id(family), self.context())

    def entry(self) -> list[dict[str, FitEstimate]] | str | None:
        """The shown family's estimates per spec, the failure's one line, or None (not known yet)."""
        key = self._key()
        hit = self._fits.get(key) if key is not None else None
        return hit[1] if hit is not None else None

    def busy(self) -> bool:
        return self._task is not None and not self._task.done()

    def _on_ops_changed(self) -> None:
        """Files may have come or gone: every kept verdict is stale (shown until recomputed)."""
        self._generation += 1
        self._fresh.clear()
        self.request()

    def request(self, fresh_view: bool = False) -> None:
        """Compute the shown family's verdicts unless they are fresh. ``fresh_view``: the view was
        just reset, so it already shows what is known; no repaint is asked for until results come."""
        ops = self._ops
        key = self._key()
        if ops.closed or key is None or key in self._fresh:
            return
        if key not in self._fits and not fresh_view:
            self.changed.emit()  # "…" where the old context's verdicts were
        if self._task is None or self._task.done():
            self._task = ops.spawn(self._loop())

    async def _loop(self) -> None:
        """Compute until the shown (family, context) is fresh; the latest request wins."""
        while shiboken6.isValid(self):
            family, key = self._shown(), self._key()
            if family is None or key is None or key in self._fresh:
                return
            hubs: list[str | None] = [self._cache.hub_for(s) for s in family.specs]
            generation = self._generation
            result: list[dict[str, FitEstimate]] | str
            try:
                result = await self._ops.run(family_estimates, family, hubs, key[2])
            except Exception as exc:  # an unreadable file: one line on hover, never a traceback
                log.info("memory estimate failed for %s", family.name, exc_info=True)
                result = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            if not shiboken6.isValid(self):
                return
            if len(self._fits) > 64:
                self._fits.clear()
            self._fits[key] = (family, result)
            if generation == self._generation:
                self._fresh.add(key)
            if key == self._key():
                self.changed.emit()
