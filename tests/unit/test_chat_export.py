"""Conversations kept and found outside the chat: Markdown with its images, an HTML page from the
chat's renderer, OpenAI-shaped JSON with each answer's figures, and search across conversations,
all against a real store on disk."""

from __future__ import annotations

import base64
import io
import json
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from PIL import Image

from app.core.chat import AnswerStats, ChatStore
from app.core.chat.answer import RoundPoint
from app.core.chat.export import export_conversation
from app.core.images import check_image

ANSWER = (
    "| x | y |\n|---|---|\n| 1 | 2 |\n\n```python\ndef f(x):\n    return x + 1\n```\n\n"
    "The area is $\\pi r^2$."
)


def _png(colour: tuple[int, int, int]) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (8, 6), colour).save(buf, format="PNG")
    return buf.getvalue()


@pytest.fixture
def store(tmp_path: Path):
    (tmp_path / "data").mkdir()
    s = ChatStore(tmp_path / "data" / "chats.sqlite3")
    yield s
    s.close()


def _conversation(store: ChatStore) -> tuple[int, str]:
    conv = store.create_conversation("Circles & squares", "Be brief.")
    image = store.images.put(check_image(_png((200, 30, 30)), "red.png"))
    store.add_message(conv.id, "user", "What is in this picture, and a table please?", images=[image])
    stats = AnswerStats(
        completion_tokens=40,
        prompt_tokens=12,
        decode_tps=31.5,
        rounds=10,
        drafted=30,
        accepted=24,
        speculation="draft 3/round",
        per_round=[RoundPoint(3, 2, 3)] * 10,
        baseline_tps=21.0,
        baseline_samples=3,
    )
    answer = store.add_message(conv.id, "assistant", "", status="streaming", model="SmolLM2 Q4_K_M")
    store.update_message(answer.id, ANSWER, status="complete", stats=stats, draft_spans=[(2, 3)])
    return conv.id, image


def test_markdown_export_writes_the_text_and_copies_the_images_beside_it(
    store: ChatStore, tmp_path: Path
) -> None:
    cid, image = _conversation(store)
    out = tmp_path / "out" / "circles.md"
    out.parent.mkdir()
    written = export_conversation(store, cid, out, "markdown")
    assert written == [out, out.parent / "circles_images" / image]
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# Circles & squares\n") and "Be brief." in text
    assert f"![image 1](circles_images/{image})" in text
    assert ANSWER in text  # the answer exactly as the model wrote it
    assert "31.5 tok/s" in text and "speculation draft 3/round" in text and "acceptance 80%" in text
    assert "1.50x plain" in text
    assert (out.parent / "circles_images" / image).read_bytes() == store.image_path(image).read_bytes()
    # what a Markdown reader makes of it: the table and the code survive
    kinds = {t.type for t in MarkdownIt("commonmark").enable("table").parse(text)}
    assert {"table_open", "fence", "image"} <= kinds | {
        c.type for t in MarkdownIt("commonmark").parse(text) for c in (t.children or [])
    }


def test_html_export_is_one_page_rendered_by_the_chat_renderer(store: ChatStore, tmp_path: Path) -> None:
    cid, image = _conversation(store)
    out = tmp_path / "c.html"
    assert export_conversation(store, cid, out, "html") == [out]
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<title>Circles &amp; squares</title>" in page
    assert "<table" in page and "<td>1</td>" in page.replace(' style="text-align:left"', "")
    assert page.count('<span style="color:#') >= 3  # highlighted code, Pygments colours inline
    assert 'alt="\\pi r^2"' in page and "data:image/png;base64," in page  # the formula as an image
    embedded = base64.b64decode(
        page.split('<div class="images"><img src="data:image/png;base64,')[1].split('"')[0]
    )
    assert embedded == store.image_path(image).read_bytes()
    assert ">Copy<" not in page  # the chat's Copy link needs the app: not on the page


def test_json_export_is_openai_messages_with_each_answers_figures(store: ChatStore, tmp_path: Path) -> None:
    cid, image = _conversation(store)
    out = tmp_path / "c.json"
    export_conversation(store, cid, out, "json")
    data = json.loads(out.read_text(encoding="utf-8"))
    system, user, assistant = data["messages"]
    assert system == {"role": "system", "content": "Be brief."}
    assert user["role"] == "user" and [p["type"] for p in user["content"]] == ["image_url", "text"]
    url = user["content"][0]["image_url"]["url"]
    assert base64.b64decode(url.split(",", 1)[1]) == store.image_path(image).read_bytes()
    assert assistant["role"] == "assistant" and assistant["content"] == ANSWER
    figures = assistant["tandem"]
    assert (
        figures["speculation"] == "draft 3/round" and figures["drafted"] == 30 and figures["accepted"] == 24
    )
    assert figures["acceptance_rate"] == pytest.approx(0.8) and figures["speedup"] == pytest.approx(1.5)
    assert figures["model"] == "SmolLM2 Q4_K_M" and figures["drafted_spans"] == [[2, 3]]
    # the shape an OpenAI-compatible server takes once the extra key is dropped
    assert all(set(m) - {"tandem"} == {"role", "content"} for m in data["messages"])


def test_a_failed_export_leaves_no_file_under_the_chosen_name(store: ChatStore, tmp_path: Path) -> None:
    cid, _image = _conversation(store)
    with pytest.raises(OSError):
        export_conversation(store, cid, tmp_path / "missing-folder" / "c.html", "html")
    assert list(tmp_path.glob("**/c.html")) == [] and list(tmp_path.glob("**/.c.html.*")) == []


def test_search_finds_titles_and_messages_case_insensitively_newest_first(store: ChatStore) -> None:
    a = store.create_conversation("Tides")
    store.add_message(a.id, "user", "Why does the Moon pull the STRASSE of water?")
    b = store.create_conversation("Paris trip")
    store.add_message(b.id, "user", "東京タワーとエッフェル塔の高さは？")
    store.add_message(b.id, "assistant", "The Eiffel Tower is 330 m; Tokyo Tower is 333 m. " + "x" * 200)
    c = store.create_conversation("Moon facts")
    assert [h.conversation_id for h in store.search("moon")] == [c.id, a.id]  # title and message
    hits = {h.conversation_id: h.snippet for h in store.search("straße")}  # casefolded: ß == ss
    assert list(hits) == [a.id] and "STRASSE" in hits[a.id]
    hit = store.search("東京タワー")[0]
    assert hit.conversation_id == b.id and hit.snippet.startswith("東京タワー")
    tower = store.search("eiffel tower is")[0]
    assert tower.snippet.endswith("…") and "Eiffel Tower is 330 m" in tower.snippet
    assert store.search("") == [] and store.search("   ") == [] and store.search("100%_") == []
    assert store.search("Moon facts")[0].snippet == ""  # only the title matched
