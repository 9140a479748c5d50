"""How many CPU threads a llama.cpp child computes with: the cores that do math, less the busy ones.

llama.cpp's worker threads meet at a spinning barrier after every operation, so a token waits for
the slowest thread: when one of them loses its core to another process, every token waits for it.
A child therefore never starts more threads than there are free cores to run them on.

* **The cores that do math** (:func:`math_cores`), as llama.cpp counts them: physical cores, not
  hyper-threads, and on a hybrid CPU (Intel P+E cores, Apple silicon) the performance cores only;
  never more than the CPUs this process may run on (affinity, a container's CPU quota).
* **The cores that are free**: what processes other than Tandem's keep busy, sampled from the
  system's CPU times (:class:`CpuSampler`); a core counts as busy from :data:`BUSY_SLACK` of a core
  on, so a desktop's background hum does not take a thread away.
* **One budget for every child** (:class:`ThreadLedger`): each running child holds a lease in a
  small file shared by every Tandem process of the user. Children that take turns (a pool's
  configurations) share one *group* and count once; children of other groups in this process count
  in full, since they may compute at any time; another process's children count when they were
  started a moment ago (they are about to answer) or were busy during the sample.
* An explicit thread count (``--threads``, the launch dialog's field) always wins.

The choice is data (:class:`ThreadChoice`) so that the window can say in its own language what was
chosen and why.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import os
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Literal, Protocol

log = logging.getLogger(__name__)

#: a core counts as taken once other processes use this much of it (beyond whole cores)
BUSY_SLACK = 0.35
#: the shortest sample of other processes' CPU use that a choice relies on (seconds)
SAMPLE_MIN_S = 0.3
#: an earlier reading of the CPU times serves as the start of a sample for this long (seconds)
SAMPLE_MAX_AGE_S = 5.0
#: another process's child counts in full for this long after it started (it is about to answer)
FRESH_S = 20.0
#: the ledger's file name (in the user's data folder)
LEDGER_NAME = "threads.json"

Reason = Literal["explicit", "all-free", "busy", "shared", "fallback", "calibrated"]


# --- the CPU's layout -------------------------------------------------------------------------------
@dataclass(frozen=True)
class CpuLayout:
    """What a machine's CPUs are, as the thread choice needs it (plain data, so tests can state the
    layouts that matter)."""

    #: logical CPUs (hyper-threads included)
    logical: int
    #: physical cores (None: unknown)
    physical: int | None = None
    #: physical performance cores on a hybrid CPU (None: not hybrid, or unknown)
    performance: int | None = None
    #: CPUs this process may run on (affinity, a container's quota); None: all of them
    allowed: int | None = None

    @property
    def hybrid(self) -> bool:
        return self.performance is not None and self.physical is not None and self.performance < self.physical


def math_cores(layout: CpuLayout) -> int:
    """The threads llama.cpp would choose on ``layout``: performance cores on a hybrid CPU, else
    physical cores, else logical CPUs; capped by the CPUs this process may use; at least 1."""
    if layout.performance:
        n = layout.performance
    elif layout.physical:
        n = layout.physical
    else:
        n = layout.logical
    if layout.allowed:
        n = min(n, layout.allowed)
    return max(1, n)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return ""


def _cpu_list(text: str) -> set[int]:
    """The CPUs of a Linux CPU list such as ``0-3,8,10-11``."""
    cpus: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        lo, _, hi = part.partition("-")
        try:
            cpus.update(range(int(lo), int(hi or lo) + 1))
        except ValueError:
            return set()
    return cpus


def _linux_performance_cores(root: Path = Path("/sys/devices")) -> int | None:
    """Physical performance cores on a hybrid Linux machine, None when it is not hybrid.

    Intel hybrid CPUs list their performance cores' CPUs in ``cpu_core/cpus`` (and the efficiency
    cores' in ``cpu_atom/cpus``); ARM big.LITTLE gives each core a ``cpu_capacity``, the biggest
    being the performance cores. Hyper-threads of one core count once (same package and core id)."""
    cpu_dir = root / "system" / "cpu"
    p_cpus = _cpu_list(_read(root / "cpu_core" / "cpus"))
    if p_cpus and _cpu_list(_read(root / "cpu_atom" / "cpus")):
        chosen = p_cpus
    else:
        capacity: dict[int, int] = {}
        for entry in cpu_dir.glob("cpu[0-9]*"):
            text = _read(entry / "cpu_capacity")
            if text.isdigit():
                capacity[int(entry.name[3:])] = int(text)
        if len(set(capacity.values())) < 2:
            return None
        top = max(capacity.values())
        chosen = {cpu for cpu, cap in capacity.items() if cap == top}
    topology = [cpu_dir / f"cpu{cpu}" / "topology" for cpu in chosen]
    cores = {(_read(t / "physical_package_id"), _read(t / "core_id")) for t in topology}
    return len(cores) or None


def _mac_performance_cores() -> int | None:
    """Apple silicon's performance cores (``hw.perflevel0``), None on a CPU of one kind."""
    try:
        levels = subprocess.run(
            ["sysctl", "-n", "hw.nperflevels", "hw.perflevel0.physicalcpu"],
            capture_output=True,
            text=True,
            timeout=5,
            check=True,
        ).stdout.split()
    except (OSError, subprocess.SubprocessError):
        return None
    if len(levels) != 2 or not all(v.isdigit() for v in levels) or int(levels[0]) < 2:
        return None
    return int(levels[1])


def _cgroup_cpus(root: Path = Path("/sys/fs/cgroup")) -> int | None:
    """A container's CPU quota in whole CPUs (cgroup v2 ``cpu.max``), None when unlimited."""
    quota, _, period = _read(root / "cpu.max").partition(" ")
    if not quota.isdigit() or not period.isdigit() or int(period) == 0:
        return None
    return max(1, math.floor(int(quota) / int(period)))


def detect_layout() -> CpuLayout:
    """This machine's layout, read with psutil (and the OS where psutil does not say)."""
    import psutil

    logical = psutil.cpu_count(logical=True) or os.cpu_count() or 1
    physical = psutil.cpu_count(logical=False)
    performance: int | None = None
    allowed: int | None = None
    if sys.platform == "darwin":
        performance = _mac_performance_cores()
    elif sys.platform.startswith("linux"):
        performance = _linux_performance_cores()
        with contextlib.suppress(AttributeError, OSError):
            allowed = len(os.sched_getaffinity(0))
        quota = _cgroup_cpus()
        if quota is not None:
            allowed = min(allowed or quota, quota)
    if allowed is not None and allowed >= logical:
        allowed = None
    return CpuLayout(logical=logical, physical=physical, performance=performance, allowed=allowed)


_layout: CpuLayout | None = None


def machine_layout() -> CpuLayout:
    """:func:`detect_layout`, read once per process."""
    global _layout
    if _layout is None:
        _layout = detect_layout()
    return _layout


# --- what the other processes use ----------------------------------------------------------------------
@dataclass(frozen=True)
class _Snapshot:
    at: float
    busy_s: float
    #: CPU seconds of the processes that are not "other" (this process's tree, Tandem's children)
    ours: dict[int, float]
    #: wall-clock time of the reading (processes started after it spent all their CPU time since)
    wall: float = 0.0


def _busy_seconds() -> float:
    import psutil

    t = psutil.cpu_times()
    idle = t.idle + getattr(t, "iowait", 0.0)
    total = sum(getattr(t, name) for name in t._fields if name not in ("guest", "guest_nice"))
    return float(total - idle)


def _cpu_seconds(pid: int) -> float | None:
    import psutil

    try:
        t = psutil.Process(pid).cpu_times()
    except (psutil.Error, OSError):
        return None
    return float(t.user + t.system)


def _started_before(pid: int, wall: float) -> bool:
    """Whether process ``pid`` was already running at wall-clock time ``wall``."""
    import psutil

    try:
        return float(psutil.Process(pid).create_time()) < wall
    except (psutil.Error, OSError):
        return False


def _own_tree() -> set[int]:
    import psutil

    me = psutil.Process()
    pids = {me.pid}
    with contextlib.suppress(psutil.Error, OSError):
        pids.update(child.pid for child in me.children(recursive=True))
    return pids


@dataclass(frozen=True)
class CpuUse:
    """Other processes' CPU use over one sample."""

    #: cores kept busy by processes that are neither this one's nor a Tandem child's
    others: float
    #: cores each Tandem child of another process used (pid -> cores)
    children: dict[int, float]
    window_s: float


class CpuSampler:
    """Samples the CPU use of other processes, reusing the last reading as the start of the next
    sample when it is recent enough, so a choice rarely waits for its sample."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._last: _Snapshot | None = None
        self._lock = threading.Lock()

    def _snapshot(self, watched: Iterable[int]) -> _Snapshot:
        ours: dict[int, float] = {}
        for pid in {*_own_tree(), *watched}:
            seconds = _cpu_seconds(pid)
            if seconds is not None:
                ours[pid] = seconds
        return _Snapshot(self._clock(), _busy_seconds(), ours, time.time())

    def sample(self, watched: Iterable[int] = ()) -> CpuUse:
        """Other processes' CPU use since a reading at least :data:`SAMPLE_MIN_S` old. ``watched``:
        Tandem children of other processes, reported on their own."""
        watched = set(watched)
        with self._lock:
            start = self._last
            now = self._clock()
            if start is None or not (SAMPLE_MIN_S <= now - start.at <= SAMPLE_MAX_AGE_S):
                start = self._snapshot(watched)
                time.sleep(SAMPLE_MIN_S)
            end = self._snapshot(watched)
            if any(pid not in start.ours and _started_before(pid, start.wall) for pid in end.ours):
                # a process of ours that the earlier reading did not see although it ran then:
                # its time in the window is unknown, so the window starts now
                start = end
                time.sleep(SAMPLE_MIN_S)
                end = self._snapshot(watched)
            self._last = end
        window = max(1e-3, end.at - start.at)
        # a process started inside the window spent all its CPU time in it
        used = {pid: max(0.0, end.ours[pid] - start.ours.get(pid, 0.0)) for pid in end.ours}
        ours = sum(used.values())
        others = max(0.0, (end.busy_s - start.busy_s) - ours) / window
        children = {pid: used[pid] / window for pid in watched if pid in used}
        return CpuUse(others=others, children=children, window_s=window)


class Sampler(Protocol):
    def sample(self, watched: Iterable[int] = ()) -> CpuUse: ...


def busy_cores(cores_used: float) -> int:
    """Whole cores taken by a CPU use of ``cores_used`` cores (see :data:`BUSY_SLACK`)."""
    return max(0, math.ceil(cores_used - BUSY_SLACK))


# --- the ledger of leases ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Lease:
    """One child's threads, as the ledger keeps it."""

    key: str
    owner: int
    group: str
    threads: int
    started: float
    #: the child process (0 until it runs)
    pid: int = 0
    #: chosen automatically (an idle child may be given another count)
    auto: bool = True
    #: the most an automatic count may be (0: the cores that do math)
    ceiling: int = 0


@dataclass(frozen=True)
class ThreadChoice:
    """What a child was given and why (the window words it in its own language)."""

    threads: int
    reason: Reason
    #: the cores that do math on this machine
    math_cores: int
    #: logical CPUs
    logical: int
    #: cores other processes kept busy during the sample
    busy: int = 0
    #: threads other Tandem children hold that this one must leave them
    shared: int = 0

    def describe(self) -> str:
        """One English line (CLI, logs)."""
        layout = f"{self.math_cores} math core{'s' if self.math_cores != 1 else ''} of {self.logical} CPUs"
        if self.reason == "explicit":
            return f"{self.threads} threads, as asked ({layout})"
        if self.reason == "busy":
            return f"{self.threads} threads: other programs keep {self.busy} of the {layout} busy"
        if self.reason == "shared":
            return f"{self.threads} threads: other loaded models hold {self.shared} of the {layout}"
        if self.reason == "calibrated":
            return f"{self.threads} threads: Auto's calibration found more threads do not pay ({layout})"
        if self.reason == "fallback":
            return f"{self.threads} thread: every core is taken, so the fewest threads"
        return f"{self.threads} threads: the {layout}, all free"


def choose(
    layout: CpuLayout,
    requested: int | None = None,
    *,
    busy: int = 0,
    held: int = 0,
    ceiling: int | None = None,
) -> ThreadChoice:
    """The thread count for a new child: ``requested`` when given, else the math cores less the
    cores other processes keep ``busy`` and the threads other children ``held``, at least 1, and
    at most ``ceiling`` (where a calibration found that more threads do not pay here)."""
    n_math = math_cores(layout)
    if requested:
        return ThreadChoice(requested, "explicit", n_math, layout.logical, busy, held)
    free = n_math - busy - held
    if ceiling and ceiling < max(1, free):
        return ThreadChoice(ceiling, "calibrated", n_math, layout.logical, busy, held)
    if free >= n_math:
        return ThreadChoice(n_math, "all-free", n_math, layout.logical)
    if free < 1:
        return ThreadChoice(1, "fallback", n_math, layout.logical, busy, held)
    return ThreadChoice(free, "shared" if held >= busy else "busy", n_math, layout.logical, busy, held)


class ThreadLedger:
    """The leases of every running child of this user's Tandem processes, in one small JSON file
    under a file lock; dead processes' leases are dropped when read."""

    def __init__(self, path: Path, sampler: Sampler | None = None, layout: CpuLayout | None = None) -> None:
        self.path = path
        self.sampler: Sampler = sampler or CpuSampler()
        self._layout = layout
        self._lock = threading.Lock()

    @property
    def layout(self) -> CpuLayout:
        return self._layout or machine_layout()

    def _locked(self) -> contextlib.AbstractContextManager[object]:
        from filelock import FileLock

        self.path.parent.mkdir(parents=True, exist_ok=True)
        return FileLock(str(self.path) + ".lock", timeout=10)

    def _load(self) -> list[Lease]:
        import psutil

        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return []
        leases: list[Lease] = []
        for item in raw if isinstance(raw, list) else []:
            try:
                lease = Lease(**item)
            except TypeError:
                continue
            if psutil.pid_exists(lease.owner) and (lease.pid == 0 or psutil.pid_exists(lease.pid)):
                leases.append(lease)
        return leases

    def _store(self, leases: list[Lease]) -> None:
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps([asdict(x) for x in leases]), encoding="utf-8")
        os.replace(tmp, self.path)

    def _update(self, change: Callable[[list[Lease]], list[Lease]]) -> list[Lease]:
        try:
            with self._lock, self._locked():
                leases = change(self._load())
                self._store(leases)
                return leases
        except OSError as exc:  # a read-only or full data folder: choose without the ledger
            log.warning("the thread ledger %s could not be written: %s", self.path, exc)
            return change([])

    def leases(self) -> list[Lease]:
        with contextlib.suppress(OSError), self._lock, self._locked():
            return self._load()
        return []

    def held_by_others(self, leases: Iterable[Lease], group: str, use: CpuUse | None, now: float) -> int:
        """Threads the children outside ``group`` hold (see the module docstring for which count)."""
        me = os.getpid()
        per_group: dict[tuple[int, str], int] = {}
        for lease in leases:
            if lease.group == group and lease.owner == me:
                continue
            if lease.owner != me:
                used = use.children.get(lease.pid, 0.0) if use is not None else 0.0
                if now - lease.started > FRESH_S and busy_cores(used) == 0:
                    continue
            key = (lease.owner, lease.group)
            per_group[key] = max(per_group.get(key, 0), lease.threads)
        return sum(per_group.values())

    def lease(
        self, requested: int | None, group: str, ceiling: int | None = None
    ) -> tuple[ThreadChoice, Lease]:
        """Choose a new child's threads and hold them; the lease is written first (so a process
        choosing at the same moment sees it), the choice after a sample of the CPU use."""
        layout = self.layout
        me = os.getpid()
        key = uuid.uuid4().hex
        provisional = Lease(key, me, group, requested or math_cores(layout), time.time(), auto=not requested)
        leases = self._update(lambda ls: [*ls, provisional])
        if requested:
            return choose(layout, requested), provisional
        others = [x for x in leases if x.owner != me and x.pid]
        use = self.sampler.sample(x.pid for x in others)
        leases = [x for x in self.leases() if x.key != key]  # read again: who chose meanwhile
        held = self.held_by_others(leases, group, use, time.time())
        choice = choose(layout, None, busy=busy_cores(use.others), held=held, ceiling=ceiling)
        final = replace(provisional, threads=choice.threads, ceiling=ceiling or 0)
        self._update(lambda ls: [*(x for x in ls if x.key != key), final])
        return choice, final

    def rechoose(self, lease: Lease) -> ThreadChoice:
        """What ``lease``'s child would be given now (for an idle child, or one that started just
        before others did); the lease itself is not changed."""
        use = self.sampler.sample(x.pid for x in self.leases() if x.owner != os.getpid() and x.pid)
        leases = [x for x in self.leases() if x.key != lease.key]
        held = self.held_by_others(leases, lease.group, use, time.time())
        return choose(
            self.layout, None, busy=busy_cores(use.others), held=held, ceiling=lease.ceiling or None
        )

    def crowded_by_newer(self, lease: Lease) -> int | None:
        """The thread count ``lease``'s child should drop to because children of other processes
        chose theirs after it did and the total is over the math cores; None when it fits."""
        now = time.time()
        me = os.getpid()
        newer = [
            x
            for x in self.leases()
            if x.key != lease.key
            and x.owner != me
            and lease.started <= x.started
            and now - x.started <= FRESH_S
        ]
        if not newer:
            return None
        n_math = math_cores(self.layout)
        others = sum(x.threads for x in newer)
        if lease.threads + others <= n_math:
            return None
        return max(1, n_math - others)

    def bind(self, lease: Lease, pid: int, threads: int | None = None) -> Lease:
        """Record the child's process (and a new thread count) on its lease. The lease is kept also
        when the ledger dropped it meanwhile because its earlier child had ended (a child started
        again with another thread count)."""
        bound = replace(lease, pid=pid, threads=threads or lease.threads)
        self._update(lambda ls: [*(x for x in ls if x.key != lease.key), bound])
        return bound

    def release(self, lease: Lease) -> None:
        self._update(lambda ls: [x for x in ls if x.key != lease.key])


def shared_choice(choice: ThreadChoice, threads: int) -> ThreadChoice:
    """``choice`` cut to ``threads`` to leave the rest of the math cores to other children."""
    return replace(choice, threads=threads, reason="shared", shared=choice.math_cores - threads)


_ledgers: dict[Path, ThreadLedger] = {}
_ledgers_lock = threading.Lock()


def ledger() -> ThreadLedger:
    """The ledger of the current data folder (one per folder and process)."""
    from app.core import paths

    path = paths.data_dir() / LEDGER_NAME
    with _ledgers_lock:
        found = _ledgers.get(path)
        if found is None:
            found = _ledgers[path] = ThreadLedger(path)
        return found
