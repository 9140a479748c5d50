"""What a model's files use on disk, and what deleting an unfinished download leaves: against
the real hub cache filled from a Hugging Face hub on loopback (olah) and a ModelScope one.

- disk use counts a target, its drafters and its projector, each file once (a drafter shared by
  two target quantizations, a blob two families point to), unfinished files with their bytes;
- a downloaded Hugging Face file is hashed once (the transfer checks it; the entry does not read
  it again);
- deleting a partly downloaded entry removes its partial file, never one another entry names.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest

from app.core.cache import (
    CacheManager,
    CancelToken,
    DownloadCancelled,
    ProgressEvent,
    fetch,
    hf_cache_root,
    hf_resume,
)
from app.core.cache.usage import DiskUse, family_disk_use
from app.core.registry import Family, parse_family
from app.devtools.hubs.huggingface import OlahHub, RangeHub
from app.devtools.hubs.modelscope import ModelScopeHub
from app.devtools.hubs.repos import big_repo_files, tiny_family, tiny_repo_files
from tests.integration.hub_servers import hf_endpoint, modelscope_hub, olah_hub
from tests.integration.test_download_hf import _big_family

__all__ = ["hf_endpoint", "modelscope_hub", "olah_hub"]  # fixtures

SIZE = 6_000_000  # big-Q4_0.gguf
REPO_DIR = "models--tandem-test--big-GGUF"


def _hf(_spec: Any) -> str:
    return "huggingface"


def _partials() -> list[Path]:
    return sorted((hf_cache_root() / REPO_DIR / "blobs").glob("*.incomplete"))


def _twin(name: str) -> Family:
    """Another family whose target is the same file of the same repository."""
    data = _big_family().model_dump(mode="json", exclude_none=True)
    data["name"] = name
    return parse_family(data)


def _cancel_at(fam: Family, endpoint: str, at: int) -> None:
    token = CancelToken()

    def progress(ev: ProgressEvent) -> None:
        if ev.phase == "downloading" and ev.bytes_done >= at:
            token.cancel()

    mgr = CacheManager(fam, fam.specs[0], "target", "Q4_0", "huggingface", endpoint=endpoint)
    with pytest.raises(DownloadCancelled):
        mgr.download(progress=progress, cancel=token)


def test_disk_use_counts_each_file_once(hf_endpoint: str) -> None:
    files = tiny_repo_files()
    fam = tiny_family()
    spec = fam.specs[0]
    assert family_disk_use(fam, _hf).bytes == 0
    CacheManager(fam, spec, "target", "Q4_0", "huggingface").download()
    CacheManager(fam, spec, "target", "Q8_0", "huggingface").download()
    # the Q8_0 drafter fetched with both target quantizations: two entries, one file
    for q in ("Q4_0", "Q8_0"):
        CacheManager(fam, spec, "drafter", q, "huggingface", draft_quantization="Q8_0").download()
    use = family_disk_use(fam, _hf)
    want = sum(len(files[n]) for n in ("tiny-Q4_0.gguf", "tiny-Q8_0.gguf", "draft/tiny-draft-Q8_0.gguf"))
    assert use.bytes == want and use.partial_bytes == 0
    assert len(use.files) == 3
    # a total over two views of the same files counts them once too
    assert DiskUse.combine([use, family_disk_use(fam, _hf)]).bytes == want


def test_an_unfinished_download_counts_its_bytes_and_a_shared_blob_counts_once(olah_hub: OlahHub) -> None:
    big, twin = _big_family(), _twin("big-twin")
    with RangeHub(olah_hub.endpoint, rate=2_000_000) as hub:
        _cancel_at(big, hub.endpoint, SIZE // 2)
    kept = _partials()[0].stat().st_size
    use = family_disk_use(big, _hf)
    assert use.bytes == use.partial_bytes == kept
    CacheManager(big, big.specs[0], "target", "Q4_0", "huggingface", endpoint=olah_hub.endpoint).download()
    CacheManager(twin, twin.specs[0], "target", "Q4_0", "huggingface", endpoint=olah_hub.endpoint).download()
    one, other = family_disk_use(big, _hf), family_disk_use(twin, _hf)
    assert one.bytes == other.bytes == SIZE and one.partial_bytes == 0
    assert DiskUse.combine([one, other]).bytes == SIZE  # one blob on disk


def test_a_hugging_face_file_is_hashed_once(olah_hub: OlahHub, monkeypatch: pytest.MonkeyPatch) -> None:
    """Count the bytes every SHA-256 the download makes reads (the real hashes still run)."""
    hashed: list[int] = []
    real = hashlib.sha256

    class Counting:
        def __init__(self, data: bytes = b"") -> None:
            self._h = real(data)
            hashed.append(len(data))

        def update(self, data: bytes) -> None:
            hashed.append(len(data))
            self._h.update(data)

        def hexdigest(self) -> str:
            return self._h.hexdigest()

    assert vars(fetch)["hashlib"] is vars(hf_resume)["hashlib"] is hashlib  # both verifiers use it
    monkeypatch.setattr(hashlib, "sha256", Counting)
    fam = _big_family()
    mgr = CacheManager(fam, fam.specs[0], "target", "Q4_0", "huggingface", endpoint=olah_hub.endpoint)
    path = mgr.download()
    monkeypatch.undo()
    assert sum(hashed) == SIZE  # not 2 * SIZE (the transfer, then the entry again)
    want = hashlib.sha256(big_repo_files()[path.name]).hexdigest()
    assert hashlib.sha256(path.read_bytes()).hexdigest() == want


def test_deleting_a_partial_entry_removes_its_partial_file_unless_another_entry_names_it(
    olah_hub: OlahHub,
) -> None:
    big, twin = _big_family(), _twin("big-twin")
    with RangeHub(olah_hub.endpoint, rate=2_000_000) as hub:
        _cancel_at(big, hub.endpoint, SIZE // 3)
        # the twin resumes the same partial blob, and is cancelled too: two entries name it
        _cancel_at(twin, hub.endpoint, SIZE // 2)
    assert len(_partials()) == 1
    kept = _partials()[0].stat().st_size
    mgr = CacheManager(big, big.specs[0], "target", "Q4_0", "huggingface")
    twin_mgr = CacheManager(twin, twin.specs[0], "target", "Q4_0", "huggingface")
    assert mgr.status().state == twin_mgr.status().state == "partial"

    assert mgr.delete() == 0  # the twin still names the file: its partial bytes stay
    assert not mgr.entry_dir.exists()
    assert _partials() and _partials()[0].stat().st_size == kept
    assert twin_mgr.status().state == "partial"

    assert twin_mgr.delete() == kept  # the last entry naming it: the partial file goes
    assert not _partials()
    assert twin_mgr.status().state == mgr.status().state == "absent"
    assert not (hf_cache_root() / REPO_DIR).exists()  # nothing else of the repository was there


def test_deleting_a_partial_modelscope_entry_removes_its_incomplete(modelscope_hub: ModelScopeHub) -> None:
    from app.devtools.hubs.proxies import FlakyProxy

    proxy = FlakyProxy(modelscope_hub.server.server_address[1], rate=150_000)
    proxy.start()
    try:
        fam = tiny_family()
        mgr = CacheManager(fam, fam.specs[0], "target", "Q8_0", "modelscope", endpoint=proxy.endpoint)
        token = CancelToken()

        def progress(ev: ProgressEvent) -> None:
            if ev.bytes_done > 50_000:
                token.cancel()

        with pytest.raises(DownloadCancelled):
            mgr.download(progress=progress, cancel=token)
    finally:
        proxy.stop()
    st = mgr.status()
    assert st.state == "partial"
    backend = mgr.backend()
    inc = backend.incomplete_file(mgr.plan.repo_id, mgr.plan.revision, "tiny-Q8_0.gguf")
    assert inc is not None and inc.stat().st_size == st.bytes_present
    assert family_disk_use(fam, lambda _s: "modelscope").partial_bytes == st.bytes_present
    assert mgr.delete() == st.bytes_present
    assert not inc.exists()
    assert mgr.status().state == "absent"
