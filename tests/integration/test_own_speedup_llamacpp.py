"""An answer's speedup from the same answer, on real llama.cpp children of the embedded pair (F32
target, its Q4_1 as the drafter): an answer that drafted nothing claims no gain, and the same prompt
on the same configuration, asked five times while another process keeps a core busy, shows the
same speedup each time."""

from __future__ import annotations

import asyncio
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from app.core.answer import Answer, AnswerCollector
from app.core.chat import AnswerStats
from app.core.engines.base import ChatMessage, GenerateRequest, LoadRequest, Sampling
from app.core.engines.llamacpp.engine import LlamaCppEngine
from app.core.pool.pool import EnginePool
from app.core.pool.pool_types import PoolConfig, standard_configurations
from app.core.speculative import SpeculationOptions
from app.core.speculative.per_request import Speculation

pytestmark = pytest.mark.timeout(600)

COUNT = [ChatMessage(role="user", content="Count from 1 to 30, separated by commas.")]
COLOURS = [ChatMessage(role="user", content="Name three colours.")]


@pytest.fixture
def spinner(tmp_path: Path) -> Iterator[psutil.Process]:
    """A process that keeps one core busy and is not this one's child (its parent ended)."""
    spin = tmp_path / "spin.py"
    spin.write_text("import time\nend = time.time() + 300\nwhile time.time() < end:\n    pass\n")
    launch = (
        "import subprocess, sys; quiet = subprocess.DEVNULL; "
        f"print(subprocess.Popen([sys.executable, {str(spin)!r}], stdout=quiet, stderr=quiet).pid)"
    )
    started = subprocess.run([sys.executable, "-c", launch], capture_output=True, text=True, check=True)
    proc = psutil.Process(int(started.stdout))
    try:
        deadline = time.monotonic() + 10
        while proc.cpu_times().user < 0.05 and time.monotonic() < deadline:
            pass  # until it spins
        yield proc
    finally:
        proc.kill()


async def _ask(pool: EnginePool, label: str, messages: list[ChatMessage], max_tokens: int = 64) -> Answer:
    collector = AnswerCollector()
    async for event in pool.stream(
        Speculation(label), GenerateRequest(messages, Sampling(temperature=0.0, max_tokens=max_tokens))
    ):
        collector.feed(event)
    return collector.end()


def _pool(target: Path, drafter: Path) -> tuple[LlamaCppEngine, EnginePool]:
    request = LoadRequest(str(target), n_ctx=2048)
    base = LlamaCppEngine.load(request)
    configurations = standard_configurations(("draft", str(drafter)))
    configurations["draft"] = SpeculationOptions(
        enabled=True, method="draft", draft_model_path=str(drafter), num_speculative_tokens=8
    )
    return base, EnginePool(
        base, request, LlamaCppEngine.load, configurations, PoolConfig(slots=1, retune_s=None)
    )


def test_an_answer_that_drafted_nothing_claims_no_gain(smollm2_f32: Path, smollm2_q4: Path) -> None:
    base, pool = _pool(smollm2_f32, smollm2_q4)
    try:
        answer = asyncio.run(_ask(pool, "ngram-mod", COLOURS, 24))
        assert answer.complete and answer.drafted_total == 0, answer.rounds
        assert answer.speedup.basis == "nothing-drafted" and answer.speedup.value == 1.0
        stats = AnswerStats.of(answer, speculation="ngram-mod")
        assert stats.speedup is None  # the window claims nothing
    finally:
        pool.close()
        base.close()


def test_the_same_prompt_five_times_beside_a_busy_core_shows_the_same_speedup(
    smollm2_f32: Path, smollm2_q4: Path, spinner: psutil.Process
) -> None:
    base, pool = _pool(smollm2_f32, smollm2_q4)

    async def run() -> tuple[list[float], list[float]]:
        await _ask(pool, "off", COUNT)  # the target's plain steps, a moment before
        first = await _ask(pool, "draft", COUNT)  # priced by them; its passes teach the pool their cost
        assert first.speedup.basis == "recent-steps"
        own, tps = [], []
        for _ in range(5):
            answer = await _ask(pool, "draft", COUNT)
            assert answer.complete and answer.drafted_total > 0
            assert answer.speedup.value is not None and answer.speedup.basis == "cost-model"
            own.append(answer.speedup.value)
            tps.append(answer.decode_tps or 0.0)
        return own, tps

    try:
        own, tps = asyncio.run(run())
    finally:
        pool.close()
        base.close()
    spread = max(own) / min(own)
    assert spread <= 1.10, (own, tps)
    assert statistics.median(own) > 0
