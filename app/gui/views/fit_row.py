"""The launch dialog's memory verdict: fits / tight / too large, the numbers on hover.

The estimate comes from :mod:`app.core.catalog.fit`, computed on an operations worker (a GGUF
header read for the KV cache when the file is on disk, else the size and quantization's typical
bits per weight). The latest request wins; an older answer arriving late is dropped.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import shiboken6
from PySide6.QtWidgets import QLabel, QWidget

from app.core.catalog import fit
from app.core.launch.plan import auto_context
from app.core.registry import AnySpec, Family
from app.gui.cache_bridge import CacheBridge
from app.gui.models.registry_texts import fit_tooltip
from app.gui.ops import Ops


def estimate_for(
    cache: CacheBridge, family: Family, spec: AnySpec, quant: str, ctx: int, cached: bool
) -> fit.FitEstimate:
    """Blocking (file stats, a header read): run on a worker. ``ctx`` 0 is Auto: the estimate at
    the context Auto picks (the trained one as far as memory allows)."""
    if cached and spec.format == "gguf":
        target = Path(cache.resolve(family, spec, "target", quant))
        if target.is_file():
            if not ctx:  # the context the launch will get: the one rule of plan_launch
                ctx = auto_context("llama.cpp", family, target, None)[0]
            return fit.estimate_files(target, ctx=ctx)
    ctx = ctx or min(family.context_length or fit.MIN_AUTO_CONTEXT, fit.MIN_AUTO_CONTEXT)
    if cached and spec.format == "mlx":
        # the weights on disk (an imported folder's quantization is "default": no bits to guess from)
        folder = Path(cache.resolve(family, spec, "target", quant))
        on_disk = fit.folder_weights_bytes(folder) if folder.is_dir() else None
        if on_disk is not None:
            return fit.estimate(on_disk, None, ctx=ctx)
    weights = fit.estimated_weights(float(spec.size_in_billions), quant)
    return fit.estimate(weights, None, ctx=ctx)


class FitLabel(QLabel):
    """Shows the verdict for the dialog's quantization and context; ``verdict`` for tests."""

    def __init__(self, cache: CacheBridge, ops: Ops | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._cache = cache
        self._ops = ops
        self._inputs: tuple[Any, ...] | None = None
        self._task: asyncio.Task[Any] | None = None
        self.estimate: fit.FitEstimate | None = None
        self.verdict = ""
        self.setWordWrap(True)

    def follow(self, family: Family, spec: AnySpec, quant: str | None, ctx: int, cached: bool) -> None:
        inputs = (family.name, id(spec), quant, ctx, cached)
        if inputs == self._inputs or self._ops is None or quant is None:
            return
        self._inputs = inputs
        if self._task is not None:
            self._task.cancel()
        self.verdict = "checking"
        self.setText(self.tr("Checking…"))
        self.setToolTip("")
        self._task = self._ops.spawn(self._compute(family, spec, quant, ctx, cached, inputs))

    async def _compute(
        self, family: Family, spec: AnySpec, quant: str, ctx: int, cached: bool, inputs: tuple[Any, ...]
    ) -> None:
        assert self._ops is not None
        try:
            est = await self._ops.run(estimate_for, self._cache, family, spec, quant, ctx, cached)
        except Exception as exc:  # an unreadable header: one line, never a traceback
            if shiboken6.isValid(self) and inputs == self._inputs:
                self.verdict = "unknown"
                self.setText(self.tr("Memory use unknown: {reason}").format(reason=exc))
            return
        if not shiboken6.isValid(self) or inputs != self._inputs:
            return
        self.estimate = est
        self.verdict = est.verdict
        self._render()

    def _render(self) -> None:
        est = self.estimate
        if est is None:
            return
        gib = (est.total_bytes or 0) / 2**30
        avail = est.available_bytes / 2**30
        texts = {
            "fits": self.tr("Fits in memory ({total:.1f} of {avail:.1f} GiB available)"),
            "tight": self.tr("Tight: needs {total:.1f} of {avail:.1f} GiB available"),
            "too-large": self.tr("Too large: needs {total:.1f} GiB, {avail:.1f} GiB available"),
        }
        text = texts.get(est.verdict)
        self.setText(
            text.format(total=gib, avail=avail)
            if text
            else self.tr("Memory use unknown for this quantization")
        )
        self.setProperty("verdict", est.verdict)
        tip = fit_tooltip(est)  # the browser's translated breakdown (core's is English, for the CLI)
        if est.kv_bytes is None:
            tip += "\n" + self.tr(
                "The KV cache is counted once the file is downloaded (its header gives it)."
            )
        self.setToolTip(tip)
