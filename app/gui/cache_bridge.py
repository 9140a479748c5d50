"""Adapter between the views and the cache layer (``app.core.cache``).

Views ask "what is the state of this (spec, role, quantization)?", "where is it on disk?" and
"delete it"; this module maps those onto :class:`~app.core.cache.CacheManager` with the hub and
endpoint chosen in the settings. Statuses are memoised until :meth:`CacheBridge.invalidate`, so
repainting a list never touches the disk.

Probing is file stats (and a whole snapshot walk for an MLX model found in the hub cache): with
an operations runner (:class:`app.gui.ops.Ops`), the lists ask :meth:`CacheBridge.peek`, which
answers from the memo at once and probes what it does not know on a worker, in one batch per
loop turn; ``changed`` then tells the lists to read the new statuses (146 probes ran on
the GUI thread at start-up). After :meth:`invalidate` the old statuses stay on show until the
re-probe answers, so markers never flicker.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Literal

from PySide6.QtCore import QObject, Signal

from app.core.cache import CacheManager
from app.core.cache.status import choose_hub, drafter_status, projector_status
from app.core.cache.usage import DiskUse, family_disk_use
from app.core.registry import AnySpec, Family
from app.gui.ops import Ops

log = logging.getLogger(__name__)

Status = Literal["cached", "partial", "absent"]
#: what a list shows: a status, or "unknown" while its probe runs
Marker = Literal["cached", "partial", "absent", "unknown"]
#: "projector": a vision target's mmproj file, quant is its precision (None: its one file)
Role = Literal["target", "drafter", "projector"]
Key = tuple[str, float, str, str, str | None, str | None]
Probe = tuple[Family, AnySpec, Role, str | None, str | None]


class CacheBridge(QObject):
    """Signals: ``changed()``: statuses changed (after :meth:`invalidate`, and when a background
    probe answered); lists re-read them with :meth:`peek`. ``diskUseChanged()``: a family's
    disk use (:meth:`disk_use`) arrived or changed."""

    changed = Signal()
    diskUseChanged = Signal()

    def __init__(
        self,
        hub: str = "huggingface",
        endpoint: str | None = None,
        ops: Ops | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.hub = hub
        self.endpoint = endpoint or None
        self._ops = ops
        self._memo: dict[Key, Status] = {}
        self._fresh: set[Key] = set()
        self._wanted: dict[Key, Probe] = {}
        self._batch_scheduled = False
        self._generation = 0  # bumped by invalidate: a probe that started before is stale
        self._disk: dict[str, DiskUse] = {}  # family name -> the disk its files use
        self._disk_fresh: set[str] = set()
        self._disk_wanted: dict[str, Family] = {}
        self._disk_scheduled = False
        if ops is not None:
            ops.changed.connect(self.invalidate)  # an operation changed the cache

    def configure(self, hub: str, endpoint: str | None) -> None:
        self.hub, self.endpoint = hub, endpoint or None
        self._memo.clear()  # another hub: the old statuses say nothing about it
        self._disk.clear()
        self.invalidate()

    def invalidate(self) -> None:
        """Statuses may have changed on disk: probe again (the old ones show meanwhile)."""
        self._fresh.clear()
        self._disk_fresh.clear()
        self._generation += 1
        self.changed.emit()

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

    @staticmethod
    def _key(family: Family, spec: AnySpec, role: Role, quant: str | None, target_quant: str | None) -> Key:
        return (family.name, spec.size_in_billions, spec.format, role, quant, target_quant)

    def status(
        self, family: Family, spec: AnySpec, role: Role, quant: str | None, target_quant: str | None = None
    ) -> Status:
        """``quant`` is the target quantization for role target, the drafter's for role drafter.

        Blocking on a miss (file stats): the launch dialog's gating and flows already running on
        a worker use it; lists use :meth:`peek`."""
        key = self._key(family, spec, role, quant, target_quant)
        hit = self._memo.get(key)
        if hit is not None and key in self._fresh:
            return hit
        result = self.probe(family, spec, role, quant, target_quant)
        self._memo[key] = result
        self._fresh.add(key)
        return result

    def peek(
        self, family: Family, spec: AnySpec, role: Role, quant: str | None, target_quant: str | None = None
    ) -> Status | None:
        """The known status at once (None: not probed yet); an unknown or stale one is probed on a
        worker and ``changed`` follows. Without an operations runner this is :meth:`status`."""
        if self._ops is None:
            return self.status(family, spec, role, quant, target_quant)
        key = self._key(family, spec, role, quant, target_quant)
        if key not in self._fresh and key not in self._wanted:
            self._wanted[key] = (family, spec, role, quant, target_quant)
            if not self._batch_scheduled and not self._ops.closed:
                self._batch_scheduled = True
                self._ops.spawn(self._probe_batch(), "Model statuses could not be read")
        return self._memo.get(key)

    async def _probe_batch(self) -> None:
        assert self._ops is not None
        await asyncio.sleep(0)  # let this loop turn ask for everything it needs first
        wanted, self._wanted = self._wanted, {}
        self._batch_scheduled = False
        if not wanted:
            return
        keys = list(wanted)
        probes = [wanted[k] for k in keys]
        generation = self._generation
        results = await self._ops.run(lambda: [self.probe(*p) for p in probes])
        changed = False
        for key, result in zip(keys, results, strict=True):
            changed = changed or self._memo.get(key) != result
            self._memo[key] = result
            if generation == self._generation:
                self._fresh.add(key)
        if changed:
            self.changed.emit()

    def disk_use(self, family: Family) -> DiskUse | None:
        """The disk ``family``'s files use (None: not measured yet), like :meth:`peek`: an
        unknown or stale figure is measured on a worker and ``diskUseChanged`` follows."""
        if self._ops is None:
            use = self._disk[family.name] = family_disk_use(family, self.hub_for)
            return use
        name = family.name
        if name not in self._disk_fresh and name not in self._disk_wanted:
            self._disk_wanted[name] = family
            if not self._disk_scheduled and not self._ops.closed:
                self._disk_scheduled = True
                self._ops.spawn(self._measure_disk(), "Disk use could not be read")
        return self._disk.get(name)

    def known_disk_use(self, name: str) -> DiskUse | None:
        """The last disk use measured for the family ``name``, without measuring anything."""
        return self._disk.get(name)

    async def _measure_disk(self) -> None:
        assert self._ops is not None
        await asyncio.sleep(0)  # one batch for everything this loop turn asks
        wanted, self._disk_wanted = self._disk_wanted, {}
        self._disk_scheduled = False
        if not wanted:
            return
        generation = self._generation
        results = await self._ops.run(
            lambda: {name: family_disk_use(fam, self.hub_for) for name, fam in wanted.items()}
        )
        changed = False
        for name, use in results.items():
            old = self._disk.get(name)
            changed = changed or old is None or old.files != use.files
            self._disk[name] = use
            if generation == self._generation:
                self._disk_fresh.add(name)
        if changed:
            self.diskUseChanged.emit()

    async def prefetch(self, family: Family) -> None:
        """Probe every status of ``family`` on a worker, so a dialog that reads them with
        :meth:`status` (the launch dialog's gating) does not touch the disk."""
        if self._ops is None:
            return
        wanted: list[Probe] = []
        for spec in family.specs:
            wanted += [(family, spec, "target", q, None) for q in spec.quantizations]
            if spec.declares_drafter():
                dqs: list[str | None] = list(spec.draft_quantizations()) or [None]
                wanted += [(family, spec, "drafter", dq, None) for dq in dqs]
        wanted = [p for p in wanted if self._key(*p) not in self._fresh]
        if not wanted:
            return
        generation = self._generation
        results = await self._ops.run(lambda: [self.probe(*p) for p in wanted])
        for p, result in zip(wanted, results, strict=True):
            key = self._key(*p)
            self._memo[key] = result
            if generation == self._generation:
                self._fresh.add(key)

    def probe(
        self, family: Family, spec: AnySpec, role: Role, quant: str | None, target_quant: str | None = None
    ) -> Status:
        """The status on disk now, uncached; thread-safe (file stats only)."""
        try:
            hub = self.hub_for(spec)
            if role == "target":
                state = CacheManager(family, spec, "target", quant, hub).status().state
            elif role == "projector":
                state = projector_status(family, spec, hub, quant).state
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
        return result

    def family_downloaded(self, family: Family) -> bool:
        """Whether a target quantization is known to be cached (probed in the background)."""
        return any(
            self.peek(family, spec, "target", q) == "cached"
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
