"""The models Tandem knows that are on disk, as a model set's entries (``tandem serve --all``, the
window's Local server): every downloaded GGUF quantization of the registry, and the embedded
default model."""

from __future__ import annotations

import logging

from app.core.cache.manager import CacheManager
from app.core.cache.status import choose_hub
from app.core.launch.plan import DEFAULT_MODEL
from app.core.modelset.entries import ModelEntry
from app.core.registry import Registry

log = logging.getLogger(__name__)


def known_entries(registry: Registry) -> list[ModelEntry]:
    """One entry per downloaded GGUF quantization (its drafter comes with it when the spec
    declares one), and the embedded default. A family with one such model is served under the
    family's name; with several, as ``family:SIZE-QUANT`` (the family's name answers for the first)."""
    found: list[tuple[str, str, str, str, str]] = []  # family, format, size, quant, size text
    for family in registry.by_use():
        for spec in family.specs:
            if spec.format != "gguf":
                continue
            for quant in spec.quantizations:
                try:
                    state = CacheManager(family, spec, "target", quant, choose_hub(spec, None)).status().state
                except Exception as exc:  # one unreadable entry must not stop the others
                    log.warning("%s %s %s: %s", family.name, spec.size_label, quant, exc)
                    continue
                if state == "cached":
                    found.append((family.name, "gguf", spec.size_label, quant, spec.size_text))
    default = DEFAULT_MODEL
    if not any(f[0] == default[0] and f[3] == default[3] for f in found):
        found.insert(0, (default[0], default[1], default[2], default[3], ""))
    by_family: dict[str, list[tuple[str, str, str, str, str]]] = {}
    for item in found:
        by_family.setdefault(item[0], []).append(item)
    entries: list[ModelEntry] = []
    for items in by_family.values():
        for i, (fam, fmt, size, quant, text) in enumerate(items):
            several = len(items) > 1
            model_id = f"{fam}:{text or size}-{quant}" if several else fam
            aliases = (fam,) if several and i == 0 else ()
            entries.append(ModelEntry(model_id, "", aliases=aliases, registry=(fam, fmt, size, quant)))
    return entries
