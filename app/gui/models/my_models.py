"""The "My models" scope of the Models page: only the families with something on disk.

A family counts when a target quantization is downloaded, fully or in part, or comes from a
local file the user imported (not the small models shipped inside the app). Statuses come from
the cache bridge's background probes, so the list fills in as they arrive; the catalog (every
family) stays one scope away.
"""

from __future__ import annotations

from typing import Any

from app.core.registry import Family
from app.core.registry.abilities import spec_abilities
from app.gui.cache_bridge import CacheBridge
from app.gui.models.family_model import FamilyFilterProxy, Roles


def family_on_disk(cache: CacheBridge, family: Family) -> bool:
    for spec in family.specs:
        local = spec.sources.local
        if local is not None:
            # an imported file counts; the small models shipped inside the app are catalog
            # entries the user did not fetch or add
            if not local.path.startswith("embedded://"):
                return True
            continue
        for q in spec.quantizations:
            if cache.peek(family, spec, "target", q) in ("cached", "partial"):
                return True
    return False


def family_abilities(family: Family) -> set[str]:
    """What any of the family's specs can do (the registry's data, as ``models --json`` lists it)."""
    return {a for spec in family.specs for a in spec_abilities(family, spec)["abilities"]}


class MyModelsProxy(FamilyFilterProxy):
    """:class:`FamilyFilterProxy` plus ``mine_only`` (the "My models" scope) and the ability
    filters ``needs_vision`` / ``needs_tools``."""

    def __init__(self, cache: CacheBridge, parent: Any = None) -> None:
        super().__init__(parent)
        self.mine_only = False
        self.needs_vision = False
        self.needs_tools = False
        self._abilities: dict[str, set[str]] = {}
        self._cache = cache
        # a status probe that finishes can add a family to (or take it off) the scope
        cache.changed.connect(self._statuses_changed)

    def set_filters(self, **kwargs: Any) -> None:
        self._abilities.clear()  # one pass reads each family once; an edited family is re-read
        super().set_filters(**kwargs)

    def _statuses_changed(self) -> None:
        if self.mine_only:
            self.set_filters()

    def filterAcceptsRow(self, source_row: int, source_parent: Any) -> bool:
        if not super().filterAcceptsRow(source_row, source_parent):
            return False
        if not (self.mine_only or self.needs_vision or self.needs_tools):
            return True
        model = self.sourceModel()
        entry = model.data(model.index(source_row, 0, source_parent), Roles.Entry)
        if not isinstance(entry, Family):
            return False
        if self.needs_vision or self.needs_tools:
            have = self._abilities.get(entry.name)
            if have is None:
                have = self._abilities[entry.name] = family_abilities(entry)
            if (self.needs_vision and "vision" not in have) or (self.needs_tools and "tools" not in have):
                return False
        return not self.mine_only or family_on_disk(self._cache, entry)
