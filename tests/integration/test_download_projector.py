"""A vision target's projector (``mmproj``) through the real loopback hubs: fetched with
its target in one transfer, its own cached marker, cancel and resume, deleted with its target while
a file another entry uses stays."""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path

import pytest

from app.core.cache import (
    CacheManager,
    CancelToken,
    DownloadCancelled,
    ProgressEvent,
    hf_cache_root,
    modelscope_cache_root,
    projector_on_disk,
    registry_status,
    spec_status,
)
from app.core.engines.base import Sampling
from app.core.launch.plan import LaunchChoice, plan_launch
from app.core.registry import Family, Registry, parse_family, reads_images
from app.core.speculative import SpeculationOptions
from app.devtools.hubs.huggingface import OlahHub
from app.devtools.hubs.modelscope import ModelScopeHub
from app.devtools.hubs.proxies import FlakyProxy
from app.devtools.hubs.repos import BIG_VISION_REPO, VISION_REPO, big_vision_repo_files, vision_repo_files
from tests.integration.hub_servers import hf_endpoint, modelscope_hub, olah_hub
from tests.integration.test_download_hf import Events

__all__ = ["hf_endpoint", "modelscope_hub", "olah_hub"]  # fixtures


def _source(repo: str, target: str) -> dict[str, object]:
    return {
        "model_id": repo,
        "model_file_name_template": target,
        "mmproj_file_name_template": "mmproj-{mmproj_quantization}.gguf",
        "mmproj_quantizations": ["F16", "BF16"],
    }


def vision_family() -> Family:
    return parse_family(
        {
            "name": "vision",
            "abilities": ["chat", "vision"],
            "specs": [
                {
                    "format": "gguf",
                    "size_in_billions": 0.002,
                    "quantizations": ["Q4_0", "Q8_0"],
                    "sources": {
                        "huggingface": _source(VISION_REPO, "vision-{quantization}.gguf"),
                        "modelscope": _source(VISION_REPO, "vision-{quantization}.gguf"),
                    },
                }
            ],
        }
    )


def big_vision_family() -> Family:
    src = _source(BIG_VISION_REPO, "bigv-{quantization}.gguf")
    src["mmproj_quantizations"] = ["F16"]
    return parse_family(
        {
            "name": "bigv",
            "specs": [
                {
                    "format": "gguf",
                    "size_in_billions": 0.004,
                    "quantizations": ["Q4_0"],
                    "sources": {"huggingface": src, "modelscope": src},
                }
            ],
        }
    )


def sha256(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


def projector(fam: Family, quant: str, hub: str, pq: str = "F16") -> CacheManager:
    return CacheManager(fam, fam.specs[0], "projector", quant, hub, mmproj_quantization=pq)


@pytest.mark.parametrize("hub", ["huggingface", "modelscope"])
def test_the_target_download_brings_its_projector(
    hub: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    request.getfixturevalue("hf_endpoint" if hub == "huggingface" else "modelscope_hub")
    fam = vision_family()
    spec = fam.specs[0]
    target = CacheManager(fam, spec, "target", "Q4_0", hub)
    st = spec_status(fam, spec, hub)
    assert st.mmproj_quantizations is not None
    assert {q: s.state for q, s in st.mmproj_quantizations.items()} == {"F16": "absent", "BF16": "absent"}

    events = Events()
    path = target.download(progress=events)
    assert path.read_bytes() == vision_repo_files()["vision-Q4_0.gguf"]
    # one transfer: one byte count covering both files, one "done"
    last = events.items[-1]
    assert last.phase == "done" and last.bytes_done == last.bytes_total == 200_000 + 60_000
    assert [e.phase for e in events.items].count("done") == 1

    mm = projector(fam, "Q4_0", hub)
    assert mm.entry_dir.name == "vision-gguf-0.002b-Q4_0-mmproj-F16"
    assert (mm.status().state, mm.status().bytes_total) == ("cached", 60_000)
    assert mm.resolve_path().read_bytes() == vision_repo_files()["mmproj-F16.gguf"]
    root = hf_cache_root() if hub == "huggingface" else modelscope_cache_root()
    assert root in mm.resolve_path().resolve().parents  # the bytes live in the hub's own cache

    # the cached marker the browser and `tandem models --json` read
    out = spec_status(fam, spec, hub).to_json()
    assert out["quantizations"] == {"Q4_0": "cached", "Q8_0": "absent"}
    assert out["mmproj_quantizations"] == {"F16": "cached", "BF16": "absent"}
    assert out["details"]["mmproj_quantizations"]["F16"]["bytes"] == 60_000

    # everything on disk: a second download asks nothing and counts nothing
    again = Events()
    assert target.download(progress=again) == path
    assert [e.phase for e in again.items] == ["done"]

    # the launch loads it and says it reads images
    found = projector_on_disk(fam, spec, "Q4_0", hub)
    assert found is not None and found.read_bytes() == vision_repo_files()["mmproj-F16.gguf"]
    choice = LaunchChoice(fam, spec, "Q4_0", "llama.cpp", SpeculationOptions(), 2048, None, Sampling())
    plan = plan_launch(choice, lambda f, s, role, q, dq: CacheManager(f, s, role, q, hub).resolve_path())
    assert plan.request.mmproj_path == str(found) and plan.reads_images and plan.notice == ""
    assert reads_images(fam, spec)


def test_another_quantization_finds_the_projector_already_on_disk(hf_endpoint: str) -> None:
    fam = vision_family()
    spec = fam.specs[0]
    CacheManager(fam, spec, "target", "Q4_0", "huggingface").download()
    q8 = CacheManager(fam, spec, "target", "Q8_0", "huggingface")
    events = Events()
    q8.download(progress=events)
    assert events.items[-1].bytes_total == 300_000  # the projector was not fetched again
    assert projector(fam, "Q8_0", "huggingface").status().state == "cached"


def test_a_launch_without_the_projector_says_so_in_one_line(hf_endpoint: str) -> None:
    fam = vision_family()
    spec = fam.specs[0]
    target = CacheManager(fam, spec, "target", "Q4_0", "huggingface")
    target.download()
    projector(fam, "Q4_0", "huggingface").delete()  # as if downloaded before the projector was declared
    for blob in (hf_cache_root() / "models--tandem-test--vision-GGUF" / "snapshots").rglob("mmproj-*"):
        blob.resolve().unlink()
        blob.unlink()
    assert target.status().state == "cached"
    choice = LaunchChoice(fam, spec, "Q4_0", "llama.cpp", SpeculationOptions(), 2048, None, Sampling())
    plan = plan_launch(choice, lambda f, s, role, q, dq: CacheManager(f, s, role, q).resolve_path())
    assert plan.request.mmproj_path is None and not plan.reads_images
    assert "\n" not in plan.notice and "reads text only" in plan.notice
    assert "tandem download vision --format gguf --size 0.002 --quant Q4_0" in plan.notice
    # downloading the target again fetches only the projector
    events = Events()
    target.download(progress=events)
    assert events.items[-1].bytes_total == 60_000
    assert plan_launch(choice, lambda f, s, role, q, dq: target.resolve_path()).request.mmproj_path


def test_cancel_during_the_projector_then_resume(olah_hub: OlahHub) -> None:
    fam = big_vision_family()
    spec = fam.specs[0]
    proxy = FlakyProxy(olah_hub.port, rate=1_000_000)
    proxy.start()
    try:
        target = CacheManager(fam, spec, "target", "Q4_0", "huggingface", endpoint=proxy.endpoint)
        token = CancelToken()

        def progress(ev: ProgressEvent) -> None:
            if ev.phase == "downloading" and ev.bytes_done > 1_500_000:  # inside the projector
                token.cancel()

        with pytest.raises(DownloadCancelled):
            target.download(progress=progress, cancel=token)
    finally:
        proxy.stop()
    # the target finished first and stays; the projector is not marked ready
    assert target.status().state == "cached"
    mm = projector(fam, "Q4_0", "huggingface")
    assert mm.status().state in ("absent", "partial")
    assert spec_status(fam, spec, "huggingface").to_json()["mmproj_quantizations"]["F16"] != "cached"

    # resume through a connection that drops mid-file: the transfer picks up with Range
    drop = FlakyProxy(olah_hub.port, drop_after=1_000_000)
    drop.start()
    try:
        target = CacheManager(fam, spec, "target", "Q4_0", "huggingface", endpoint=drop.endpoint)
        events = Events()
        target.download(progress=events)
        assert drop.dropped == 1
    finally:
        drop.stop()
    assert events.items[-1].bytes_total == 4_000_000  # only the projector was left to fetch
    assert max(e.bytes_done for e in events.items) == 4_000_000  # resumed, not restarted
    assert sha256(mm.resolve_path()) == hashlib.sha256(big_vision_repo_files()["mmproj-F16.gguf"]).hexdigest()


def test_modelscope_cancel_keeps_a_resumable_projector(modelscope_hub: ModelScopeHub) -> None:
    fam = big_vision_family()
    spec = fam.specs[0]
    proxy = FlakyProxy(modelscope_hub.server.server_address[1], rate=1_000_000)
    proxy.start()
    try:
        target = CacheManager(fam, spec, "target", "Q4_0", "modelscope", endpoint=proxy.endpoint)
        token = CancelToken()

        def progress(ev: ProgressEvent) -> None:
            if ev.phase == "downloading" and ev.bytes_done > 1_500_000:
                token.cancel()

        with pytest.raises(DownloadCancelled):
            target.download(progress=progress, cancel=token)
    finally:
        proxy.stop()
    mm = projector(fam, "Q4_0", "modelscope")
    st = mm.status()
    assert st.state == "partial" and 0 < st.bytes_present < st.bytes_total == 4_000_000
    target = CacheManager(fam, spec, "target", "Q4_0", "modelscope", endpoint=modelscope_hub.endpoint)
    target.download()
    assert mm.resolve_path().read_bytes() == big_vision_repo_files()["mmproj-F16.gguf"]
    assert any(r.startswith("RANGE mmproj-F16.gguf bytes=") for r in modelscope_hub.server.requests)


@pytest.mark.parametrize("hub", ["huggingface", "modelscope"])
def test_delete_takes_the_projector_but_keeps_a_shared_file(hub: str, request: pytest.FixtureRequest) -> None:
    request.getfixturevalue("hf_endpoint" if hub == "huggingface" else "modelscope_hub")
    fam = vision_family()
    spec = fam.specs[0]
    q4 = CacheManager(fam, spec, "target", "Q4_0", hub)
    q8 = CacheManager(fam, spec, "target", "Q8_0", hub)
    q4.download()
    q8.download()
    mm4, mm8 = projector(fam, "Q4_0", hub), projector(fam, "Q8_0", hub)
    shared = mm8.resolve_path().resolve()
    assert mm4.resolve_path().resolve() == shared  # one file on disk for both entries

    freed = q4.delete(free_disk=True)
    assert freed == 200_000  # the Q4_0 target only: the projector is still used by Q8_0's entry
    assert not q4.entry_dir.exists() and not mm4.entry_dir.exists()  # the cascade
    assert shared.exists() and mm8.status().state == "cached"

    freed = q8.delete(free_disk=True)
    assert freed == 300_000 + 60_000
    assert not mm8.entry_dir.exists() and not shared.exists()
    out = spec_status(fam, spec, hub).to_json()
    assert out["mmproj_quantizations"] == {"F16": "absent", "BF16": "absent"}


def test_a_projector_the_repository_lacks_is_skipped_with_a_note(
    hf_endpoint: str, caplog: pytest.LogCaptureFixture
) -> None:
    data = vision_family().model_dump(mode="json", exclude_none=True)
    hf = data["specs"][0]["sources"]["huggingface"]
    hf["mmproj_file_name_template"] = "mmproj-model-{mmproj_quantization}.gguf"  # not in the repo
    fam = parse_family(data)
    target = CacheManager(fam, fam.specs[0], "target", "Q4_0", "huggingface")
    events = Events()
    with caplog.at_level(logging.WARNING):
        path = target.download(progress=events)
    assert path.read_bytes() == vision_repo_files()["vision-Q4_0.gguf"]
    notes = [e.note for e in events.items if e.note]
    assert len(notes) == 1 and "mmproj-model-F16.gguf" in notes[0] and "mmproj-BF16.gguf" in notes[0]
    assert events.items[-1].bytes_total == 200_000
    assert projector(fam, "Q4_0", "huggingface").status().state == "absent"


def test_registry_listing_carries_the_projector_marker(hf_endpoint: str) -> None:
    reg = Registry.load()
    reg.families["vision"] = vision_family()
    out = {f["name"]: f for f in registry_status(reg)}
    assert out["vision"]["specs"][0]["mmproj_quantizations"] == {"F16": "absent", "BF16": "absent"}
    # the builtin vision specs list theirs too, and no spec of the registry is invalid for it
    for fam in out.values():
        for s in fam["specs"]:
            for st in s.get("mmproj_quantizations", {}).values():
                assert st in ("cached", "partial", "absent")


def test_the_download_queue_brings_the_projector_with_its_target(hf_endpoint: str) -> None:
    from app.core.cache.queue import DownloadQueue

    reg = Registry.load()
    reg.register(vision_family().model_dump(mode="json", exclude_none=True))
    queue = DownloadQueue(Registry.load())
    item = queue.add("vision", "gguf", "0.002", "Q4_0")
    queue.start()
    try:
        assert queue.wait_idle(30)
    finally:
        queue.shutdown()
    done = queue.get(item.id)
    assert done.state == "finished" and done.bytes_total == 200_000 + 60_000
    assert Path(done.path).read_bytes() == vision_repo_files()["vision-Q4_0.gguf"]
    assert projector(vision_family(), "Q4_0", "huggingface").status().state == "cached"
