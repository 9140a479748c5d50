"""Documents for tests and benchmarks: long texts with one sentence that holds a unique code."""

from __future__ import annotations

import random

#: the question whose answer only :data:`CODE_SENTENCE` holds
CODE_QUESTION = "What is the vault access code for project Bluebird?"
CODE = "QX-7731-ZEBRA"
CODE_SENTENCE = f"The vault access code for project Bluebird is {CODE}, kept by the night clerk."

_WORD_TEXT = (
    "river stone market winter garden ladder copper signal harbor meadow lantern violin quarry "
    "tunnel orchard ferry candle pepper saddle thunder velvet walnut yellow zephyr anchor basket "
    "cobalt dragon engine falcon glacier hammer island jacket kettle lemon marble needle oyster "
    "pillow quiver rocket silver timber umbrella valley window"
)
_WORDS = _WORD_TEXT.split()


def filler_paragraphs(n: int, seed: int = 7, words_per_paragraph: int = 90) -> list[str]:
    """``n`` paragraphs of plain words (none of them the code question's), the same for a seed."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        words = [rng.choice(_WORDS) for _ in range(words_per_paragraph)]
        words[0] = words[0].capitalize()
        out.append(" ".join(words) + ".")
    return out


def text_with_code(paragraphs: int = 420, at: float = 0.6, seed: int = 7) -> str:
    """A long text (about 45,000 SmolLM2 tokens at the default size) whose paragraph at ``at`` of
    the way through is :data:`CODE_SENTENCE`."""
    found = filler_paragraphs(paragraphs, seed)
    found[int(len(found) * at)] = CODE_SENTENCE
    return "\n\n".join(found)
