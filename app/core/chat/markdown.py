"""A small Markdown-to-HTML renderer that can mark which characters came from accepted drafts.

Qt's own Markdown import cannot carry character ranges through, and the highlight must survive
rendering, so this renderer handles the subset chat models produce (headings, paragraphs, lists,
fenced and inline code, bold, italic, links, quotes) and wraps draft ranges in spans. Output is
the HTML subset that Qt's rich text engine renders.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence

from app.core.chat import tool_parsers

# Private-use characters mark draft ranges through escaping and inline rules.
_OPEN = "\ue000"
_CLOSE = "\ue001"

_CODE_STYLE = (
    "background-color:{bg}; color:{fg}; font-family:'DejaVu Sans Mono','Menlo','Consolas',monospace;"
    " padding:6px; white-space:pre-wrap;"
)


def _mark(text: str, spans: Sequence[tuple[int, int]]) -> str:
    if not spans:
        return text
    out: list[str] = []
    pos = 0
    for start, end in sorted(spans):
        start, end = max(start, pos), min(end, len(text))
        if start >= end:
            continue
        out.append(text[pos:start])
        # A span is closed at each line end so block rules never see one cross a line; a line
        # the span covers nothing of gets no (empty) span.
        out.append("\n".join(_OPEN + seg + _CLOSE if seg else "" for seg in text[start:end].split("\n")))
        pos = end
    out.append(text[pos:])
    return "".join(out)


def _inline(text: str) -> str:
    text = html.escape(text, quote=False)
    parts = re.split(r"(`[^`\n]+`)", text)
    for i, part in enumerate(parts):
        if i % 2 == 1:
            parts[i] = f"<code>{part[1:-1]}</code>"
            continue
        part = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", part)
        part = re.sub(r"__(.+?)__", r"<b>\1</b>", part)
        part = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"<i>\1</i>", part)
        part = re.sub(r"\[([^\]]+)\]\((https?://[^)\s]+)\)", r'<a href="\2">\1</a>', part)
        parts[i] = part
    return "".join(parts)


def tool_style_of(text: str, style: str | None) -> str | None:
    """The tool-call style to parse ``text`` with: the family's ``tool_parser`` when known, else
    a tagged style whose opening tag the text holds (bare Llama 3 JSON needs the family's word)."""
    if style:
        return style
    if tool_parsers.GEMMA4_OPEN in text:
        return "gemma4"
    if tool_parsers.HERMES_OPEN in text:
        return "hermes"
    return None


def _tool_block(call: dict[str, object], label: str, code_bg: str, code_fg: str) -> str:
    """One tool call as a compact block: its name, then its arguments one per line."""
    name = html.escape(str(call.get("name", "")), quote=False)
    args = call.get("arguments")
    rows = (
        [f"{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in args.items()]
        if isinstance(args, dict)
        else [json.dumps(args, ensure_ascii=False)]
    )
    body = html.escape("\n".join(rows), quote=False)
    style = _CODE_STYLE.format(bg=code_bg, fg=code_fg)
    head = f'<p style="margin-bottom:2px;">{html.escape(label, quote=False)}: <b>{name}</b></p>'
    return head + (f'<pre style="{style}">{body}</pre>' if rows and body else "")


def render_markdown(
    text: str,
    draft_spans: Sequence[tuple[int, int]] = (),
    *,
    highlight: str | None = "#dcefe3",
    code_bg: str = "#f3f4f6",
    code_fg: str = "#1f2328",
    tool_style: str | None = None,
    tool_label: str = "Tool call",
) -> str:
    """Render ``text``; ``draft_spans`` (char ranges) get ``highlight`` as background if given.

    Tool calls in the text (``tool_style``: the family's ``tool_parser``; tagged styles are also
    found by their tags) are shown as compact blocks after the remaining content, never as raw
    markup (issue 13); a broken block stays text, as the parser leaves it.
    """
    style = tool_style_of(text, tool_style)
    if style is not None:
        try:
            content, calls = tool_parsers.parse_tool_calls(text, style)
        except ValueError:  # an unknown style name: show the text as written
            calls = []
        if calls:
            # the spans index the raw text, which the calls' markup no longer lines up with
            rest = render_markdown(content, (), highlight=None, code_bg=code_bg, code_fg=code_fg)
            return rest + "".join(_tool_block(c, tool_label, code_bg, code_fg) for c in calls)
    marked = _mark(text, draft_spans)
    lines = marked.split("\n")
    blocks: list[str] = []
    para: list[str] = []
    list_kind: str | None = None
    items: list[str] = []
    #: the number a numbered list starts with: a model's "1. … (blank line) 2. …" is one loose
    #: list in Markdown, here one list per block, so each keeps its own first number (it read
    #: "1. 1. 1." before)
    list_start = 1

    def flush_para() -> None:
        if para:
            blocks.append("<p>" + "<br>".join(_inline(p) for p in para) + "</p>")
            para.clear()

    def flush_list() -> None:
        nonlocal list_kind
        if list_kind:
            start = f' start="{list_start}"' if list_kind == "ol" and list_start != 1 else ""
            blocks.append(
                f"<{list_kind}{start}>" + "".join(f"<li>{it}</li>" for it in items) + f"</{list_kind}>"
            )
            items.clear()
            list_kind = None

    i = 0
    while i < len(lines):
        line = lines[i]
        bare = _bare(line)
        fence = re.match(r"^\s*```", bare)
        if fence:
            flush_para()
            flush_list()
            code: list[str] = []
            i += 1
            while i < len(lines) and not re.match(r"^\s*```", _bare(lines[i])):
                code.append(lines[i])
                i += 1
            i += 1  # closing fence (or end of a still-streaming block)
            body = html.escape("\n".join(code), quote=False)
            style = _CODE_STYLE.format(bg=code_bg, fg=code_fg)
            blocks.append(f'<pre style="{style}">{body}</pre>')
            continue
        heading = re.match(r"^(#{1,6})\s+(.*)$", bare)
        bullet = re.match(r"^\s*[-*+]\s+(.*)$", bare)
        number = re.match(r"^\s*(\d{1,9})[.)]\s+(.*)$", bare)
        if not bare.strip():
            flush_para()
            flush_list()
        elif heading:
            flush_para()
            flush_list()
            level = min(len(heading.group(1)) + 2, 6)
            blocks.append(f"<h{level}>{_inline(_strip_prefix(line, heading.start(2)))}</h{level}>")
        elif bullet or number:
            flush_para()
            kind = "ul" if bullet else "ol"
            if list_kind != kind:
                flush_list()
                list_kind = kind
                list_start = int(number.group(1)) if number else 1
            if bullet:
                items.append(_inline(_strip_prefix(line, bullet.start(1))))
            else:
                assert number is not None
                items.append(_inline(_strip_prefix(line, number.start(2))))
        elif bare.startswith(">"):
            flush_para()
            flush_list()
            blocks.append(f"<blockquote>{_inline(_strip_prefix(line, 1).lstrip())}</blockquote>")
        else:
            flush_list()
            para.append(line)
        i += 1
    flush_para()
    flush_list()
    out = "".join(blocks)
    if highlight:
        out = out.replace(_OPEN, f'<span style="background-color:{highlight};">').replace(_CLOSE, "</span>")
    else:
        out = out.replace(_OPEN, "").replace(_CLOSE, "")
    return out


_FENCE = re.compile(r"^\s*```")


def stable_prefix(text: str, start: int = 0) -> int:
    """The end of the longest prefix of ``text`` that later text cannot change the rendering of:
    just after the last blank line outside a code fence (the renderer closes every paragraph and
    list there and carries nothing across). ``start``: a stable end known already (the scan
    resumes there). So ``render_markdown(text)`` is ``render_markdown(text[:k])`` followed by
    ``render_markdown(text[k:])`` for ``k = stable_prefix(text)``, draft spans split at ``k``,
    unless the text holds tool calls (parsed as a whole): :func:`renders_in_parts` says."""
    pos, in_fence, stable = start, False, start
    while True:
        nl = text.find("\n", pos)
        if nl < 0:
            return stable
        line = _bare(text[pos:nl])
        if _FENCE.match(line):
            in_fence = not in_fence
        elif not in_fence and not line.strip() and pos > start:
            stable = nl + 1
        pos = nl + 1


def renders_in_parts(text: str, tool_style: str | None = None) -> bool:
    """Whether :func:`stable_prefix` splits hold for ``text`` (no tool calls to parse whole)."""
    return tool_style_of(text, tool_style) is None


def spans_in(spans: Sequence[tuple[int, int]], start: int, end: int | None = None) -> list[tuple[int, int]]:
    """The draft spans inside ``text[start:end]``, relative to ``start`` (clipped at both ends)."""
    out = []
    for a, b in spans:
        a, b = max(a, start), b if end is None else min(b, end)
        if a < b:
            out.append((a - start, b - start))
    return out


def _strip_prefix(line: str, visible_offset: int) -> str:
    """Drop the first ``visible_offset`` visible chars of ``line``, keeping draft markers."""
    kept: list[str] = []
    seen = 0
    for ch in line:
        if ch in (_OPEN, _CLOSE):
            kept.append(ch)
        elif seen < visible_offset:
            seen += 1
        else:
            kept.append(ch)
    return "".join(kept)


def _bare(line: str) -> str:
    return line.replace(_OPEN, "").replace(_CLOSE, "")
