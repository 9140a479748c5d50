"""The colours rendered chat text carries inline (Qt's rich text and an exported page have no
stylesheet to follow), one set per light and dark background."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Colors:
    """``draft``: the background of drafted text; ``code_bg`` / ``code_fg``: code blocks, tool
    calls and formulas; ``muted``: secondary text (a code block's label); ``dark``: which
    Pygments style colours the code."""

    draft: str
    code_bg: str
    code_fg: str
    muted: str
    dark: bool


LIGHT = Colors(draft="#d8efe0", code_bg="#f3f4f6", code_fg="#1f2328", muted="#6b7280", dark=False)
# a deep green under light text: the drafted runs stay visible without dimming the words
DARK = Colors(draft="#1e4d36", code_bg="#272822", code_fg="#e6e8eb", muted="#9aa1a9", dark=True)
