from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

ROOT = Path(__file__).resolve().parents[2]
SAME_IN_EVERY_LANGUAGE = {"Tandem", "Top-k", "Top-p"}


def _script() -> Any:
    spec = importlib.util.spec_from_file_location(
        "build_translations", ROOT / "scripts" / "build_translations.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_ts_files_are_fresh_and_qm_compiled() -> None:
    """Fails when the code has a string the .ts files lack (or the reverse), or a .qm is outdated."""
    problems = _script().check()
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("locale", ["zh_CN", "ja", "ko"])
def test_every_string_is_really_translated(locale: str) -> None:
    bt = _script()
    english = bt.messages(bt.ts_path("en"))
    msgs = bt.messages(bt.ts_path(locale))
    assert set(msgs) == set(english)
    for key, (text, kind) in msgs.items():
        source = key.split(bt.SEP, 1)[1]
        assert kind is None and text.strip(), f"{locale}: untranslated {source!r}"
        if source not in SAME_IN_EVERY_LANGUAGE:
            assert text != source, f"{locale}: {source!r} is a copy of the English text"
        assert set(re.findall(r"\{\w+\}", text)) == set(re.findall(r"\{\w+\}", source)), (
            f"{locale}: placeholders differ in {source!r} -> {text!r}"
        )


@pytest.mark.parametrize("locale", ["zh_CN", "ja", "ko"])
def test_two_texts_of_one_view_never_read_the_same(locale: str) -> None:
    """The launch dialog's sections "Speculation" (Auto) and "Speculative Decoding" (the drafter)
    must not get the same title in Japanese or Korean. Within one context (a dialog, a page),
    two English texts that differ by more than their case differ in every language too."""
    bt = _script()
    seen: dict[tuple[str, str], str] = {}
    for key, (text, _kind) in bt.messages(bt.ts_path(locale)).items():
        context, source = key.split(bt.SEP, 1)
        other = seen.setdefault((context, text), source)
        assert other.casefold() == source.casefold(), (
            f"{locale}, {context}: {other!r} and {source!r} both read {text!r}"
        )


def test_language_switch_at_runtime(make_window: Any, qtbot: Any) -> None:
    w = make_window()
    assert w.nav.item(0).text() == "Chat"
    w.set_language("ja")
    assert w.i18n.language == "ja"
    assert w.nav.item(0).text() == "チャット"
    assert w.browser.title.text() == "モデル"
    assert w.chat_view.composer.button.text() == "送信"
    assert w.status_model.text() == "モデル未読み込み"
    assert w.family_model.headerData(0, Qt.Orientation.Horizontal) == "モデル"
    w.set_language("zh_CN")
    assert w.nav.item(0).text() == "对话"
    w.set_language("ko")
    assert w.downloads_page.title.text() == "다운로드"
    w.set_language("en")
    assert w.nav.item(0).text() == "Chat"
