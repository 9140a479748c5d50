"""Which speculation one request may ask for: the one rule of the local API's
``tandem.speculation`` and of the chat's per-conversation choice.

Speculation is chosen when a model is loaded and cannot change per request: llama.cpp's
per-request speculative settings are compiled out of the xllamacpp build Tandem uses, and MLX
builds its decoding loop at load. So a request is honoured when it asks for what runs: ``auto``
(whatever the launch chose), the loaded method, or ``off`` when the model runs without
speculation. Anything else needs a reload. Greedy output is the same either way.
"""

from __future__ import annotations

from dataclasses import dataclass

AUTO = "auto"
OFF = "off"


def running(loaded: str | None) -> str:
    """The choice that names what runs: the loaded method, or ``off`` when none is loaded."""
    return loaded or OFF


def honoured(requested: str, loaded: str | None) -> bool:
    """``requested`` ("auto", "off" or a method, lower case) can be honoured without a reload of a
    model running ``loaded`` (its method, None when speculation is off)."""
    return requested in (AUTO, running(loaded))


@dataclass(frozen=True)
class Choice:
    """One entry of a per-request choice: its value and whether the loaded model honours it."""

    value: str
    honoured: bool


def choices(loaded: str | None, wanted: str = AUTO) -> list[Choice]:
    """Auto, Off and the loaded method, each with :func:`honoured`; ``wanted`` (a stored choice
    the model may no longer honour) is added when it is none of them, so it can be shown."""
    values = [AUTO, OFF] + ([loaded] if loaded else [])
    if wanted not in values:
        values.append(wanted)
    return [Choice(v, honoured(v, loaded)) for v in values]
