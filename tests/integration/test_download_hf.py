"""Downloads from a real Hugging Face-compatible hub (olah, offline mirror mode) on loopback."""

from __future__ import annotations

import dataclasses
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.cache import (
    CacheManager,
    CancelToken,
    DiskSpaceError,
    DownloadCancelled,
    HubError,
    NotCachedError,
    ProgressEvent,
    SpecResolutionError,
    hf_cache_root,
    registry_status,
    spec_status,
)
from app.core.cache.hubs import backend_for
from app.core.registry import Family, Registry, parse_family
from app.devtools.hubs.huggingface import OlahHub, RangeHub
from app.devtools.hubs.proxies import FlakyProxy
from app.devtools.hubs.repos import (
    BIG_REPO,
    INDEXED_MLX_REPO,
    SHARDED_MLX_REPO,
    TINY_REPO,
    big_repo_files,
    sharded_mlx_files,
    split_family,
    tiny_family,
    tiny_mlx_files,
    tiny_repo_files,
)
from tests.integration.hub_servers import hf_endpoint, olah_hub

__all__ = ["hf_endpoint", "olah_hub"]  # fixtures


class Events:
    def __init__(self) -> None:
        self.items: list[ProgressEvent] = []
        self.threads: set[str] = set()

    def __call__(self, ev: ProgressEvent) -> None:
        self.items.append(ev)
        self.threads.add(threading.current_thread().name)


def sha256(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


def test_gguf_target_and_drafter_download(hf_endpoint: str, tmp_path: Path) -> None:
    fam = tiny_family()
    spec = fam.specs[0]
    target = CacheManager(fam, spec, "target", "Q4_0", "huggingface")
    drafter = CacheManager(fam, spec, "drafter", "Q4_0", "huggingface", draft_quantization="Q8_0")
    assert target.status().state == "absent"
    assert drafter.status().state == "absent"
    with pytest.raises(NotCachedError, match="tandem download tiny --format gguf"):
        target.resolve_path()

    events = Events()
    path = target.download(progress=events)
    assert path.name == "tiny-Q4_0.gguf"
    assert path.read_bytes() == tiny_repo_files()["tiny-Q4_0.gguf"]
    assert events.threads == {threading.current_thread().name}
    phases = [e.phase for e in events.items]
    assert phases[0] == "checking" and phases[-1] == "done" and "verifying" in phases
    last = events.items[-1]
    assert last.bytes_done == last.bytes_total == 200_000

    st = target.status()
    assert (st.state, st.bytes_total, st.source) == ("cached", 200_000, "entry")
    assert target.entry_dir.name == "tiny-gguf-0.001b-Q4_0"
    # the bytes live in the standard HF cache, the entry only links them
    real = path.resolve()
    assert hf_cache_root() in real.parents and real.parent.name == "blobs"
    assert real.name == hashlib.sha256(real.read_bytes()).hexdigest()  # LFS etag == sha256

    dpath = drafter.download()
    assert dpath.read_bytes() == tiny_repo_files()["draft/tiny-draft-Q8_0.gguf"]
    assert drafter.entry_dir.name == "tiny-gguf-0.001b-Q4_0-draft-Q8_0"
    assert drafter.status().state == "cached"

    # the same drafter for another target quantization is found, not fetched again
    other = CacheManager(fam, spec, "drafter", "Q8_0", "huggingface", draft_quantization="Q8_0")
    assert other.status().state == "cached" and other.status().source == "hub-cache"
    events2 = Events()
    other.download(progress=events2)
    assert all(e.bytes_total == 0 for e in events2.items if e.phase != "checking")

    # huggingface_hub's own tooling sees Tandem's downloads
    from huggingface_hub import scan_cache_dir

    info = scan_cache_dir(hf_cache_root())
    assert {r.repo_id for r in info.repos} == {TINY_REPO}
    files = {f.file_name for r in info.repos for rev in r.revisions for f in rev.files}
    assert {"tiny-Q4_0.gguf", "tiny-draft-Q8_0.gguf"} <= files

    status = spec_status(fam, spec, "huggingface")
    assert status.quantizations["Q4_0"].state == "cached"
    assert status.quantizations["Q8_0"].state == "absent"
    assert status.draft_quantizations is not None
    assert status.draft_quantizations["Q8_0"].state == "cached"
    assert status.draft_quantizations["F16"].state == "absent"


def test_split_gguf_and_mlx_snapshot(hf_endpoint: str) -> None:
    fam = split_family()
    split = CacheManager(fam, fam.specs[0], "target", "F16", "huggingface")
    path = split.download()
    assert path.name == "tiny-F16-00001-of-00002.gguf"
    assert (path.parent / "tiny-F16-00002-of-00002.gguf").read_bytes() == tiny_repo_files()[
        "F16/tiny-F16-00002-of-00002.gguf"
    ]
    assert split.status().bytes_total == 300_000

    mlx = CacheManager(fam, fam.specs[1], "target", "4bit", "huggingface")
    assert mlx.status().state == "absent"
    events = Events()
    snap = mlx.download(progress=events)
    assert snap.is_dir()
    for name, data in tiny_mlx_files().items():
        assert (snap / name).read_bytes() == data
    assert mlx.status().state == "cached"
    assert events.items[-1].bytes_done == sum(len(d) for d in tiny_mlx_files().values())


def test_found_in_hub_cache_from_another_tool(hf_endpoint: str) -> None:
    from huggingface_hub import hf_hub_download

    hf_hub_download(
        TINY_REPO, "tiny-Q8_0.gguf", revision="main", endpoint=hf_endpoint, cache_dir=hf_cache_root()
    )
    fam = tiny_family()
    mgr = CacheManager(fam, fam.specs[0], "target", "Q8_0", "huggingface")
    st = mgr.status()
    assert (st.state, st.source) == ("cached", "hub-cache")
    # resolving links it without any network
    path = mgr.resolve_path()
    assert path.read_bytes() == tiny_repo_files()["tiny-Q8_0.gguf"]
    assert mgr.status().source == "entry"


def _sharded_mlx_family() -> Family:
    return parse_family(
        {
            "name": "sharded",
            "specs": [
                {
                    "format": "mlx",
                    "size_in_billions": 0.001,
                    "quantizations": ["sharded", "indexed"],  # names the test repos
                    "sources": {"huggingface": {"model_id": "tandem-test/{quantization}-mlx-4bit"}},
                },
            ],
        }
    )


@pytest.mark.parametrize(
    ("repo", "fetched", "why"),
    [
        (SHARDED_MLX_REPO, ["config.json", "tokenizer.json", "model-00002-of-00004.safetensors"], "shards"),
        (
            SHARDED_MLX_REPO,
            ["config.json", *(f"model-{k:05d}-of-00004.safetensors" for k in range(1, 5))],
            "tokenizer",
        ),
        (
            INDEXED_MLX_REPO,
            [
                "config.json",
                "tokenizer.json",
                "model.safetensors.index.json",
                *(f"model-{k:05d}-of-00004.safetensors" for k in (1, 2, 4)),
            ],
            "indexed shard",
        ),
    ],
)
def test_partial_mlx_snapshot_from_another_tool_is_not_cached(
    hf_endpoint: str, repo: str, fetched: list[str], why: str
) -> None:
    """Another tool fetched only part of a sharded mlx repo (an interrupted ``hf download``):
    without a Tandem manifest, the snapshot counts as cached only with config, tokenizer and
    every weight shard; otherwise it is partial and resolve_path does not adopt it."""
    from huggingface_hub import hf_hub_download

    for name in fetched:
        hf_hub_download(repo, name, revision="main", endpoint=hf_endpoint, cache_dir=hf_cache_root())
    fam = _sharded_mlx_family()
    quant = repo.split("/")[1].split("-")[0]  # sharded / indexed
    mgr = CacheManager(fam, fam.specs[0], "target", quant, "huggingface")
    st = mgr.status()
    assert (st.state, st.source) == ("partial", "hub-cache"), why
    with pytest.raises(NotCachedError):
        mgr.resolve_path()
    assert not (mgr.entry_dir / "manifest.json").exists()
    # downloading completes it; then it is cached and loads from the entry
    snap = mgr.download()
    for name, data in sharded_mlx_files(index=repo == INDEXED_MLX_REPO).items():
        assert (snap / name).read_bytes() == data
    assert (mgr.status().state, mgr.status().source) == ("cached", "entry")


def test_complete_sharded_mlx_snapshot_from_another_tool_is_adopted(hf_endpoint: str) -> None:
    from huggingface_hub import snapshot_download

    snapshot_download(SHARDED_MLX_REPO, revision="main", endpoint=hf_endpoint, cache_dir=hf_cache_root())
    fam = _sharded_mlx_family()
    mgr = CacheManager(fam, fam.specs[0], "target", "sharded", "huggingface")
    assert (mgr.status().state, mgr.status().source) == ("cached", "hub-cache")
    snap = mgr.resolve_path()
    assert (snap / "model-00004-of-00004.safetensors").is_file()
    assert (mgr.status().state, mgr.status().source) == ("cached", "entry")


def test_cancel_stops_quickly_and_leaves_nothing_claiming_complete(olah_hub: OlahHub) -> None:
    proxy = FlakyProxy(olah_hub.port, rate=1_000_000)
    proxy.start()
    try:
        fam = tiny_family(BIG_REPO)
        mgr = CacheManager(
            _big_family(), _big_family().specs[0], "target", "Q4_0", "huggingface", endpoint=proxy.endpoint
        )
        del fam
        token = CancelToken()
        events = Events()

        def progress(ev: ProgressEvent) -> None:
            events(ev)
            if ev.phase == "downloading" and ev.bytes_done > 500_000 and not token.cancelled:
                token.cancel()
                cancelled_at.append(time.monotonic())

        cancelled_at: list[float] = []
        with pytest.raises(DownloadCancelled):
            mgr.download(progress=progress, cancel=token)
        assert cancelled_at and time.monotonic() - cancelled_at[0] < 1.5
        assert mgr.status().state in ("absent", "partial")
        blobs = list((hf_cache_root() / "models--tandem-test--big-GGUF" / "blobs").glob("*"))
        time.sleep(0)  # the library removes its temp file when it unwinds
        assert not [b for b in blobs if not b.name.endswith(".incomplete")]
        with pytest.raises(NotCachedError):
            mgr.resolve_path()
    finally:
        proxy.stop()


def _big_family() -> Family:
    return parse_family(
        {
            "name": "big",
            "specs": [
                {
                    "format": "gguf",
                    "size_in_billions": 1,
                    "quantizations": ["Q4_0"],
                    "sources": {
                        "huggingface": {
                            "model_id": BIG_REPO,
                            "model_file_name_template": "big-{quantization}.gguf",
                            "draft_model_file_name_template": "draft-{draft_quantization}.gguf",
                            "draft_quantizations": ["Q8_0"],
                        }
                    },
                }
            ],
        }
    )


def test_resume_after_connection_drop(olah_hub: OlahHub, caplog: pytest.LogCaptureFixture) -> None:
    proxy = FlakyProxy(olah_hub.port, drop_after=2_000_000)
    proxy.start()
    try:
        fam = _big_family()
        mgr = CacheManager(fam, fam.specs[0], "target", "Q4_0", "huggingface", endpoint=proxy.endpoint)
        events = Events()
        path = mgr.download(progress=events)
        assert proxy.dropped == 1
        assert sha256(path) == hashlib.sha256(big_repo_files()["big-Q4_0.gguf"]).hexdigest()
        # resumed with Range: the counted bytes never exceed the file (no restart from zero)
        assert max(e.bytes_done for e in events.items) == 6_000_000
        assert "resume" in caplog.text.lower()
    finally:
        proxy.stop()


_KILL_SCRIPT = """
import sys
from app.core.cache import CacheManager
from tests.integration.test_download_hf import _big_family
fam = _big_family()
def progress(ev):
    if ev.bytes_done:
        print("bytes", ev.bytes_done, flush=True)
mgr = CacheManager(fam, fam.specs[0], "target", "Q4_0", "huggingface", endpoint=sys.argv[1])
mgr.download(progress=progress)
"""


def test_killed_mid_file_then_a_new_process_resumes(olah_hub: OlahHub) -> None:
    proxy = FlakyProxy(olah_hub.port, rate=1_500_000)
    proxy.start()
    try:
        repo_root = Path(__file__).resolve().parents[2]
        proc = subprocess.Popen(
            [sys.executable, "-c", _KILL_SCRIPT, proxy.endpoint],
            cwd=repo_root,
            env={**os.environ, "PYTHONPATH": str(repo_root)},
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("bytes") and int(line.split()[1]) > 1_000_000:
                break
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        proc.stdout.close()
        blobs = hf_cache_root() / "models--tandem-test--big-GGUF" / "blobs"
        leftovers = list(blobs.glob("*.incomplete"))
        assert leftovers, "the killed process should have left its partial file"
        kept = leftovers[0].stat().st_size
        fam = _big_family()
        with RangeHub(olah_hub.endpoint) as hub:  # a new process resumes the killed one's bytes
            mgr = CacheManager(fam, fam.specs[0], "target", "Q4_0", "huggingface", endpoint=hub.endpoint)
            assert mgr.status().state == "partial"
            path = mgr.download()
        assert [(s, e) for p, s, e in hub.served if p.endswith("big-Q4_0.gguf")] == [(kept, 6_000_000)]
        assert not list(blobs.glob("*.incomplete"))
        assert sha256(path) == hashlib.sha256(big_repo_files()["big-Q4_0.gguf"]).hexdigest()
    finally:
        proxy.stop()


def test_disk_space_refusal(hf_endpoint: str) -> None:
    fam = tiny_family()
    free = shutil.disk_usage(hf_cache_root().parent.parent).free
    mgr = CacheManager(fam, fam.specs[0], "target", "Q8_0", "huggingface", reserve_bytes=free - 100_000)
    with pytest.raises(DiskSpaceError, match=r"not enough disk space.*needs 293\.0 KB"):
        mgr.download()
    assert mgr.status().state == "absent"
    assert not (hf_cache_root() / "models--tandem-test--tiny-GGUF" / "blobs").exists() or not list(
        (hf_cache_root() / "models--tandem-test--tiny-GGUF" / "blobs").glob("*")
    )


def test_delete_keeps_shared_drafter_and_frees_disk(hf_endpoint: str) -> None:
    fam = tiny_family()
    spec = fam.specs[0]
    q4 = CacheManager(fam, spec, "target", "Q4_0", "huggingface")
    q8 = CacheManager(fam, spec, "target", "Q8_0", "huggingface")
    d4 = CacheManager(fam, spec, "drafter", "Q4_0", "huggingface", draft_quantization="Q8_0")
    d8 = CacheManager(fam, spec, "drafter", "Q8_0", "huggingface", draft_quantization="Q8_0")
    for m in (q4, q8, d4, d8):
        m.download()
    drafter_file = d8.resolve_path().resolve()

    assert q4.delete() == 0  # default: only Tandem's entries
    assert not q4.entry_dir.exists() and not d4.entry_dir.exists()  # cascade to its drafter
    assert d8.status().state == "cached"
    assert q4.status().source == "hub-cache"  # the hub file is still there for other tools

    freed = q8.delete(free_disk=True)
    assert not d8.entry_dir.exists()
    # Q8_0 target + the drafter (no longer used by any entry); Q4_0's blob has no entry either
    # but is not part of this delete
    assert freed == 300_000 + 50_000
    assert not drafter_file.exists()
    assert q4.status().state == "cached"  # untouched hub file


def test_shared_drafter_survives_free_disk(hf_endpoint: str) -> None:
    fam = tiny_family()
    spec = fam.specs[0]
    q4 = CacheManager(fam, spec, "target", "Q4_0", "huggingface")
    d4 = CacheManager(fam, spec, "drafter", "Q4_0", "huggingface", draft_quantization="Q8_0")
    d8 = CacheManager(fam, spec, "drafter", "Q8_0", "huggingface", draft_quantization="Q8_0")
    for m in (q4, d4, d8):
        m.download()
    freed = q4.delete(free_disk=True)
    assert freed == 200_000  # the target only: the drafter is still used by the Q8_0 entry
    assert d8.status().state == "cached"
    assert d8.resolve_path().read_bytes() == tiny_repo_files()["draft/tiny-draft-Q8_0.gguf"]


def test_missing_file_is_a_clear_hub_error(hf_endpoint: str) -> None:
    data = tiny_family().model_dump(mode="json", exclude_none=True)
    data["specs"][0]["quantizations"].append("Q2_K")
    fam = parse_family(data)
    mgr = CacheManager(fam, fam.specs[0], "target", "Q2_K", "huggingface")
    # the listing has no Q2_K file: one line naming what the repository holds, nothing fetched
    with pytest.raises(
        SpecResolutionError,
        match=r"no model file for Q2_K \(the registry names tiny-Q2_K\.gguf\); "
        r"it holds model quantizations F16, Q4_0, Q8_0",
    ):
        mgr.download()
    assert mgr.status().state == "absent"
    # a plan naming that file, sent to the hub as it is: olah answers 401, which is "no such
    # file in repo R" (the repository was listed), not "repository not found or private"
    plan = dataclasses.replace(
        CacheManager(fam, fam.specs[0], "target", "Q8_0", "huggingface").plan, files=("tiny-Q2_K.gguf",)
    )
    missing = r"no such file in repo tandem-test/tiny-GGUF@main: tiny-Q2_K\.gguf"
    with pytest.raises(HubError, match=missing) as err:
        backend_for("huggingface").remote_files(plan)
    assert err.value.code == "not_found"


def test_registry_status_json_shape(hf_endpoint: str) -> None:
    reg = Registry.load()
    reg.families["tiny"] = tiny_family()
    CacheManager(
        reg.families["tiny"], reg.families["tiny"].specs[0], "target", "Q4_0", "huggingface"
    ).download()
    out = registry_status(reg)
    by_name = {f["name"]: f for f in out}
    tiny = by_name["tiny"]["specs"][0]
    assert tiny["format"] == "gguf" and tiny["hub"] == "huggingface"
    assert tiny["quantizations"]["Q4_0"] == "cached"
    assert tiny["quantizations"]["Q8_0"] == "absent"
    assert tiny["details"]["quantizations"]["Q4_0"]["source"] == "entry"
    assert set(tiny["draft_quantizations"]) == {"Q8_0", "F16"}
    smol = by_name["smollm2-135m-instruct"]["specs"][0]
    assert smol["hub"] == "local"
    assert smol["quantizations"]["Q4_1"] == "cached"
    assert smol["draft_quantizations"]["Q4_1"] == "cached"
    gemma4 = by_name["gemma-4"]["specs"]
    assert all(s["quantizations"] and "draft_quantizations" in s for s in gemma4)
    for fam in out:
        for s in fam["specs"]:
            for st in [*s["quantizations"].values(), *s.get("draft_quantizations", {}).values()]:
                assert st in ("cached", "partial", "absent", "invalid")
                if st == "invalid":
                    assert s["reason"]


def test_nothing_touches_the_real_user_cache(hf_endpoint: str, tmp_path: Path) -> None:
    assert tmp_path in hf_cache_root().parents
    fam = tiny_family()
    CacheManager(fam, fam.specs[0], "target", "Q4_0", "huggingface").download()
    real = Path.home() / ".cache" / "huggingface" / "hub" / "models--tandem-test--tiny-GGUF"
    assert not real.exists()


def test_real_gguf_through_the_hub_loads(smollm2_q4: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    """The real SmolLM2 file, served by olah, arrives intact and gguf-py reads it."""
    import gguf

    from app.devtools.hubs.repos import build_hf_repo

    hub = OlahHub(tmp_path_factory.mktemp("olah-real"))
    build_hf_repo(hub.mirrors, "tandem-test/SmolLM2-GGUF", {"SmolLM2-135M-Instruct.Q4_1.gguf": smollm2_q4})
    hub.start("tandem-test/SmolLM2-GGUF")
    try:
        fam = parse_family(
            {
                "name": "smol-hub",
                "specs": [
                    {
                        "format": "gguf",
                        "size_in_billions": 0.135,
                        "quantizations": ["Q4_1"],
                        "model_file_name_template": "SmolLM2-135M-Instruct.{quantization}.gguf",
                        "sources": {"huggingface": {"model_id": "tandem-test/SmolLM2-GGUF"}},
                    }
                ],
            }
        )
        mgr = CacheManager(fam, fam.specs[0], "target", "Q4_1", "huggingface", endpoint=hub.endpoint)
        path = mgr.download()
        assert mgr.status().state == "cached"
        assert path.stat().st_size == smollm2_q4.stat().st_size
        reader = gguf.GGUFReader(path)
        assert len(reader.tensors) > 0
    finally:
        hub.stop()


@pytest.fixture()
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 2 MB tmpfs (needs root: CI containers usually are; skipped elsewhere)."""
    mnt = tmp_path / "small-disk"
    mnt.mkdir()
    if not hasattr(os, "geteuid") or os.geteuid() != 0 or not shutil.which("mount"):
        pytest.skip("mounting a small tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mnt)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode(errors='replace').strip()}")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)


def test_out_of_space_during_download(
    olah_hub: OlahHub, small_disk: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_HUB_CACHE", str(small_disk / "hub"))
    proxy = FlakyProxy(olah_hub.port, rate=300_000)
    proxy.start()
    try:
        fam = tiny_family()
        mgr = CacheManager(
            fam, fam.specs[0], "target", "Q8_0", "huggingface", endpoint=proxy.endpoint, reserve_bytes=0
        )
        filler = small_disk / "filler"

        def progress(ev: ProgressEvent) -> None:
            # another program fills the disk while we download
            if ev.phase == "downloading" and not filler.exists():
                free = shutil.disk_usage(small_disk).free
                with filler.open("wb") as fh:
                    fh.write(b"\0" * max(free - 4096, 0))

        with pytest.raises(DiskSpaceError, match="ran out of space"):
            mgr.download(progress=progress)
        assert mgr.status().state != "cached"
        blobs = small_disk / "hub" / "models--tandem-test--tiny-GGUF" / "blobs"
        # only the resumable partial is left, never a file under the final name
        assert all(b.name.endswith(".incomplete") for b in blobs.glob("*"))
        filler.unlink()
        mgr2 = CacheManager(
            fam, fam.specs[0], "target", "Q8_0", "huggingface", endpoint=olah_hub.endpoint, reserve_bytes=0
        )
        assert mgr2.download().read_bytes() == tiny_repo_files()["tiny-Q8_0.gguf"]
    finally:
        proxy.stop()
