"""Which speculation one request may ask for: the one rule of the local API's
``tandem.speculation`` and of the chat's per-conversation choice.

A loaded engine runs one speculative configuration: llama.cpp's per-request speculative settings
are compiled out of the xllamacpp build Tandem uses, and MLX builds its decoding loop at load. A
request is honoured when it asks for what runs (``auto``, the loaded method, or ``off`` when the
model runs without speculation) or for a configuration an engine pool offers beside it (the
local server starts one llama.cpp child per configuration on the same model file). Greedy output
is the same either way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

AUTO = "auto"
OFF = "off"


def running(loaded: str | None) -> str:
    """The choice that names what runs: the loaded method, or ``off`` when none is loaded."""
    return loaded or OFF


def honoured(requested: str, loaded: str | None, offered: Sequence[str] = ()) -> bool:
    """``requested`` ("auto", "off" or a method, lower case) can be honoured without a reload of a
    model running ``loaded`` (its method, None when speculation is off); ``offered`` are the
    configurations an engine pool can start beside it (the local server's, see
    :mod:`app.core.serving.pool`)."""
    return requested in (AUTO, running(loaded), *offered)


@dataclass(frozen=True)
class Choice:
    """One entry of a per-request choice: its value and whether the loaded model honours it."""

    value: str
    honoured: bool


def choices(loaded: str | None, wanted: str = AUTO, offered: Sequence[str] = ()) -> list[Choice]:
    """Auto, Off, the loaded method and what an engine pool ``offered`` beside it, each with
    :func:`honoured`; ``wanted`` (a stored choice the model may no longer honour) is added when it
    is none of them, so it can be shown."""
    values = list(dict.fromkeys([AUTO, OFF, *([loaded] if loaded else []), *offered]))
    if wanted not in values:
        values.append(wanted)
    return [Choice(v, honoured(v, loaded, offered)) for v in values]
