"""Which models a set keeps loaded (app/core/modelset/modelset.py): the least recently used idle
model makes room, a model that answers or has requests waiting never does, a pinned one never
does, loads queue one at a time, idle models go after their ttl, and a load that cannot get room
says which models hold it.

The loader here stands for the engine layer (a load that takes a moment and records what it was
asked); the set's rules are the thing under test. The real engines behind a set are tested in
tests/integration/test_model_set_serve.py.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Coroutine
from typing import Any, TypeVar

import pytest

from app.core.cancel import CancelToken
from app.core.modelset import (
    Lease,
    Loaded,
    LoadFailed,
    ModelEntry,
    ModelSet,
    ModelState,
    NoRoom,
    SetConfig,
    UnknownModel,
)

T = TypeVar("T")
MB = 1 << 20


class Loads:
    """Loads that take ``seconds``, with the memory each model's entry says (``ctx`` MB here),
    recording the order of loads and closes and how many ran at once."""

    def __init__(self, seconds: float = 0.05, failing: frozenset[str] = frozenset()) -> None:
        self.seconds = seconds
        self.failing = failing
        self.events: list[str] = []
        self.running = 0
        self.most_at_once = 0
        self._lock = threading.Lock()

    def __call__(self, entry: ModelEntry, cancel: CancelToken) -> Loaded[str]:
        with self._lock:
            self.running += 1
            self.most_at_once = max(self.most_at_once, self.running)
        try:
            time.sleep(self.seconds)
            if entry.id in self.failing:
                raise RuntimeError(f"{entry.id}.gguf is not a GGUF file")
            self.events.append(f"load {entry.id}")
        finally:
            with self._lock:
                self.running -= 1
        return Loaded(
            f"engine of {entry.id}", lambda: self.events.append(f"close {entry.id}"), lambda: memory(entry)
        )


def memory(entry: ModelEntry) -> int:
    return (entry.ctx or 100) * MB


def _set(entries: list[ModelEntry], config: SetConfig, loads: Loads) -> ModelSet[str]:
    return ModelSet(entries, loads, memory, config)


def run(work: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(asyncio.wait_for(work, 30))


def states(models: ModelSet[str]) -> dict[str, str]:
    return {s.entry.id: s.state.value for s in models.status()}


THREE = [ModelEntry("a", "a.gguf"), ModelEntry("b", "b.gguf"), ModelEntry("c", "c.gguf")]


def test_a_request_loads_its_model_and_the_least_recently_used_idle_one_makes_room() -> None:
    loads = Loads()
    models = _set(THREE, SetConfig(max_loaded=2), loads)

    async def scenario() -> None:
        for name in ("a", "b", "a"):  # a used last: b is the least recently used
            lease = await models.acquire(name)
            assert lease.value == f"engine of {name}"
            lease.release()
        await models.acquire("c")

    try:
        run(scenario())
        assert states(models) == {"a": "loaded", "b": "unloaded", "c": "loaded"}
        assert loads.events == ["load a", "load b", "close b", "load c"]
    finally:
        models.close()


def test_a_model_that_answers_is_never_unloaded_the_load_waits_for_room() -> None:
    loads = Loads()
    models = _set(THREE, SetConfig(max_loaded=2), loads)

    async def scenario() -> list[str]:
        a = await models.acquire("a")  # answering
        b = await models.acquire("b")  # answering
        waiting = asyncio.create_task(models.acquire("c"))
        await asyncio.sleep(0.3)
        seen = [f"c waits: {not waiting.done()}", states(models)["c"]]
        a.release()  # a's answer ends: a makes room, b keeps answering
        c = await waiting
        seen.append(f"{c.entry.id} loaded")
        b.release()
        c.release()
        return seen

    try:
        assert run(scenario()) == ["c waits: True", "unloaded", "c loaded"]
        assert states(models) == {"a": "unloaded", "b": "loaded", "c": "loaded"}
    finally:
        models.close()


def test_a_load_that_gets_no_room_in_time_says_which_models_hold_it() -> None:
    models = _set(THREE, SetConfig(max_loaded=2, room_wait_s=0.3), Loads())

    async def scenario() -> None:
        await models.acquire("a")
        await models.acquire("b")
        await models.acquire("c")

    try:
        with pytest.raises(NoRoom, match=r"within 0 s: the loaded models \(a, b\) kept answering"):
            run(scenario())
    finally:
        models.close()


def test_memory_decides_room_when_no_count_is_set() -> None:
    entries = [
        ModelEntry("small", "s", ctx=300),
        ModelEntry("mid", "m", ctx=400),
        ModelEntry("big", "b", ctx=600),
    ]
    loads = Loads()
    models = _set(entries, SetConfig(memory_bytes=900 * MB), loads)

    async def scenario() -> None:
        for name in ("small", "mid", "big"):  # 300 + 400 fit; big (600) fits beside neither
            (await models.acquire(name)).release()

    try:
        run(scenario())
        assert states(models) == {"small": "unloaded", "mid": "unloaded", "big": "loaded"}
        assert models.loaded_memory() == 600 * MB
    finally:
        models.close()


def test_a_model_larger_than_the_budget_is_refused_at_once() -> None:
    models = _set([ModelEntry("huge", "h", ctx=5000)], SetConfig(memory_bytes=1000 * MB), Loads())
    try:
        with pytest.raises(NoRoom, match=r"needs about .* more than the .* loaded models may take"):
            run(models.acquire("huge"))
    finally:
        models.close()


def test_a_pinned_model_stays_through_idle_time_and_room_needs() -> None:
    entries = [ModelEntry("pin", "p", pinned=True), ModelEntry("b", "b"), ModelEntry("c", "c")]
    loads = Loads()
    models = _set(entries, SetConfig(max_loaded=2, ttl_s=0.2), loads)

    async def scenario() -> None:
        (await models.acquire("pin")).release()
        (await models.acquire("b")).release()
        (await models.acquire("c")).release()  # b makes room, not the pinned model
        await asyncio.sleep(0.6)  # idle time: c goes, the pinned model stays

    try:
        run(scenario())
        assert states(models) == {"pin": "loaded", "b": "unloaded", "c": "unloaded"}
    finally:
        models.close()


def test_only_pinned_models_in_the_way_is_said_at_once() -> None:
    entries = [ModelEntry("pin", "p", pinned=True), ModelEntry("b", "b")]
    models = _set(entries, SetConfig(max_loaded=1), Loads())

    async def scenario() -> None:
        (await models.acquire("pin")).release()
        await models.acquire("b")

    try:
        with pytest.raises(NoRoom, match=r"the pinned models \(pin\) take the room"):
            run(scenario())
    finally:
        models.close()


def test_loads_run_one_at_a_time_and_one_load_serves_every_request_waiting_for_it() -> None:
    loads = Loads(seconds=0.2)
    models = _set(THREE, SetConfig(), loads)

    async def scenario() -> list[Lease[str]]:
        return list(await asyncio.gather(*(models.acquire(n) for n in ("a", "b", "a", "c", "b", "a"))))

    try:
        leases = run(scenario())
        assert [x.entry.id for x in leases] == ["a", "b", "a", "c", "b", "a"]
        assert loads.most_at_once == 1
        assert sorted(loads.events) == ["load a", "load b", "load c"]
        assert {s.entry.id: s.active for s in models.status()} == {"a": 3, "b": 2, "c": 1}
    finally:
        models.close()


def test_idle_models_unload_after_their_ttl_and_a_request_ttl_overrides_it() -> None:
    entries = [ModelEntry("a", "a", ttl_s=0.2), ModelEntry("b", "b")]
    loads = Loads()
    models = _set(entries, SetConfig(ttl_s=30.0), loads)

    async def scenario() -> dict[str, str]:
        (await models.acquire("a")).release()
        (await models.acquire("b", ttl_s=0.3)).release()
        await asyncio.sleep(0.1)
        early = states(models)
        await asyncio.sleep(0.6)
        return early

    try:
        assert run(scenario()) == {"a": "loaded", "b": "loaded"}
        assert states(models) == {"a": "unloaded", "b": "unloaded"}
    finally:
        models.close()


def test_unloading_a_model_that_answers_waits_for_its_answers_and_unload_all_takes_one_call() -> None:
    loads = Loads()
    models = _set(THREE, SetConfig(), loads)

    async def scenario() -> tuple[tuple[list[str], list[str]], dict[str, str]]:
        busy = await models.acquire("a")
        (await models.acquire("b")).release()
        result = await models.unload_all()
        during = states(models)
        busy.release()
        await asyncio.sleep(0.2)
        return result, during

    try:
        (done, pending), during = run(scenario())
        assert done == ["b"] and pending == ["a"]
        assert during == {"a": "loaded", "b": "unloaded", "c": "unloaded"}
        assert states(models) == {"a": "unloaded", "b": "unloaded", "c": "unloaded"}
    finally:
        models.close()


def test_a_failed_load_is_said_and_the_model_can_be_asked_again() -> None:
    loads = Loads(failing=frozenset({"b"}))
    models = _set(THREE, SetConfig(), loads)
    try:
        with pytest.raises(LoadFailed, match=r"'b' could not be loaded: b\.gguf is not a GGUF file"):
            run(models.acquire("b"))
        status = {s.entry.id: s for s in models.status()}
        assert status["b"].state is ModelState.UNLOADED and "not a GGUF" in status["b"].error
        run(models.acquire("a"))  # the others still load
    finally:
        models.close()


def test_an_unknown_name_lists_the_models_served_and_one_model_answers_any_unnamed_request() -> None:
    models = _set(THREE, SetConfig(), Loads())
    try:
        with pytest.raises(UnknownModel, match="'gpt-4o' is not served here; the models served are: a, b, c"):
            run(models.acquire("gpt-4o"))
        with pytest.raises(UnknownModel, match="names no model"):
            run(models.acquire(None))
    finally:
        models.close()
    single = _set([ModelEntry("only", "o.gguf")], SetConfig(), Loads())
    try:
        assert run(single.acquire(None)).entry.id == "only"
    finally:
        single.close()


def test_close_closes_every_loaded_model() -> None:
    loads = Loads()
    models = _set(THREE, SetConfig(), loads)

    async def scenario() -> None:
        await models.acquire("a")
        (await models.acquire("b")).release()

    run(scenario())
    models.close()
    assert sorted(e for e in loads.events if e.startswith("close")) == ["close a", "close b"]
    assert set(states(models).values()) == {"unloaded"}


def test_each_load_and_unload_tells_what_stays_loaded() -> None:
    models = _set(THREE, SetConfig(max_loaded=2), Loads())
    seen: list[list[str]] = []

    async def listener(values: list[str]) -> None:
        seen.append(sorted(values))

    models.on_loaded = listener

    async def scenario() -> None:
        for name in ("a", "b", "c"):
            (await models.acquire(name)).release()
        await asyncio.sleep(0.1)

    try:
        run(scenario())
        assert seen == [
            ["engine of a"],
            ["engine of a", "engine of b"],
            ["engine of b"],  # a made room for c
            ["engine of b", "engine of c"],
        ]
    finally:
        models.close()
