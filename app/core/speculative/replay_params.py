"""The settings llama.cpp's model-free speculative types read, as the replay takes them.

:class:`NgramModParams` and :class:`NgramMapParams` each mirror one ``params.speculative`` block of
llama.cpp's ``CommonParams``, with llama.cpp's defaults; :class:`ReplayParams` holds the four blocks.
:meth:`ReplayParams.from_settings` reads the dotted paths Tandem writes into a llama.cpp plan's
settings and cuts the 16-bit fields to their width, so the replay sees the numbers the server sees.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ["UINT16_MASK", "NgramMapParams", "NgramModParams", "ReplayParams"]

#: llama.cpp keeps the n-gram sizes and ``min_hits`` in ``uint16_t`` fields: a value wraps at this mask
UINT16_MASK = 0xFFFF


@dataclass(frozen=True)
class NgramModParams:
    """``params.speculative.ngram_mod`` (llama.cpp's defaults)."""

    n_match: int = 24
    n_max: int = 64
    n_min: int = 48


@dataclass(frozen=True)
class NgramMapParams:
    """``params.speculative.ngram_simple`` / ``ngram_map_k`` / ``ngram_map_k4v`` (llama.cpp's
    defaults): key n-gram size, draft (value) size, hits a k4v key needs before it drafts."""

    size_n: int = 12
    size_m: int = 48
    min_hits: int = 1


@dataclass(frozen=True)
class ReplayParams:
    """The settings the model-free types read; :meth:`from_settings` takes the dotted
    ``CommonParams`` paths Tandem writes (``speculative.ngram_mod.n_max`` ...)."""

    ngram_mod: NgramModParams = field(default_factory=NgramModParams)
    ngram_simple: NgramMapParams = field(default_factory=NgramMapParams)
    ngram_map_k: NgramMapParams = field(default_factory=NgramMapParams)
    ngram_map_k4v: NgramMapParams = field(default_factory=NgramMapParams)

    @classmethod
    def from_settings(cls, settings: Mapping[str, object]) -> ReplayParams:
        """Parameters from dotted ``CommonParams`` settings (e.g. a llama.cpp plan's ``settings``);
        what is not set keeps llama.cpp's default. Values are cut to the C++ field widths."""

        def num(key: str, default: int) -> int:
            value = settings.get(key, default)
            if isinstance(value, bool) or not isinstance(value, int | float | str):
                return default
            return int(value)

        def map_params(name: str) -> NgramMapParams:
            d = NgramMapParams()
            base = f"speculative.{name}."
            return NgramMapParams(
                num(base + "size_n", d.size_n) & UINT16_MASK,
                num(base + "size_m", d.size_m) & UINT16_MASK,
                num(base + "min_hits", d.min_hits) & UINT16_MASK,
            )

        m = NgramModParams()
        return cls(
            ngram_mod=NgramModParams(
                num("speculative.ngram_mod.n_match", m.n_match) & UINT16_MASK,
                num("speculative.ngram_mod.n_max", m.n_max),
                num("speculative.ngram_mod.n_min", m.n_min),
            ),
            ngram_simple=map_params("ngram_simple"),
            ngram_map_k=map_params("ngram_map_k"),
            ngram_map_k4v=map_params("ngram_map_k4v"),
        )
