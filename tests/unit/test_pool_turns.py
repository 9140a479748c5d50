"""The pool's turns on their own (no engine): exclusive children take turns in arrival order, a
request for the running child joins it unless another waits, the pool can hold the turn, and a
stopped child's waiting requests are refused."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import pytest

from app.core.pool.turns import HOLD, Turns


@dataclass
class Child:
    label: str
    active: int = 0


class Refused(Exception):
    pass


def _turns(children: dict[str, Child], exclusive: bool = True) -> Turns:
    return Turns(exclusive, children.get, lambda label: Refused(label))


def test_children_take_turns_in_arrival_order() -> None:
    async def main() -> list[str]:
        kids = {"a": Child("a"), "b": Child("b")}
        turns = _turns(kids)
        order: list[str] = []
        await turns.take(kids["a"])  # a computes
        waiting_b = asyncio.ensure_future(turns.take(kids["b"]))
        await asyncio.sleep(0)
        joining_a = asyncio.ensure_future(turns.take(kids["a"]))  # b waits: a does not jump it
        await asyncio.sleep(0)
        assert not waiting_b.done() and not joining_a.done() and turns.running == "a"
        waiting_b.add_done_callback(lambda _f: order.append("b"))
        joining_a.add_done_callback(lambda _f: order.append("a"))
        assert turns.end(kids["a"])  # a's only request ended: b's turn
        await asyncio.sleep(0)
        assert turns.running == "b" and kids["b"].active == 1
        assert turns.end(kids["b"])
        await asyncio.sleep(0)
        assert turns.running == "a" and kids["a"].active == 1
        return order

    assert asyncio.run(main()) == ["b", "a"]


def test_without_turns_everyone_computes_at_once() -> None:
    async def main() -> None:
        kids = {"a": Child("a"), "b": Child("b")}
        turns = _turns(kids, exclusive=False)
        await turns.take(kids["a"])
        await asyncio.wait_for(turns.take(kids["b"]), 1)
        assert kids["a"].active == kids["b"].active == 1

    asyncio.run(main())


def test_the_pool_holds_the_turn_and_a_stopped_child_is_refused() -> None:
    async def main() -> None:
        kids = {"a": Child("a"), "b": Child("b")}
        turns = _turns(kids)
        assert turns.hold() and turns.running == HOLD
        waiting = asyncio.ensure_future(turns.take(kids["a"]))
        stopped = asyncio.ensure_future(turns.take(kids["b"]))
        await asyncio.sleep(0)
        assert not waiting.done() and turns.waited_for() == {"a", "b"}
        del kids["a"]  # stopped while its request waited
        turns.release()
        await asyncio.sleep(0)
        with pytest.raises(Refused):
            await waiting
        await stopped  # the next waiting child gets the turn
        assert turns.running == "b" and not turns.hold()

    asyncio.run(main())


def test_a_cancelled_waiter_leaves_the_queue() -> None:
    async def main() -> None:
        kids = {"a": Child("a"), "b": Child("b")}
        turns = _turns(kids)
        await turns.take(kids["a"])
        waiting = asyncio.ensure_future(turns.take(kids["b"]))
        await asyncio.sleep(0)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        assert not turns.queued and kids["b"].active == 0
        assert turns.end(kids["a"]) and turns.running is None

    asyncio.run(main())
