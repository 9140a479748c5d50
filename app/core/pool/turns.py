"""Whose turn it is to compute among an engine pool's children.

llama.cpp's worker threads spin while they work, so two children that each use every core slow
each other far more than their share. In exclusive mode the children take turns: while one child
has requests running, a request for another waits (in arrival order) until they end; requests for
the running child join it unless another child is waiting. Without it, every request computes at
once. The pool may also hold the turn itself (:data:`HOLD`: while children are started again with
other thread counts), and requests then wait for it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Protocol

__all__ = ["HOLD", "Turns"]

#: the turn's holder while the pool works on its children itself
HOLD = "\0held"


class Counted(Protocol):
    """A child as the turns count it: its label and how many of its requests compute."""

    label: str
    active: int


class Turns:
    """The running child (its label, :data:`HOLD`, or None) and the requests waiting for their
    turn. ``find(label)`` gives the child that answers ``label`` now (None once it was stopped: its
    waiting requests are refused with ``refused(label)``)."""

    def __init__(
        self,
        exclusive: bool,
        find: Callable[[str], Counted | None],
        refused: Callable[[str], BaseException],
    ) -> None:
        self.exclusive = exclusive
        self._find = find
        self._refused = refused
        #: requests waiting for another child's turn, in arrival order
        self.waiting: list[tuple[str, asyncio.Future[None]]] = []
        #: the child whose requests compute now (exclusive mode), :data:`HOLD`, or None
        self.running: str | None = None

    @property
    def queued(self) -> bool:
        """Some request waits for its turn."""
        return bool(self.waiting)

    def waited_for(self) -> set[str]:
        """The labels some request waits for."""
        return {label for label, _ in self.waiting}

    async def take(self, child: Counted) -> None:
        """Wait until ``child`` may compute (at once unless another child has the turn); its
        active count is raised for this request."""
        others_waiting = any(label != child.label for label, _ in self.waiting)
        free = self.running in (None, child.label) and not others_waiting
        if self.running != HOLD and (not self.exclusive or free):
            self.running = child.label
            child.active += 1
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting.append((child.label, turn))
        try:
            await turn  # granted: the active count was raised for this request
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():  # granted just before the cancel
                self.end(child)
            raise
        finally:
            self.waiting = [(lab, f) for lab, f in self.waiting if f is not turn]

    def end(self, child: Counted) -> bool:
        """One request of ``child`` ended; True when it has none left (the turn then passes on)."""
        child.active -= 1
        if child.active > 0:
            return False
        if self.running == child.label:
            self.running = None
            self.grant()
        return True

    def hold(self) -> bool:
        """Take the turn for the pool itself, when no child has it; :meth:`release` gives it back."""
        if self.running is not None:
            return False
        self.running = HOLD
        return True

    def release(self) -> None:
        self.running = None
        self.grant()

    def grant(self) -> None:
        """Give the turn to the child of the first waiting request, with all its waiting requests
        (every waiting request when children do not take turns)."""
        waiting = [(label, f) for label, f in self.waiting if not f.done()]
        if not waiting:
            return
        if not self.exclusive:
            for label, turn in waiting:
                found = self._find(label)
                if found is not None:
                    found.active += 1
                    turn.set_result(None)
                else:
                    turn.set_exception(self._refused(label))
            return
        label = waiting[0][0]
        child = self._find(label)
        self.running = label if child is not None else None
        for lab, turn in waiting:
            if lab == label:
                if child is not None:
                    child.active += 1
                    turn.set_result(None)
                else:
                    turn.set_exception(self._refused(label))
        if child is None:
            self.grant()
