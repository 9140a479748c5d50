"""A conversation kept outside the app: Markdown with its images and documents beside it, one HTML
page rendered by the chat's own renderer, or JSON in the OpenAI chat messages shape with each
answer's speculation figures.

A user message's documents are named in every format (Markdown links the copies written beside
it); an answer's sources (the documents and passages it was given) follow it, each with its file,
page and text (in JSON under ``tandem``, with the documents of a user message).

Tool turns keep their shape: in JSON an assistant message carries its ``tool_calls`` and
each result is a ``tool`` message with its ``tool_call_id`` and ``name``; Markdown and HTML show
each call as its name with the arguments, and each result under it.

Each exporter reads the store and writes files; nothing here knows Qt, so the same exports serve a
script or a future command line. An export is written to a temporary name and renamed into place,
so a failed write never leaves half a file under the chosen name.
"""

from __future__ import annotations

import html
import json
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from app.core.chat.markdown import render_markdown
from app.core.chat.render import LIGHT
from app.core.chat.store import ChatStore, Conversation, Message
from app.core.documents.extract import DocumentError
from app.core.documents.grounding import Source
from app.core.documents.store import Attachment
from app.core.engines.calls import WireToolCall
from app.core.images import data_url

ExportFormat = Literal["markdown", "html", "json"]
#: each format's file suffix
SUFFIXES: dict[str, str] = {"markdown": ".md", "html": ".html", "json": ".json"}
#: an image embedded in a page or a JSON file keeps its stored bytes whatever its size
_WHOLE = 1 << 30
_ROLE_TITLES = {"user": "You", "assistant": "Assistant", "system": "System prompt", "tool": "Tool result"}

_PAGE = """<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
body {{ font-family: system-ui, sans-serif; max-width: 820px; margin: 2em auto; padding: 0 1em;
       color: #1f2328; background: #f6f7f9; line-height: 1.5; }}
.message {{ background: #ffffff; border: 1px solid #e1e4e8; border-radius: 10px; padding: 8px 14px;
            margin: 12px 0; }}
.user {{ background: #e8f0fe; border-color: #e8f0fe; }}
.role {{ font-weight: 600; color: #4b5563; }}
.figures {{ color: #6b7280; font-size: 0.85em; }}
.images img {{ max-width: 240px; max-height: 240px; margin-right: 6px; border-radius: 6px; }}
.documents, .sources {{ color: #4b5563; font-size: 0.9em; }}
.sources blockquote {{ margin: 4px 0 8px 12px; padding-left: 8px; border-left: 3px solid #d5d9df;
                      white-space: pre-wrap; }}
pre {{ overflow-x: auto; border-radius: 6px; }}
table {{ border-collapse: collapse; }} td, th {{ border: 1px solid #d5d9df; padding: 4px 8px; }}
</style>
</head>
<body>
<h1>{title}</h1>
{body}
</body>
</html>
"""


def _shown(messages: list[Message]) -> list[Message]:
    """The messages a reader saw: an answer that failed before its first word is left out."""
    return [m for m in messages if m.has_body]


def _arguments(call: WireToolCall) -> str:
    """A call's arguments as indented JSON (as written when they are not JSON)."""
    raw = call["function"]["arguments"]
    try:
        return json.dumps(json.loads(raw), ensure_ascii=False, indent=2)
    except ValueError:
        return raw


def _fence(text: str, lang: str = "") -> list[str]:
    """``text`` in a code fence longer than any backtick run inside it."""
    longest = 0
    run = 0
    for ch in text:
        run = run + 1 if ch == "`" else 0
        longest = max(longest, run)
    ticks = "`" * max(3, longest + 1)
    return [f"{ticks}{lang}", text, ticks]


def _call_lines(m: Message) -> list[str]:
    """An assistant message's calls in Markdown: the tool's name, then its arguments."""
    out: list[str] = []
    for call in m.tool_calls:
        out += [f"**Tool call:** `{call['function']['name']}`", ""]
        out += [*_fence(_arguments(call), "json"), ""]
    return out


def figures(message: Message) -> dict[str, Any] | None:
    """An answer's speculation figures as plain JSON (None for a message without statistics)."""
    stats = message.stats
    if stats is None:
        return None
    return {
        "model": message.model,
        "status": message.status,
        "speculation": stats.speculation or None,
        "completion_tokens": stats.completion_tokens,
        "prompt_tokens": stats.prompt_tokens,
        "decode_tokens_per_second": round(stats.decode_tps, 3),
        "time_to_first_token_ms": stats.ttft_ms,
        "drafted": stats.drafted,
        "accepted": stats.accepted,
        "rounds": stats.rounds,
        "acceptance_rate": stats.acceptance_rate,
        "mean_accepted_length": stats.mean_accepted_length,
        "speedup": stats.speedup,
        "finish_reason": stats.finish_reason,
        "drafted_spans": [list(s) for s in message.draft_spans],
    }


def _figure_line(message: Message) -> str:
    """One line under an answer: its speed and what speculation did."""
    data = figures(message)
    if data is None:
        return ""
    parts = [f"{data['completion_tokens']} tokens", f"{data['decode_tokens_per_second']:.1f} tok/s"]
    if data["speculation"]:
        parts.append(f"speculation {data['speculation']}")
        if data["acceptance_rate"] is not None:
            parts.append(f"acceptance {data['acceptance_rate']:.0%}")
        if data["speedup"] is not None:
            parts.append(f"{data['speedup']:.2f}x plain")
    if message.model:
        parts.append(message.model)
    return " · ".join(parts)


def source_title(source: Source) -> str:
    """A source as a reader names it: its file, and its page when it has one."""
    if source.whole:
        return f"{source.filename} (whole document)"
    return f"{source.filename}, page {source.page}" if source.page is not None else source.filename


def source_json(source: Source) -> dict[str, Any]:
    """A source in an export: file, page, text, and whether the document went in whole."""
    return {"filename": source.filename, "page": source.page, "text": source.text, "whole": source.whole}


def _source_lines(m: Message) -> list[str]:
    """An answer's sources in Markdown: each one's file and page, its text quoted under it."""
    if not m.sources:
        return []
    out = [f"**Sources ({len(m.sources)}):**", ""]
    for s in m.sources:
        out.append(f"- {source_title(s)}")
        out += ["", *(f"  > {line}" if line else "  >" for line in s.text.splitlines()), ""]
    return out


def to_markdown(
    conversation: Conversation,
    messages: list[Message],
    image_name: Callable[[str], str],
    document_name: Callable[[Attachment], str | None] = lambda _a: None,
) -> str:
    """The conversation as one Markdown text; ``image_name`` says where each stored image is
    referenced from (a path relative to the Markdown file), ``document_name`` where each document
    is (None: named only)."""
    out = [f"# {conversation.title}", ""]
    if conversation.system_prompt.strip():
        out += [f"**{_ROLE_TITLES['system']}:** {conversation.system_prompt.strip()}", ""]
    for m in _shown(messages):
        if m.role == "tool":
            out += [f"**{_ROLE_TITLES['tool']}** (`{m.tool_name}`):", ""]
            out += [*_fence(m.content), ""]
            continue
        out += [f"## {_ROLE_TITLES.get(m.role, m.role)}", ""]
        out += [f"![image {i + 1}]({image_name(name)})" for i, name in enumerate(m.images)]
        if m.images:
            out.append("")
        for a in m.documents:
            target = document_name(a)
            out.append(f"- Attached: [{a.filename}](<{target}>)" if target else f"- Attached: {a.filename}")
        if m.documents:
            out.append("")
        if m.content:
            out += [m.content, ""]
        out += _call_lines(m)
        out += _source_lines(m)
        line = _figure_line(m)
        if line:
            out += [f"*{line}*", ""]
    return "\n".join(out).rstrip() + "\n"


def _html_documents(m: Message) -> str:
    if not m.documents:
        return ""
    names = ", ".join(html.escape(a.filename) for a in m.documents)
    return f'<p class="documents">Attached: {names}</p>'


def _html_sources(m: Message) -> str:
    if not m.sources:
        return ""
    items = "".join(
        f"<li>{html.escape(source_title(s))}<blockquote>{html.escape(s.text)}</blockquote></li>"
        for s in m.sources
    )
    return f'<div class="sources"><p>Sources ({len(m.sources)}):</p><ul>{items}</ul></div>'


def to_html(conversation: Conversation, messages: list[Message], image_url: Callable[[str], str]) -> str:
    """The conversation as one page, each message rendered by the chat's renderer (light
    colours, formulas as images, code highlighted); ``image_url``: each stored image's source."""
    blocks = []
    if conversation.system_prompt.strip():
        prompt = html.escape(conversation.system_prompt.strip())
        blocks.append(
            f'<div class="message"><div class="role">{_ROLE_TITLES["system"]}</div><p>{prompt}</p></div>'
        )
    for m in _shown(messages):
        images = "".join(f'<img src="{html.escape(image_url(n))}" alt="">' for n in m.images)
        # no Copy link: it needs the app's clipboard, a page has none
        text = m.content
        if m.role == "tool":
            text = "\n".join([f"`{m.tool_name}`", "", *_fence(m.content)])
        elif m.tool_calls:
            text = "\n".join([m.content, "", *_call_lines(m)]) if m.content else "\n".join(_call_lines(m))
        body = render_markdown(text, highlight=None, colors=LIGHT, copy_label="") if text else ""
        line = _figure_line(m)
        blocks.append(
            f'<div class="message {m.role}"><div class="role">{_ROLE_TITLES.get(m.role, m.role)}</div>'
            + (f'<div class="images">{images}</div>' if images else "")
            + _html_documents(m)
            + body
            + _html_sources(m)
            + (f'<p class="figures">{html.escape(line)}</p>' if line else "")
            + "</div>"
        )
    return _PAGE.format(title=html.escape(conversation.title), body="\n".join(blocks))


def to_openai(
    conversation: Conversation, messages: list[Message], image_url: Callable[[str], str]
) -> dict[str, Any]:
    """The conversation as an OpenAI chat request's ``messages`` (images as ``image_url``
    content parts), each answer carrying its figures and sources under ``tandem``, each user
    message its documents."""
    out: list[dict[str, Any]] = []
    if conversation.system_prompt.strip():
        out.append({"role": "system", "content": conversation.system_prompt})
    for m in _shown(messages):
        item: dict[str, Any] = {"role": m.role}
        if m.images:
            parts: list[dict[str, Any]] = [
                {"type": "image_url", "image_url": {"url": image_url(n)}} for n in m.images
            ]
            if m.content:
                parts.append({"type": "text", "text": m.content})
            item["content"] = parts
        else:
            item["content"] = m.content
        if m.tool_calls or m.role == "tool":
            wire = m.chat_message()
            if "tool_calls" in wire:
                item["tool_calls"] = wire["tool_calls"]
            if m.role == "tool":
                item["tool_call_id"] = m.tool_call_id
                item["name"] = m.tool_name
        data = figures(m)
        if data is not None:
            item["tandem"] = data
        if m.documents:
            item.setdefault("tandem", {})["documents"] = [{"filename": a.filename} for a in m.documents]
        if m.sources:
            item.setdefault("tandem", {})["sources"] = [source_json(s) for s in m.sources]
        out.append(item)
    return {"title": conversation.title, "speculation": conversation.speculation, "messages": out}


def _replace(path: Path, text: str) -> None:
    """Write ``text`` through a temporary file beside ``path``, then rename it into place."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    os.close(fd)
    os.chmod(tmp, 0o644)  # an export is the user's document, not a private temporary file
    try:
        Path(tmp).write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def export_conversation(store: ChatStore, conversation_id: int, path: Path, fmt: ExportFormat) -> list[Path]:
    """Write conversation ``conversation_id`` to ``path`` as ``fmt``; returns the files written
    (a Markdown export's images go into ``<stem>_images/`` beside it, its documents under their
    file names into ``<stem>_documents/``)."""
    conversation = store.conversation(conversation_id)
    messages = store.messages(conversation_id)

    def embedded(name: str) -> str:
        file = store.image_path(name)
        return data_url(file, max_side=_WHOLE) if file.is_file() else ""

    if fmt == "html":
        page = to_html(conversation, messages, embedded)
        _replace(path, page)
        return [path]
    if fmt == "json":
        text = json.dumps(to_openai(conversation, messages, embedded), ensure_ascii=False, indent=2)
        _replace(path, text + "\n")
        return [path]
    folder = path.with_name(f"{path.stem}_images")
    written: list[Path] = []
    names = [n for m in messages for n in m.images if store.image_path(n).is_file()]
    if names:
        folder.mkdir(exist_ok=True)
        for name in dict.fromkeys(names):
            target = folder / name
            shutil.copyfile(store.image_path(name), target)
            written.append(target)
    documents = _copy_documents(store, messages, path.with_name(f"{path.stem}_documents"))
    written += documents.values()
    text = to_markdown(
        conversation,
        messages,
        lambda n: f"{folder.name}/{n}",
        lambda a: (
            f"{documents[a.name].parent.name}/{documents[a.name].name}" if a.name in documents else None
        ),
    )
    _replace(path, text)
    return [path, *written]


def _copy_documents(store: ChatStore, messages: list[Message], folder: Path) -> dict[str, Path]:
    """Copy the conversation's stored documents into ``folder`` under the names they were attached
    under (a second document of the same name gets its content's hash before its suffix);
    stored name -> the copy."""
    copies: dict[str, Path] = {}
    taken: set[str] = set()
    for a in (a for m in messages for a in m.documents):
        try:
            source = store.document_path(a.name)
        except DocumentError:  # a row naming no stored document: named in the text only
            continue
        if a.name in copies or not source.is_file():
            continue
        name = Path(a.filename).name or a.name
        if name in taken:
            stem, suffix = Path(name).stem, Path(name).suffix
            name = f"{stem}-{a.name[:8]}{suffix}"
        taken.add(name)
        folder.mkdir(exist_ok=True)
        target = folder / name
        shutil.copyfile(source, target)
        copies[a.name] = target
    return copies
