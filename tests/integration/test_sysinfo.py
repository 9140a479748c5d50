"""The status bar's memory figure includes the llama.cpp child process that holds the model."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.engines.base import LoadRequest
from app.core.engines.llamacpp.engine import LlamaCppEngine
from app.core.speculative import SpeculationOptions
from app.gui.sysinfo import _rss, rss_bytes


def test_memory_counts_the_engine_process_that_holds_the_model(smollm2_f32: Path) -> None:
    import os

    alone = rss_bytes()
    assert alone is not None and alone == pytest.approx(_rss(os.getpid()), rel=0.2)
    engine = LlamaCppEngine.load(LoadRequest(str(smollm2_f32), SpeculationOptions(), n_ctx=512, n_threads=2))
    try:
        host = engine._host
        assert host is not None and host._proc is not None
        child = _rss(host._proc.pid)
        assert child is not None and child > 100 * 2**20  # the 540 MB F32 model is mapped in there
        total = rss_bytes()
        assert total is not None and total >= child + (_rss(os.getpid()) or 0) * 0.8
    finally:
        engine.close()
    after = rss_bytes()
    assert after is not None and after < alone + child // 2
