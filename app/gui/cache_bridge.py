"""Adapter between the views and the cache layer (``app.core.cache``).

Views ask "what is the state of this (spec, role, quantization)?", "where is it on disk?" and
"delete it"; this module maps those onto :class:`~app.core.cache.CacheManager` with the hub and
endpoint chosen in the settings. Statuses are memoised until :meth:`CacheBridge.invalidate`, so
repainting a list never touches the disk.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Literal

from app.core.cache import CacheManager
from app.core.cache.status import choose_hub, drafter_status
from app.core.registry import AnySpec, Family

log = logging.getLogger(__name__)

Status = Literal["cached", "partial", "absent"]
Role = Literal["target", "drafter"]


class CacheBridge:
    def __init__(self, hub: str = "huggingface", endpoint: str | None = None) -> None:
        self.hub = hub
        self.endpoint = endpoint or None
        self._memo: dict[tuple[str, float, str, str, str | None, str | None], Status] = {}

    def configure(self, hub: str, endpoint: str | None) -> None:
        self.hub, self.endpoint = hub, endpoint or None
        self.invalidate()

    def invalidate(self) -> None:
        self._memo.clear()

    def hub_for(self, spec: AnySpec) -> str:
        return choose_hub(spec, self.hub)

    def endpoint_for(self, hub: str) -> str | None:
        """The endpoint set for ``hub`` in the settings (None: the library's default or the
        environment). Read at call time: the download queue asks it for every job."""
        chosen, endpoint = self.hub, self.endpoint
        return endpoint if hub == chosen else None

    def manager(
        self, family: Family, spec: AnySpec, role: Role, quant: str, draft_quant: str | None = None
    ) -> CacheManager:
        return CacheManager(
            family,
            spec,
            role,
            quant,
            self.hub_for(spec),
            draft_quantization=draft_quant,
            endpoint=self.endpoint_for(self.hub_for(spec)),
        )

    def status(
        self, family: Family, spec: AnySpec, role: Role, quant: str | None, target_quant: str | None = None
    ) -> Status:
        """``quant`` is the target quantization for role target, the drafter's for role drafter."""
        key = (family.name, spec.size_in_billions, spec.format, role, quant, target_quant)
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        try:
            hub = self.hub_for(spec)
            if role == "target":
                state = CacheManager(family, spec, "target", quant, hub).status().state
            elif target_quant is not None:
                state = (
                    CacheManager(family, spec, "drafter", target_quant, hub, draft_quantization=quant)
                    .status()
                    .state
                )
            else:
                state = drafter_status(family, spec, hub, quant).state
        except Exception:  # a status probe must never break the browser
            log.exception("cache status of %s %s %s failed", family.name, role, quant)
            state = "absent"
        result: Status = state if state in ("cached", "partial") else "absent"
        self._memo[key] = result
        return result

    def family_downloaded(self, family: Family) -> bool:
        return any(
            self.status(family, spec, "target", q) == "cached"
            for spec in family.specs
            for q in spec.quantizations
        )

    def resolve(
        self, family: Family, spec: AnySpec, role: Role, quant: str, draft_quant: str | None = None
    ) -> Path:
        """The file (or snapshot dir) an engine loads. Blocking: call it on a worker."""
        return self.manager(family, spec, role, quant, draft_quant).resolve_path()

    def entry_dir(
        self, family: Family, spec: AnySpec, role: Role, quant: str, draft_quant: str | None = None
    ) -> Path:
        return self.manager(family, spec, role, quant, draft_quant).entry_dir
