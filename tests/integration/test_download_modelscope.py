"""Downloads through modelscope from a loopback server implementing the ModelScope endpoints."""

from __future__ import annotations

import dataclasses
import threading

import pytest

from app.core.cache import (
    CacheManager,
    CancelToken,
    DiskSpaceError,
    DownloadCancelled,
    HubError,
    SpecResolutionError,
    modelscope_cache_root,
    spec_status,
)
from app.core.cache.hubs import backend_for
from app.devtools.hubs.modelscope import ModelScopeHub
from app.devtools.hubs.repos import TINY_REPO, tiny_family, tiny_mlx_files, tiny_repo_files
from tests.integration.hub_servers import modelscope_hub
from tests.integration.test_download_hf import Events

__all__ = ["modelscope_hub"]


def test_gguf_target_drafter_and_status(modelscope_hub: ModelScopeHub) -> None:
    fam = tiny_family()
    spec = fam.specs[0]
    target = CacheManager(fam, spec, "target", "Q4_0", "modelscope")
    drafter = CacheManager(fam, spec, "drafter", "Q4_0", "modelscope", draft_quantization="F16")
    assert target.status().state == "absent"

    events = Events()
    path = target.download(progress=events)
    assert path.read_bytes() == tiny_repo_files()["tiny-Q4_0.gguf"]
    assert modelscope_cache_root() in path.resolve().parents
    assert path.resolve() == (
        modelscope_cache_root()
        / "models"
        / "tandem-test--tiny-GGUF"
        / "snapshots"
        / "master"
        / "tiny-Q4_0.gguf"
    )
    assert events.threads == {threading.current_thread().name}
    assert events.items[-1].phase == "done" and events.items[-1].bytes_done == 200_000
    assert target.status().state == "cached"

    assert drafter.download().read_bytes() == tiny_repo_files()["draft/tiny-draft-F16.gguf"]
    st = spec_status(fam, spec, "modelscope")
    assert st.hub == "modelscope"
    assert st.quantizations["Q4_0"].state == "cached"
    assert st.draft_quantizations is not None and st.draft_quantizations["F16"].state == "cached"
    assert st.draft_quantizations["Q8_0"].state == "absent"
    requested = " ".join(modelscope_hub.server.requests)
    assert f"/api/v1/models/{TINY_REPO}/repo/files" in requested

    # delete with free_disk removes the files from ModelScope's cache
    freed = target.delete(free_disk=True)
    assert freed == 200_000 + 80_000
    assert not path.exists() and target.status().state == "absent"


def test_mlx_snapshot(modelscope_hub: ModelScopeHub) -> None:
    fam = tiny_family()
    mgr = CacheManager(fam, fam.specs[1], "target", "4bit", "modelscope")
    snap = mgr.download()
    for name, data in tiny_mlx_files().items():
        assert (snap / name).read_bytes() == data
    assert mgr.status().state == "cached"


def test_cancel_and_resume(modelscope_hub: ModelScopeHub) -> None:
    from app.devtools.hubs.proxies import FlakyProxy

    proxy = FlakyProxy(modelscope_hub.server.server_address[1], rate=150_000)
    proxy.start()
    try:
        fam = tiny_family()
        mgr = CacheManager(fam, fam.specs[0], "target", "Q8_0", "modelscope", endpoint=proxy.endpoint)
        token = CancelToken()

        def progress(ev: object) -> None:
            if getattr(ev, "bytes_done", 0) > 50_000:
                token.cancel()

        with pytest.raises(DownloadCancelled):
            mgr.download(progress=progress, cancel=token)
        st = mgr.status()
        assert st.state == "partial" and 0 < st.bytes_present < st.bytes_total == 300_000
        # modelscope keeps a resumable .incomplete, never the final name
        final = modelscope_cache_root() / "models" / "tandem-test--tiny-GGUF" / "snapshots" / "master"
        assert not (final / "tiny-Q8_0.gguf").exists()
    finally:
        proxy.stop()
    mgr = CacheManager(fam, fam.specs[0], "target", "Q8_0", "modelscope", endpoint=modelscope_hub.endpoint)
    assert mgr.download().read_bytes() == tiny_repo_files()["tiny-Q8_0.gguf"]
    assert any(r.startswith("RANGE tiny-Q8_0.gguf bytes=") for r in modelscope_hub.server.requests)


def test_disk_space_and_missing_file(modelscope_hub: ModelScopeHub) -> None:
    import shutil

    fam = tiny_family()
    free = shutil.disk_usage(modelscope_cache_root().parent).free
    mgr = CacheManager(fam, fam.specs[0], "target", "Q8_0", "modelscope", reserve_bytes=free)
    with pytest.raises(DiskSpaceError, match="not enough disk space"):
        mgr.download()
    data = fam.model_dump(mode="json", exclude_none=True)
    data["specs"][0]["quantizations"].append("Q2_K")
    from app.core.registry import parse_family

    fam2 = parse_family(data)
    # the listing has no Q2_K file: one line naming the quantizations it holds, nothing asked for
    holds = r"no model file for Q2_K .*it holds model quantizations F16, Q4_0, Q8_0"
    with pytest.raises(SpecResolutionError, match=holds):
        CacheManager(fam2, fam2.specs[0], "target", "Q2_K", "modelscope").download()
    # asked for directly (a plan naming a file the listing lacks): "no such file", not "no repo"
    plan = dataclasses.replace(
        CacheManager(fam2, fam2.specs[0], "target", "Q8_0", "modelscope").plan, files=("tiny-Q2_K.gguf",)
    )
    with pytest.raises(HubError, match=r"no such file in repo tandem-test/tiny-GGUF@master: tiny-Q2_K\.gguf"):
        backend_for("modelscope").remote_files(plan)
