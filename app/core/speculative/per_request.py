"""Which speculation one request may ask for: the one rule of the local API's
``tandem.speculation`` and of the chat's per-conversation choice.

A loaded engine runs one speculative configuration: llama.cpp's per-request speculative settings
are compiled out of the xllamacpp build Tandem uses, and MLX builds its decoding loop at load. A
request is honoured when it asks for what runs (``auto``, the loaded method, or ``off`` when the
model runs without speculation) or for a configuration an engine pool offers beside it (the
local server starts one llama.cpp child per configuration on the same model file). Greedy output
is the same either way.

A request's choice is one :class:`Speculation`, parsed once where it enters (the API's field, the
chat's header, a CLI flag) and carried unchanged to the engine pool or the engine that switches
per request, which alone turn it into a configuration.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

AUTO = "auto"
OFF = "off"

#: what a method's name may hold: lower-case words joined by "-", chained by "+"
_NAME = re.compile(r"[a-z0-9]+(?:[-_][a-z0-9]+)*(?:\+[a-z0-9]+(?:[-_][a-z0-9]+)*)*")


@dataclass(frozen=True)
class Speculation:
    """One request's speculation: ``auto`` (the engine's or Auto's rule), ``off``, or a method
    by its name (``draft``, ``ngram-mod``, a chain ``draft+ngram-mod``). Its depth is the
    configuration's that runs it: a pool offers each method at one depth.

    Made by :meth:`parse` from what a user or client wrote, or by :meth:`running` from what an
    engine runs; ``str()`` gives the name back (the API's ``tandem.speculation``)."""

    name: str

    def __post_init__(self) -> None:
        if not _NAME.fullmatch(self.name):
            raise ValueError(f'not a speculation: {self.name!r} (expected "off", "auto" or a method name)')

    @classmethod
    def parse(cls, text: str) -> Speculation:
        """The choice ``text`` names (case and surrounding blanks do not matter); ValueError when
        it names none (empty, or characters no method has)."""
        return cls(text.strip().lower())

    @classmethod
    def running(cls, method: str | None) -> Speculation:
        """The choice naming what an engine runs: its method, or ``off`` when it runs none."""
        return cls(method or OFF)

    @property
    def is_auto(self) -> bool:
        return self.name == AUTO

    @property
    def is_off(self) -> bool:
        return self.name == OFF

    @property
    def method(self) -> str | None:
        """The method's name; None for ``auto`` and ``off``."""
        return None if self.name in (AUTO, OFF) else self.name

    def __str__(self) -> str:
        return self.name


#: the choice of the engine's or Auto's rule
AUTO_CHOICE = Speculation(AUTO)
#: no speculation
OFF_CHOICE = Speculation(OFF)


def running(loaded: str | None) -> Speculation:
    """The choice that names what runs: the loaded method, or ``off`` when none is loaded."""
    return Speculation.running(loaded)


def honoured(requested: Speculation, loaded: str | None, offered: Sequence[Speculation] = ()) -> bool:
    """``requested`` can be honoured without a reload of a model running ``loaded`` (its method,
    None when speculation is off); ``offered`` are the configurations an engine pool can start
    beside it (the local server's, see :mod:`app.core.pool.pool`) or an engine switches to."""
    return requested == AUTO_CHOICE or requested == running(loaded) or requested in offered


@dataclass(frozen=True)
class Choice:
    """One entry of a per-request choice: its value and whether the loaded model honours it."""

    value: Speculation
    honoured: bool


def choices(
    loaded: str | None, wanted: Speculation = AUTO_CHOICE, offered: Sequence[Speculation] = ()
) -> list[Choice]:
    """Auto, Off, the loaded method and what an engine pool ``offered`` beside it, each with
    :func:`honoured`; ``wanted`` (a stored choice the model may no longer honour) is added when it
    is none of them, so it can be shown."""
    values = list(dict.fromkeys([AUTO_CHOICE, OFF_CHOICE, running(loaded), *offered]))
    if wanted not in values:
        values.append(wanted)
    return [Choice(v, honoured(v, loaded, offered)) for v in values]
