"""Threads that follow the free cores, on real llama.cpp children of the embedded model: a load
beside a busy core starts fewer threads, a second model of the process gets what the first leaves,
and an idle pool child is started again with the count the free cores give, answering the same."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

import psutil
import pytest

from app.core.engines import threads
from app.core.engines.base import ChatMessage, GenerateRequest, LoadRequest, Sampling, TextDelta
from app.core.engines.llamacpp.engine import LlamaCppEngine
from app.core.engines.threads import CpuUse
from app.core.pool.pool import EnginePool
from app.core.pool.pool_types import PoolConfig, standard_configurations
from app.core.pool.turns import HOLD
from app.core.speculative import SpeculationOptions

pytestmark = pytest.mark.timeout(300)

N_MATH = threads.math_cores(threads.machine_layout())
needs_two = pytest.mark.skipif(N_MATH < 2, reason="one core that does math: nothing to take away")
ASK = [ChatMessage(role="user", content="Name three colours.")]


class FixedUse:
    """What other programs use, as the OS would report it (the sampler is tested on its own)."""

    def __init__(self, others: float) -> None:
        self.others = others

    def sample(self, watched: Iterable[int] = ()) -> CpuUse:
        return CpuUse(others=self.others, children={}, window_s=1.0)


@pytest.fixture
def other_programs() -> Iterator[FixedUse]:
    ledger = threads.ledger()
    fixed = FixedUse(0.0)
    real, ledger.sampler = ledger.sampler, fixed
    try:
        yield fixed
    finally:
        ledger.sampler = real


@pytest.fixture
def spinner(tmp_path: Path) -> Iterator[psutil.Process]:
    """A process that keeps one core busy and is not this one's child (its parent ended)."""
    spin = tmp_path / "spin.py"
    spin.write_text("import time\nend = time.time() + 120\nwhile time.time() < end:\n    pass\n")
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


def _text(engine: LlamaCppEngine) -> str:
    async def run() -> str:
        out = []
        async for ev in engine.stream(GenerateRequest(ASK, Sampling(temperature=0.0, max_tokens=24))):
            if isinstance(ev, TextDelta):
                out.append(ev.text)
        return "".join(out)

    return asyncio.run(run())


@needs_two
def test_a_load_beside_a_busy_core_starts_fewer_threads(smollm2_q4: Path, spinner: psutil.Process) -> None:
    engine = LlamaCppEngine.load(LoadRequest(str(smollm2_q4), n_ctx=512))
    try:
        assert engine.thread_choice is not None
        assert engine.n_threads <= N_MATH - 1, engine.thread_choice
        assert engine.thread_choice.busy >= 1
        assert engine.lease is not None and engine.lease.pid > 0
        assert any(x.key == engine.lease.key for x in threads.ledger().leases())
    finally:
        engine.close()
    assert threads.ledger().leases() == []  # the lease goes with the child


@needs_two
def test_an_explicit_count_is_kept_beside_a_busy_core(smollm2_q4: Path, spinner: psutil.Process) -> None:
    with LlamaCppEngine.load(LoadRequest(str(smollm2_q4), n_ctx=512, n_threads=N_MATH)) as engine:
        assert engine.n_threads == N_MATH
        assert engine.thread_choice is not None and engine.thread_choice.reason == "explicit"


@needs_two
def test_two_models_share_the_cores_and_configurations_of_one_model_take_turns(
    smollm2_q4: Path, smollm2_f32: Path, other_programs: FixedUse
) -> None:
    with LlamaCppEngine.load(LoadRequest(str(smollm2_q4), n_ctx=512)) as first:
        assert first.n_threads == N_MATH
        with LlamaCppEngine.load(LoadRequest(str(smollm2_f32), n_ctx=512)) as second:
            assert second.n_threads == 1  # the first model holds every math core
            assert second.thread_choice is not None and second.thread_choice.reason == "fallback"
        spec = SpeculationOptions(enabled=True, method="ngram-mod")
        with LlamaCppEngine.load(LoadRequest(str(smollm2_q4), spec, n_ctx=512)) as same_model:
            assert same_model.n_threads == N_MATH  # takes turns with the first: not counted


@needs_two
def test_an_idle_pool_child_follows_the_free_cores_and_answers_the_same(
    smollm2_q4: Path, other_programs: FixedUse
) -> None:
    request = LoadRequest(str(smollm2_q4), n_ctx=512)
    base = LlamaCppEngine.load(request)
    pool = EnginePool(
        base, request, LlamaCppEngine.load, standard_configurations(), PoolConfig(slots=1, retune_s=None)
    )

    async def run() -> None:
        async def answer() -> str:
            out = []
            req = GenerateRequest(ASK, Sampling(temperature=0.0, max_tokens=24))
            async for ev in pool.stream(pool.launched, req):
                if isinstance(ev, TextDelta):
                    out.append(ev.text)
            return "".join(out)

        quiet = await answer()
        assert base.n_threads == N_MATH
        pid = base.lease.pid if base.lease else 0
        assert await pool.retune() == []  # nothing changed: nothing restarted
        other_programs.others = 1.0  # another program takes a core
        retune = asyncio.get_running_loop().create_task(pool.retune())
        deadline = time.monotonic() + 30
        while pool._turns.running != HOLD and not retune.done() and time.monotonic() < deadline:
            await asyncio.sleep(0.005)
        assert pool._turns.running == HOLD  # the child is being started again
        busy = await answer()  # waits for its turn, then answers from the new child
        assert await retune == [(pool.base_label, N_MATH, N_MATH - 1)]
        assert base.n_threads == N_MATH - 1 and pool.threads_of() == {pool.base_label: N_MATH - 1}
        assert base.lease is not None and base.lease.pid not in (0, pid)  # a new child
        assert busy == quiet  # greedy: the same answer whatever the thread count
        other_programs.others = 0.0
        assert await pool.retune() == [(pool.base_label, N_MATH - 1, N_MATH)]

    try:
        asyncio.run(run())
    finally:
        pool.close()
        base.close()


@needs_two
def test_two_processes_started_together_share_the_cores(smollm2_q4: Path, tmp_path: Path) -> None:
    """Two ``tandem generate`` at the same moment, with the same data folder: together they never
    start more threads than the cores that do math (each sees the other's lease)."""
    env = {**os.environ, "TANDEM_HOME": str(tmp_path / "home")}
    cmd = [sys.executable, "-m", "app", "generate", "--model-path", str(smollm2_q4), "--spec", "off"]
    cmd += ["--prompt", "Name three colours.", "--max-tokens", "8", "--temperature", "0", "--json"]
    procs = [
        subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outs = [p.communicate(timeout=240) for p in procs]
    assert all(p.returncode == 0 for p in procs), [err[-500:] for _, err in outs]
    counts = [json.loads(out)["threads"] for out, _ in outs]
    assert sum(counts) <= N_MATH, counts
