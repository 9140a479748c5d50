"""Formulas to PNG images with matplotlib's mathtext.

Why mathtext: it draws straight to PNG with matplotlib's Agg backend (no Qt, so it runs in the
core and in exports alike), covers the TeX a chat answer mostly holds (fractions, roots, sums,
integrals, sub- and superscripts, Greek, accents), and takes ~10 ms a formula once its fonts are
loaded. ziamath covers more (matrices, environments) but draws SVG, which would need a second
renderer (Qt's or cairo's) to become an image a QTextDocument shows. A formula mathtext cannot
parse returns ``None`` and the caller shows its source in a code style.
"""

from __future__ import annotations

import base64
import io
import threading
from functools import lru_cache

#: pixels per inch of the image; at the chat's font size this matches the text around it
_DPI = 110
_INLINE_PT = 11
_DISPLAY_PT = 14
#: matplotlib's font cache and mathtext parser are not made for two threads at once: the warm-up
#: (on a worker) and the chat's first formula (on the GUI thread) take turns
_LOCK = threading.Lock()


@lru_cache(maxsize=256)
def formula_png(tex: str, display: bool, color: str) -> str | None:
    """A ``data:`` URL of ``tex`` drawn in ``color``, or ``None`` when it cannot be drawn."""
    tex = tex.strip()
    if not tex or "$" in tex:
        return None
    png = _draw(tex, display, color)
    return None if png is None else "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def warm_up() -> bool:
    """Import matplotlib and draw one formula, so the first one an answer holds does not pay for
    the import and the font loading (slow, most of it holding the GIL). Meant for a worker
    thread at start-up; whether a formula could be drawn."""
    return _draw(r"\frac{1}{2}", True, "#000000") is not None


def _draw(tex: str, display: bool, color: str) -> bytes | None:
    try:
        with _LOCK:
            from matplotlib import rc_context
            from matplotlib.font_manager import FontProperties
            from matplotlib.mathtext import math_to_image

            buf = io.BytesIO()
            size = _DISPLAY_PT if display else _INLINE_PT
            # transparent, so the formula sits on whatever background the text has (light or dark)
            with rc_context({"savefig.transparent": True}):
                prop = FontProperties(size=size)
                math_to_image(f"${tex}$", buf, dpi=_DPI, format="png", color=color, prop=prop)
    except Exception:  # a parse error of any kind in the model's TeX: the caller shows the source
        return None
    return buf.getvalue()
