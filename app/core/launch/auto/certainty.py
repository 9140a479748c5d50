"""What one of Auto's speedups says, in terms a user can act on.

Auto's figures are a speedup against plain decoding with an interval around it. Shown as they
are (``2.69x (0.37-19.50)``) they ask the user to do statistics; :func:`read` turns one into a
:class:`Certainty`: faster for sure (the whole interval above plain decoding), slower for sure,
no clear difference (the interval holds plain decoding and is narrow), or not known yet (the
interval holds plain decoding and is too wide to say anything: too few answers or pairs).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Certainty(StrEnum):
    #: the whole interval is above plain decoding
    FASTER = "faster"
    #: the whole interval is below plain decoding
    SLOWER = "slower"
    #: the interval holds plain decoding and is narrow: no difference worth telling
    SAME = "same"
    #: the interval holds plain decoding and is wide: it says nothing yet
    UNKNOWN = "unknown"


#: An interval holding plain decoding whose high end is more than this many times its low end
#: says nothing about the speed yet.
WIDE = 2.0


@dataclass(frozen=True)
class Reading:
    certainty: Certainty
    speedup: float
    #: the interval's low end: "at least" for a sure speedup
    low: float
    high: float


def read(speedup: float, low: float, high: float) -> Reading:
    """The certainty of ``speedup`` with its interval ``low``-``high`` (speedups against plain
    decoding, 1.0 = the same speed)."""
    if low > 1.0:
        certainty = Certainty.FASTER
    elif high < 1.0:
        certainty = Certainty.SLOWER
    elif low <= 0 or high / low > WIDE:
        certainty = Certainty.UNKNOWN
    else:
        certainty = Certainty.SAME
    return Reading(certainty, speedup, low, high)
