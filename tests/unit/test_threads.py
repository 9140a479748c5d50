"""The thread choice: the cores that do math on the layouts that matter, less the busy ones, and one
budget shared by every child (app/core/engines/threads.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

import psutil
import pytest

from app.core.engines import threads
from app.core.engines.threads import CpuLayout, CpuUse, Lease, ThreadLedger, choose, math_cores

# (name, layout, what llama.cpp would start)
LAYOUTS = [
    ("2 cores, no hyper-threading", CpuLayout(logical=2, physical=2), 2),
    ("8 physical cores with hyper-threading", CpuLayout(logical=16, physical=8), 8),
    (
        "4 performance (hyper-threaded) + 4 efficiency cores",
        CpuLayout(logical=12, physical=8, performance=4),
        4,
    ),
    ("Apple M2: 4 performance + 4 efficiency cores", CpuLayout(logical=8, physical=8, performance=4), 4),
    (
        "Apple M3 Max: 12 performance + 4 efficiency cores",
        CpuLayout(logical=16, physical=16, performance=12),
        12,
    ),
    ("8 physical cores, the process may use 2 (affinity, container quota)", CpuLayout(16, 8, allowed=2), 2),
    ("physical cores unknown", CpuLayout(logical=4), 4),
    ("one CPU", CpuLayout(logical=1, physical=1), 1),
]


@pytest.mark.parametrize(("layout", "expected"), [(x[1], x[2]) for x in LAYOUTS], ids=[x[0] for x in LAYOUTS])
def test_the_default_is_the_cores_that_do_math(layout: CpuLayout, expected: int) -> None:
    assert math_cores(layout) == expected
    assert choose(layout).threads == expected
    assert choose(layout).reason == "all-free"


@pytest.mark.parametrize(("layout", "n_math"), [(x[1], x[2]) for x in LAYOUTS], ids=[x[0] for x in LAYOUTS])
def test_busy_cores_and_other_children_take_threads_away_but_never_the_last(
    layout: CpuLayout, n_math: int
) -> None:
    one_busy = choose(layout, busy=1)
    assert one_busy.threads == max(1, n_math - 1)
    assert one_busy.reason == ("busy" if n_math > 1 else "fallback")
    held = choose(layout, held=n_math // 2)
    assert held.threads == max(1, n_math - n_math // 2)
    everything = choose(layout, busy=n_math, held=3)
    assert everything.threads == 1 and everything.reason == "fallback"


def test_an_explicit_count_wins_over_a_busy_machine() -> None:
    chosen = choose(CpuLayout(logical=16, physical=8), 12, busy=7, held=4)
    assert (chosen.threads, chosen.reason) == (12, "explicit")
    assert "as asked" in chosen.describe()


def test_a_core_counts_as_busy_from_a_third_of_it() -> None:
    assert [threads.busy_cores(x) for x in (0.0, 0.2, 0.34, 0.5, 1.0, 1.3, 1.5, 3.9)] == [
        0,
        0,
        0,
        1,
        1,
        1,
        2,
        4,
    ]


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="ascii")


def test_intel_hybrid_performance_cores_are_read_from_sysfs(tmp_path: Path) -> None:
    # 4 hyper-threaded performance cores (CPUs 0-7, siblings 2n and 2n+1) and 4 efficiency cores
    _write(tmp_path / "cpu_core" / "cpus", "0-7")
    _write(tmp_path / "cpu_atom" / "cpus", "8-11")
    for cpu in range(12):
        topo = tmp_path / "system" / "cpu" / f"cpu{cpu}" / "topology"
        _write(topo / "physical_package_id", "0")
        _write(topo / "core_id", str(cpu // 2 if cpu < 8 else cpu))
    assert threads._linux_performance_cores(tmp_path) == 4


def test_arm_big_little_performance_cores_are_the_biggest_capacity(tmp_path: Path) -> None:
    for cpu, capacity in enumerate([446, 446, 446, 446, 1024, 1024, 1024, 1024]):
        base = tmp_path / "system" / "cpu" / f"cpu{cpu}"
        _write(base / "cpu_capacity", str(capacity))
        _write(base / "topology" / "physical_package_id", "0")
        _write(base / "topology" / "core_id", str(cpu))
    assert threads._linux_performance_cores(tmp_path) == 4


def test_a_cpu_of_one_kind_is_not_hybrid(tmp_path: Path) -> None:
    for cpu in range(4):
        _write(tmp_path / "system" / "cpu" / f"cpu{cpu}" / "cpu_capacity", "1024")
    assert threads._linux_performance_cores(tmp_path) is None
    assert threads._linux_performance_cores(tmp_path / "nothing") is None


def test_a_container_quota_caps_the_cores(tmp_path: Path) -> None:
    _write(tmp_path / "cpu.max", "250000 100000")
    assert threads._cgroup_cpus(tmp_path) == 2
    _write(tmp_path / "cpu.max", "max 100000")
    assert threads._cgroup_cpus(tmp_path) is None


def test_this_machine_has_a_layout() -> None:
    layout = threads.detect_layout()
    assert layout.logical >= 1
    assert 1 <= math_cores(layout) <= layout.logical


@pytest.fixture
def other_process() -> Iterator[subprocess.Popen[bytes]]:
    """A live process that is not this one (an owner of leases in the ledger)."""
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        yield proc
    finally:
        proc.kill()
        proc.wait()


def test_children_that_take_turns_count_once_and_other_groups_in_full(
    tmp_path: Path, other_process: subprocess.Popen[bytes]
) -> None:
    ledger = ThreadLedger(tmp_path / "threads.json", layout=CpuLayout(logical=16, physical=8))
    me, other = os.getpid(), other_process.pid
    now = time.time()
    leases = [
        Lease("a", me, "model-a", 8, now - 600, pid=me),
        Lease("b", me, "model-a", 8, now - 600, pid=me),  # the same pool: one turn at a time
        Lease("c", me, "model-b", 3, now - 600, pid=me),  # another model of this process: in full
        Lease("d", other, "x", 4, now - 600, pid=other),  # another process, idle for long: not counted
        Lease("e", other, "y", 2, now - 5, pid=other),  # another process, just started: counted
    ]
    quiet = CpuUse(others=0.0, children={other: 0.0}, window_s=1.0)
    assert ledger.held_by_others(leases, "model-a", quiet, now) == 3 + 2
    assert ledger.held_by_others(leases, "model-b", quiet, now) == 8 + 2
    assert ledger.held_by_others(leases, "model-c", quiet, now) == 8 + 3 + 2
    busy = CpuUse(others=0.0, children={other: 3.5}, window_s=1.0)  # the idle one answers now
    assert ledger.held_by_others(leases, "model-a", busy, now) == 3 + 4 + 2


def test_leases_of_ended_processes_are_dropped(
    tmp_path: Path, other_process: subprocess.Popen[bytes]
) -> None:
    ledger = ThreadLedger(tmp_path / "threads.json", layout=CpuLayout(logical=4, physical=4))
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    alive = other_process.pid
    ledger._update(
        lambda _: [
            Lease("gone", ended.pid, "g", 4, time.time()),
            Lease("here", alive, "h", 2, time.time(), pid=alive),
        ]
    )
    assert [x.key for x in ledger.leases()] == ["here"]


def test_a_child_started_again_keeps_its_lease(
    tmp_path: Path, other_process: subprocess.Popen[bytes]
) -> None:
    """A child restarted with another thread count: its old process has ended when the lease is
    bound to the new one, and the lease stays (with the new count)."""
    ledger = ThreadLedger(tmp_path / "threads.json", layout=CpuLayout(logical=4, physical=4))
    first = subprocess.Popen([sys.executable, "-c", "pass"])
    lease = Lease("mine", os.getpid(), "g", 2, time.time())
    ledger._update(lambda ls: [*ls, lease])
    lease = ledger.bind(lease, first.pid)
    first.wait()  # the old child ends
    ledger.bind(lease, other_process.pid, 1)
    assert [(x.key, x.pid, x.threads) for x in ledger.leases()] == [("mine", other_process.pid, 1)]


class FixedUse:
    """The CPU use the sampler would read, fixed (the sampler itself is tested on the real machine below)."""

    def __init__(self, others: float = 0.0) -> None:
        self.others = others

    def sample(self, watched: Iterable[int] = ()) -> CpuUse:
        return CpuUse(others=self.others, children={}, window_s=1.0)


def test_a_second_model_gets_the_cores_the_first_leaves(tmp_path: Path) -> None:
    ledger = ThreadLedger(tmp_path / "threads.json", FixedUse(), CpuLayout(logical=16, physical=8))
    _, a = ledger.lease(3, "model-a")
    second, b = ledger.lease(None, "model-b")
    assert (second.threads, second.reason, second.shared) == (5, "shared", 3)
    again, a2 = ledger.lease(None, "model-a")  # another configuration of the first model: takes turns with it
    assert again.threads == 8 - 5
    for x in (a, b, a2):
        ledger.release(x)
    assert ledger.leases() == []
    busy = ThreadLedger(tmp_path / "busy.json", FixedUse(2.6), CpuLayout(logical=16, physical=8))
    chosen, lease = busy.lease(None, "m")
    assert (chosen.threads, chosen.reason, chosen.busy) == (5, "busy", 3)
    busy.release(lease)


def test_the_sampler_sees_another_process_keep_a_core_busy(tmp_path: Path) -> None:
    """A spinning process that is not this one's child (a child started it and ended)."""
    spin = tmp_path / "spin.py"
    spin.write_text("import time\nend = time.time() + 30\nwhile time.time() < end:\n    pass\n")
    launch = (
        "import subprocess, sys; "
        "quiet = subprocess.DEVNULL; "
        f"print(subprocess.Popen([sys.executable, {str(spin)!r}], stdout=quiet, stderr=quiet).pid)"
    )
    started = subprocess.run([sys.executable, "-c", launch], capture_output=True, text=True, check=True)
    spinner = psutil.Process(int(started.stdout))
    try:
        deadline = time.monotonic() + 10
        while spinner.cpu_times().user < 0.05 and time.monotonic() < deadline:
            pass  # until it spins
        use = threads.CpuSampler().sample()
        assert use.others >= 0.6, use
    finally:
        spinner.kill()


def test_an_explicit_count_is_leased_as_asked(tmp_path: Path) -> None:
    ledger = ThreadLedger(tmp_path / "threads.json", layout=CpuLayout(logical=2, physical=2))
    chosen, lease = ledger.lease(7, "g")
    assert (chosen.threads, lease.threads, lease.auto) == (7, 7, False)
    ledger.release(lease)


def test_a_child_that_chose_first_makes_room_for_children_that_chose_after_it(
    tmp_path: Path, other_process: subprocess.Popen[bytes]
) -> None:
    ledger = ThreadLedger(tmp_path / "threads.json", layout=CpuLayout(logical=2, physical=2))
    mine = Lease("mine", os.getpid(), "g", 2, time.time() - 1, pid=os.getpid())
    other = other_process.pid
    ledger._update(lambda _: [mine])
    assert ledger.crowded_by_newer(mine) is None
    ledger._update(lambda ls: [*ls, Lease("theirs", other, "h", 1, time.time(), pid=other)])
    assert ledger.crowded_by_newer(mine) == 1
    earlier = Lease("old", other, "h2", 2, time.time() - 30, pid=other)  # chose long before: not newer
    ledger._update(lambda _: [mine, earlier])
    assert ledger.crowded_by_newer(mine) is None


def test_a_calibrated_ceiling_caps_an_automatic_count_only() -> None:
    layout = CpuLayout(logical=16, physical=8)
    assert (choose(layout, ceiling=4).threads, choose(layout, ceiling=4).reason) == (4, "calibrated")
    assert choose(layout, busy=6, ceiling=4).threads == 2  # fewer free cores than the ceiling
    assert choose(layout, 12, ceiling=4).threads == 12  # an explicit count wins
    assert choose(layout, ceiling=8).reason == "all-free"
