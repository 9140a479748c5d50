"""Read-only probes never bring back a deleted entry (fit estimates and `tandem fit` used
resolve_path(), which adopts hub-cache files into a Tandem entry: the browser's fit verdict
re-created the entry the user had just removed)."""

from __future__ import annotations

from app.core.cache import CacheManager
from app.core.catalog.spec_fit import spec_estimates
from app.devtools.hubs.repos import tiny_family
from tests.integration.hub_servers import hf_endpoint, olah_hub

__all__ = ["hf_endpoint", "olah_hub"]  # fixtures


def test_fit_probe_after_delete_leaves_the_entry_deleted(hf_endpoint: str) -> None:
    fam = tiny_family()
    spec = fam.specs[0]
    mgr = CacheManager(fam, spec, "target", "Q8_0", "huggingface")
    blob = mgr.download().resolve()
    mgr.delete()
    assert not mgr.entry_dir.exists() and blob.is_file()
    assert mgr.status().source == "hub-cache"
    # the probe still sees the file (its weights come from the real file) ...
    found = mgr.path_on_disk()
    assert found is not None and found.resolve() == blob
    est = spec_estimates(fam, spec, hub="huggingface", available=10**12)
    assert est["Q8_0"].weights_bytes == blob.stat().st_size
    assert "estimated" not in est["Q8_0"].notes
    # ... but writes nothing
    assert not mgr.entry_dir.exists()
    # an explicit resolve (a launch, a download) still adopts it without the network
    assert mgr.resolve_path().resolve() == blob and mgr.entry_dir.is_dir()
