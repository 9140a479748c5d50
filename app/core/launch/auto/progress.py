"""The calibration's progress steps: a code a GUI can translate, the configuration it concerns, and
the English text the CLI prints."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

#: The calibration's steps in English, by code (the GUI translates by :attr:`Step.code`).
STEP_TEXTS = {
    "load-off": "loading the model without speculation",
    "threads": "{config}: speed without speculation",
    "load": "loading {config}",
    "prose-off": "{config}: prose, speculation off",
    "prose": "{config}: prose",
    "code-off": "{config}: code edit, speculation off",
    "code": "{config}: code edit",
    "repeat": "{config}: the same code edit again",
    "prose-again-off": "{config}: prose again, speculation off",
    "prose-again": "{config}: prose again",
    "done": "measured",
}


@dataclass(frozen=True)
class Step:
    """One calibration step: ``code`` (a key of :data:`STEP_TEXTS`) and the label of the
    configuration being measured (empty for the steps that concern none)."""

    code: str
    config: str = ""

    def __post_init__(self) -> None:
        if self.code not in STEP_TEXTS:
            raise ValueError(f"unknown calibration step {self.code!r}")

    @property
    def text(self) -> str:
        """The step in English."""
        return STEP_TEXTS[self.code].format(config=self.config)


#: ``progress(fraction done, step)``, called on the calibrating thread.
Progress = Callable[[float, Step], None]
