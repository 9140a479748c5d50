"""The banner's next step matches the cause.

The hint comes from one table (``app.gui.errors.HINTS``: type / code -> hint). Every row is
covered, then real errors raised by the real code paths (a missing embedded package, a model not
downloaded, an unreachable hub, a missing hub file, bad sampling, a refused launch...) are shown
to carry the type and code that select the right row, through the banner of a real window too.
"""

from __future__ import annotations

import dataclasses
import errno
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication

from app.core import assets, gguf_tools
from app.core.cache import CacheError, CacheManager, HubError, SpecResolutionError
from app.core.cache.hubs import backend_for
from app.core.engines.base import EngineError, ModelLoadError, Sampling
from app.core.launch.plan import pick_engine
from app.core.registry import Registry
from app.core.settings import Settings
from app.core.speculative import parse_num_speculative_tokens
from app.devtools.hubs.huggingface import OlahHub
from app.devtools.hubs.proxies import SilentHub
from app.devtools.hubs.repos import tiny_family
from app.gui.errors import HINTS, OWN_HINT, describe, hint_for, hint_for_name
from tests.integration.hub_servers import hf_endpoint, olah_hub

__all__ = ["hf_endpoint", "olah_hub"]  # fixtures


def _tr(text: str) -> str:
    return QCoreApplication.translate("Errors", text)


def _example(cls: type[BaseException], code: str | None) -> BaseException:
    if cls is HubError:
        return HubError("tandem-test/x: boom", code=code or "")
    if issubclass(cls, CacheError) and code:
        return cls("tandem-test/x: boom", code=code)
    if code == "ENOSPC":
        return cls(errno.ENOSPC, "No space left on device")
    if issubclass(cls, EngineError):
        return cls("boom")
    return cls("boom")


@pytest.mark.parametrize(
    ("cls", "code", "text"), HINTS, ids=[f"{c.__name__}-{code or 'any'}" for c, code, _ in HINTS]
)
def test_every_row_of_the_table_is_what_the_banner_says(
    cls: type[BaseException], code: str | None, text: str
) -> None:
    exc = _example(cls, code)
    error = describe(exc, "context")
    if text == OWN_HINT:  # engine errors name their own next step; a bare one gets a generic one
        expected = _tr("Check the engine and model chosen in the launch dialog, then try again.")
        assert describe(EngineError("boom", hint="Do this.")).hint == "Do this."
    else:
        expected = _tr(text)
    assert error.hint == expected and error.hint
    assert error.title == "context" and error.message == str(exc)
    # the row is found by name too (a download failure known only by its recorded class name)
    assert hint_for_name(cls.__name__, code or "") == expected


def test_the_table_prefers_the_most_specific_row() -> None:
    fnf = hint_for(FileNotFoundError)
    assert (
        hint_for(assets.AssetMissing) == _tr("Install the package named above, then restart Tandem.") != fnf
    )
    assert (
        hint_for(OSError, "ENOSPC")
        != hint_for(OSError)
        == _tr("Check free disk space and permissions, then retry.")
    )
    assert hint_for(HubError, "auth") != hint_for(HubError, "network") != hint_for(HubError)
    assert hint_for(ValueError) is None  # a bare ValueError is not blamed on the model entry
    unexpected = describe(ValueError("bad"))
    assert unexpected.title == "Unexpected error" and unexpected.message == "ValueError: bad"
    assert "model entry" not in unexpected.hint


def test_missing_embedded_package_says_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A missing embedded package says to install it, not "Check free disk space and
    permissions"."""
    monkeypatch.setattr(assets, "SMOLLM2_PACKAGE", "tandem_no_such_package")
    reg = Registry.load()
    fam, spec, quant = reg.match("smollm2-135m-instruct", "gguf", "0.135", "Q4_1")
    with pytest.raises(FileNotFoundError) as caught:
        CacheManager(fam, spec, "target", quant).resolve_path()
    error = describe(caught.value, "The model could not be loaded")
    assert "pip install" in error.message
    assert error.hint == _tr("Install the package named above, then restart Tandem.")


def test_real_errors_carry_the_type_and_code_of_their_row(hf_endpoint: str, tmp_path: Path) -> None:
    fam = tiny_family()
    spec = fam.specs[0]
    hints: dict[str, str] = {}

    def hint(exc_info: Any) -> str:
        return describe(exc_info.value).hint

    with pytest.raises(FileNotFoundError) as e:
        CacheManager(fam, spec, "target", "Q4_0", "huggingface").resolve_path()
    hints["not cached"] = hint(e)
    with SilentHub() as dead, pytest.raises(HubError) as e:
        CacheManager(fam, spec, "target", "Q4_0", "huggingface", endpoint=dead.endpoint).download()
    assert e.value.code == "network"
    hints["network"] = hint(e)
    missing = tiny_family().model_dump(mode="json", exclude_none=True)
    missing["specs"][0]["quantizations"].append("Q2_K")
    from app.core.registry import parse_family

    bad = parse_family(missing)
    with pytest.raises(SpecResolutionError) as e:  # the repository was listed: it has no Q2_K file
        CacheManager(bad, bad.specs[0], "target", "Q2_K", "huggingface").download()
    assert e.value.code == "not_found"
    hints["no such quantization"] = hint(e)
    # a plan naming a file the listed repository lacks, sent to the hub as it is (olah: 401)
    plan = dataclasses.replace(
        CacheManager(bad, bad.specs[0], "target", "Q4_0", "huggingface").plan, files=("nope.gguf",)
    )
    with pytest.raises(HubError) as e:
        backend_for("huggingface").remote_files(plan)
    assert e.value.code == "not_found"
    hints["not found"] = hint(e)
    with pytest.raises(ValueError) as e:
        Sampling(max_tokens=0)
    hints["sampling"] = hint(e)
    with pytest.raises(ValueError) as e:
        pick_engine(spec, "no-such-engine")
    hints["launch"] = hint(e)
    with pytest.raises(ValueError) as e:
        parse_num_speculative_tokens("++3")
    hints["speculation"] = hint(e)
    with pytest.raises(ValueError) as e:
        Registry.load().match("no-such-model")
    hints["registry"] = hint(e)
    garbage = tmp_path / "garbage.gguf"
    garbage.write_bytes(b"not a gguf file at all" * 10)
    with pytest.raises(ValueError) as e:
        gguf_tools.read_header(garbage)
    hints["gguf"] = hint(e)
    load = ModelLoadError("llama.cpp could not load x.gguf")
    hints["engine"] = describe(load).hint

    assert hints == {
        "not cached": _tr("Download the model first (Models page, or the command above), then try again."),
        "network": _tr("Check the network connection and the hub endpoint in Settings, then press Retry."),
        "no such quantization": _tr(
            "The repository has no file for this quantization; the message names the ones it holds. "
            "Choose one of those, or press Refresh from hub on the Models page to list them."
        ),
        "not found": _tr(
            "The hub has no such repository or file (or it is private): check the model entry's "
            "repository and file names, or store a token for this hub in Settings."
        ),
        "sampling": _tr(
            "Correct the sampling settings (temperature, top-p, top-k, max new tokens) and try again."
        ),
        "launch": _tr("Choose another engine or model in the launch dialog."),
        "speculation": _tr("Correct the speculative decoding settings and try again."),
        "registry": _tr("Check the model entry; the message names the field to fix."),
        "gguf": _tr("The file is not a complete GGUF model: delete it and download it again."),
        "engine": ModelLoadError.hint,
    }
    assert describe(ModelLoadError("x", hint="Use the F16 file.")).hint == "Use the F16 file."


def test_a_failed_download_in_the_window_names_the_right_next_step(
    make_window: Any, qtbot: Any, olah_hub: OlahHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The banner of a failed download names the next step for its cause, not "check the network"
    for every cause."""
    monkeypatch.delenv("HF_ENDPOINT", raising=False)
    reg = Registry.load()
    data = tiny_family().model_dump(mode="json", exclude_none=True)
    data["specs"][0]["quantizations"].append("Q2_K")  # the repository has no Q2_K file
    reg.register(data)
    w = make_window(registry=reg, settings=Settings(hf_endpoint=olah_hub.endpoint))
    fam = reg.get("tiny")
    with qtbot.waitSignal(w.downloads.failed, timeout=30_000) as failed:
        w._on_download_requested(fam, fam.specs[0], "target", "Q2_K", None)
    item = w.downloads.queue.get(failed.args[0])
    assert (item.error_type, item.error_code) == ("NoMatchError", "not_found")
    qtbot.waitUntil(lambda: w.banner.isVisible(), timeout=5000)
    text = w.banner.text.text()
    assert "no model file for Q2_K" in text and "it holds model quantizations F16, Q4_0, Q8_0" in text
    assert "names the ones it holds" in text and "Check the network" not in text
    assert w.banner.error is not None and w.banner.error.hint in text


# --- engine hints reach every language ------------------------------------------------------------


def _core_hints() -> set[str]:
    """Every hint app.core can give: ``hint`` class attributes of engine errors, and the literal
    hints passed when one is raised (``hint=`` or the second argument), read from the source."""
    import ast
    import importlib
    import pkgutil

    import app.core

    for mod in pkgutil.walk_packages(app.core.__path__, "app.core."):
        try:
            importlib.import_module(mod.name)
        except ImportError:  # an optional engine's library (mlx on Windows): its source is read below
            continue
    found: set[str] = set()
    todo: list[type[EngineError]] = [EngineError]
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        own = cls.__dict__.get("hint")
        if isinstance(own, str) and own:
            found.add(own)
    root = Path(app.core.__file__).parent
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            if name == "ApiError":  # (status, message): an HTTP error body, not a next step
                continue
            if name == "ImageError":  # (message, kind): the GUI words each kind (views/attachments.py)
                continue
            if name.endswith("DocumentError"):  # (message, code): views/documents.py words each
                continue
            hint = next((k.value for k in node.keywords if k.arg == "hint"), None)
            if hint is None and len(node.args) >= 2 and name.endswith(("Error", "Unavailable", "Closed")):
                hint = node.args[1]
            if isinstance(hint, ast.Constant) and isinstance(hint.value, str) and hint.value:
                found.add(hint.value)
    return found


def test_every_engine_hint_is_marked_for_translation() -> None:
    from app.gui.engine_hints import ENGINE_HINTS

    core = _core_hints()
    assert core - set(ENGINE_HINTS) == set(), "add these to app/gui/engine_hints.py"
    assert set(ENGINE_HINTS) - core == set(), "no longer raised: drop them from app/gui/engine_hints.py"


@pytest.mark.parametrize(("locale", "expected"), [("ja", "先にモデルを読み込んでください。"), ("ko", "먼저")])
def test_an_engine_hint_reaches_the_user_in_their_language(locale: str, expected: str, qapp: Any) -> None:
    from app.core.engines.base import GenerationError
    from app.gui.i18n import I18n

    exc = GenerationError("the model is not loaded", "Load a model first.")
    tr = I18n()
    try:
        assert tr.set_language(locale)
        assert expected in (hint_for(type(exc), "", exc.hint) or "")
        shown = describe(exc, "Generating")
        assert expected in shown.hint and "Load a model first." not in shown.hint
    finally:
        tr.set_language("en")
