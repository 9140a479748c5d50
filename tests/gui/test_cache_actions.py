"""Cache location and delete, through the real widgets, the real CacheManager and a real hub.

The hub is olah on loopback (tests/integration/hub_servers.py) serving the tiny test repo, so a
download is a real Hugging Face download into the test's own HF cache, and "free disk space"
really removes blobs from it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QDialogButtonBox

from app.core import paths
from app.core.cache import CacheManager, entries_root, hf_cache_root
from app.core.registry import Family, Registry
from app.core.units import human_bytes
from app.devtools.hubs.repos import tiny_family
from app.gui.models.family_model import Roles
from app.gui.models.spec_tree import Node
from app.gui.views.delete_dialog import DeleteDialog
from tests.integration.hub_servers import hf_endpoint, olah_hub

__all__ = ["hf_endpoint", "olah_hub"]  # fixtures


@pytest.fixture
def registry() -> Registry:
    reg = Registry.load()
    reg.register(tiny_family().model_dump(mode="json", exclude_none=True))
    return reg


def _download(w: Any, qtbot: Any, fam: Family, role: str, quant: str, dq: str | None = None) -> None:
    """Queue a download the way the browser does and wait until it finished."""
    with qtbot.waitSignal(w.downloads.completed, timeout=60_000) as blocker:
        w._on_download_requested(fam, fam.specs[0], role, quant, dq)
    assert blocker.args[1] is True, "download failed"


def _select_quant(w: Any, quant: str) -> None:
    page = w.browser
    w.nav.setCurrentRow(1)
    page.select_family("tiny")
    spec_index = page.specs.index(0, 0)
    group = page.specs.index(0, 0, spec_index)  # model quantizations
    for r in range(page.specs.rowCount(group)):
        index = page.specs.index(r, 0, group)
        node: Node = page.specs.data(index, Roles.Node)
        if node.quant == quant:
            page.tree.setCurrentIndex(index)
            return
    raise AssertionError(f"{quant} not in the tree")


def _open_delete(w: Any, qtbot: Any, quant: str) -> DeleteDialog:
    _select_quant(w, quant)
    # statuses are probed off the GUI thread: the marker, and the button, follow
    qtbot.waitUntil(w.browser.delete_btn.isEnabled, timeout=5000)
    with qtbot.waitSignal(w.deleteDialogOpened, timeout=5000) as blocker:
        w.browser.delete_btn.click()
    dlg: DeleteDialog = blocker.args[0]
    qtbot.waitExposed(dlg)
    return dlg


def test_changing_the_cache_setting_moves_new_entries(
    make_window: Any, qtbot: Any, registry: Registry, hf_endpoint: str, tmp_path: Path
) -> None:
    w = make_window(registry=registry)
    fam = registry.get("tiny")
    default_root = entries_root()
    chosen = tmp_path / "my models"

    dlg = w.open_settings()
    qtbot.waitExposed(dlg)
    assert dlg.cache_note.isVisible() and "Hugging Face" in dlg.cache_note.text()
    dlg.cache_dir.setText("relative/path")
    dlg.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert dlg.isVisible() and "full path" in dlg.error.text()  # refused, dialog stays open
    dlg.cache_dir.setText(str(chosen))
    with qtbot.waitSignal(dlg.accepted, timeout=5000):
        dlg.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert w.settings.cache_dir == str(chosen)
    assert entries_root() == chosen

    _download(w, qtbot, fam, "target", "Q4_0")
    mgr = CacheManager(fam, fam.specs[0], "target", "Q4_0", "huggingface")
    assert mgr.entry_dir.parent == chosen
    assert (chosen / mgr.entry_name / "manifest.json").is_file()
    assert not (default_root / mgr.entry_name).exists()
    assert w.cache.status(fam, fam.specs[0], "target", "Q4_0") == "cached"


def test_delete_defaults_to_tandem_entries_then_frees_disk_on_request(
    make_window: Any, qtbot: Any, registry: Registry, hf_endpoint: str
) -> None:
    w = make_window(registry=registry)
    fam = registry.get("tiny")
    spec = fam.specs[0]
    _download(w, qtbot, fam, "target", "Q8_0")
    _download(w, qtbot, fam, "drafter", "Q8_0", "Q8_0")
    target = CacheManager(fam, spec, "target", "Q8_0", "huggingface")
    drafter = CacheManager(fam, spec, "drafter", "Q8_0", "huggingface", draft_quantization="Q8_0")
    hub_files = [target.resolve_path().resolve(), drafter.resolve_path().resolve()]
    sizes = sum(p.stat().st_size for p in hub_files)
    assert all(p.is_relative_to(hf_cache_root()) for p in hub_files)

    # 1. The default: only Tandem's entries go; the hub files stay for other tools.
    dlg = _open_delete(w, qtbot, "Q8_0")
    assert not dlg.free_disk_box.isChecked() and not dlg.warning.isVisible()
    assert dlg.delete_button.text() == "Remove from Tandem" and dlg.delete_button.isDefault()
    assert "stay in the Hugging Face cache" in dlg.body.text()
    # the size is what goes: the target's files and its drafter's (the drafter's were left out)
    assert f"The files take {human_bytes(sizes)}." in dlg.body.text()
    assert "loaded model" not in dlg.body.text()  # nothing is loaded
    with qtbot.waitSignal(w.deleteFinished, timeout=10_000) as done:
        dlg.delete_button.click()
    assert done.args == [False, 0]
    assert not target.entry_dir.exists() and not drafter.entry_dir.exists()
    assert all(p.is_file() for p in hub_files)
    assert "stay in the hub cache" in w.browser.notice.text() and w.browser.notice.isVisible()
    assert target.status().source == "hub-cache"  # still usable, found again without a download

    # 2. "Also free disk space": warned, then the hub files no Tandem entry uses are deleted.
    _download(w, qtbot, fam, "target", "Q8_0")  # links the files found in the hub cache again
    _download(w, qtbot, fam, "drafter", "Q8_0", "Q8_0")
    dlg = _open_delete(w, qtbot, "Q8_0")
    dlg.free_disk_box.setChecked(True)
    assert dlg.warning.isVisible() and "Other tools" in dlg.warning.text()
    assert dlg.delete_button.text() == "Delete files"
    with qtbot.waitSignal(w.deleteFinished, timeout=10_000) as done:
        dlg.delete_button.click()
    assert done.args == [True, sizes]
    assert not any(p.exists() for p in hub_files)
    assert human_bytes(sizes) in w.browser.notice.text()
    assert target.status().state == "absent"
    assert w.cache.status(fam, spec, "target", "Q8_0") == "absent"  # markers refreshed


def test_delete_dialog_cancel_changes_nothing_and_is_translated(
    make_window: Any, qtbot: Any, registry: Registry, hf_endpoint: str
) -> None:
    w = make_window(registry=registry)
    fam = registry.get("tiny")
    _download(w, qtbot, fam, "target", "Q4_0")
    mgr = CacheManager(fam, fam.specs[0], "target", "Q4_0", "huggingface")
    w.set_language("ja")
    dlg = _open_delete(w, qtbot, "Q4_0")
    # the Japanese texts themselves, not only "not English" (which an empty label also passes)
    assert dlg.delete_button.text() == "Tandem から削除"
    heading = QCoreApplication.translate("DeleteDialog", "Remove {model} from Tandem?")
    assert heading != "Remove {model} from Tandem?"  # the Japanese catalogue is loaded
    assert dlg.heading.text() == heading.format(model="tiny Q4_0")
    dlg.free_disk_box.setChecked(True)
    assert dlg.warning.isVisible() and "Other tools" not in dlg.warning.text()
    assert "Hugging Face キャッシュ" in dlg.warning.text() and "他のツール" in dlg.warning.text()
    assert (
        dlg.delete_button.text()
        == QCoreApplication.translate("DeleteDialog", "Delete files")
        != "Delete files"
    )
    with qtbot.waitSignal(dlg.rejected, timeout=5000):
        dlg.buttons.button(QDialogButtonBox.StandardButton.Cancel).click()
    assert mgr.status().state == "cached" and mgr.entry_dir.is_dir()
    assert paths.models_root() == entries_root()


def test_deleting_the_loaded_model_unloads_it_first(
    make_window: Any, qtbot: Any, registry: Registry, hf_endpoint: str
) -> None:
    """Its files are open in the engine: Windows refuses to delete them, and elsewhere the chat
    went on with a model no longer on disk. The dialog says so and the model is unloaded first.
    (The engine is scripted; the launch, the cache and the hub are real.)"""
    from tests.gui.conftest import ScriptedEngine, scripted_loader

    w = make_window(registry=registry, loader=scripted_loader(ScriptedEngine()))
    fam = registry.get("tiny")
    spec = fam.specs[0]
    _download(w, qtbot, fam, "target", "Q8_0")
    _download(w, qtbot, fam, "drafter", "Q8_0", "Q8_0")
    target = CacheManager(fam, spec, "target", "Q8_0", "huggingface")
    with qtbot.waitSignal(w.launchDialogOpened, timeout=5000) as opened:
        w.open_launch_dialog(fam, spec, "Q8_0")
    launch = opened.args[0]
    launch.auto_panel.switch.setChecked(False)
    with qtbot.waitSignal(w.modelLoaded, timeout=30_000):
        launch.launch_button.click()
    assert w.engine.is_loaded and w.engine.info.launch.family == "tiny"

    dlg = _open_delete(w, qtbot, "Q8_0")
    assert "It is the loaded model: Tandem unloads it first." in dlg.body.text()
    dlg.free_disk_box.setChecked(True)
    with qtbot.waitSignal(w.deleteFinished, timeout=20_000) as done:
        dlg.delete_button.click()
    assert done.args[0] is True and done.args[1] > 0
    assert not w.engine.is_loaded  # unloaded before the files went
    assert target.status().state == "absent"
    # its finished downloads (target and drafter) left the Downloads list: their folder is gone
    rows = [w.downloads.model.item(r) for r in range(w.downloads.model.rowCount())]
    assert not [i for i in rows if i.family == "tiny" and i.quantization == "Q8_0" and i.state == "finished"]


def test_deleting_a_partly_downloaded_model_removes_its_unfinished_file(
    make_window: Any, qtbot: Any, olah_hub: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A download cancelled at about a third: the page offers Delete, which removes the entry and
    its partial file (nothing would resume it), and says how much that freed."""
    from app.core.cache import CancelToken, DownloadCancelled, ProgressEvent
    from app.devtools.hubs.huggingface import RangeHub
    from tests.integration.test_download_hf import _big_family

    fam = _big_family()
    reg = Registry.load()
    reg.register(fam.model_dump(mode="json", exclude_none=True))
    token = CancelToken()

    def progress(ev: ProgressEvent) -> None:
        if ev.phase == "downloading" and ev.bytes_done >= 2_000_000:
            token.cancel()

    with RangeHub(olah_hub.endpoint, rate=2_000_000) as hub:
        mgr = CacheManager(fam, fam.specs[0], "target", "Q4_0", "huggingface", endpoint=hub.endpoint)
        with pytest.raises(DownloadCancelled):
            mgr.download(progress=progress, cancel=token)
    parts = list(hf_cache_root().rglob("*.incomplete"))
    assert len(parts) == 1
    kept = parts[0].stat().st_size
    monkeypatch.setenv("HF_ENDPOINT", olah_hub.endpoint)
    w = make_window(registry=reg)
    w.nav.setCurrentRow(1)
    w.browser.select_family("big")
    group = w.browser.specs.index(0, 0, w.browser.specs.index(0, 0))
    w.browser.tree.setCurrentIndex(w.browser.specs.index(0, 0, group))  # Q4_0, partly downloaded
    qtbot.waitUntil(w.browser.delete_btn.isEnabled, timeout=5000)
    with qtbot.waitSignal(w.deleteDialogOpened, timeout=5000) as opened:
        w.browser.delete_btn.click()
    dlg: DeleteDialog = opened.args[0]
    with qtbot.waitSignal(w.deleteFinished, timeout=10_000) as done:
        dlg.delete_button.click()
    assert done.args == [False, kept]
    assert not list(hf_cache_root().rglob("*.incomplete"))
    assert "unfinished download" in w.browser.notice.text()
