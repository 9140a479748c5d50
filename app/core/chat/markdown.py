"""The chat's Markdown entry point: tool calls shown as blocks, the rest rendered by
:mod:`app.core.chat.render` (markdown-it-py, Pygments, drafted ranges through source maps)."""

from __future__ import annotations

import html
import json
from collections.abc import Sequence

from app.core.chat import tool_parsers
from app.core.chat.render import render_html, stable_end
from app.core.chat.render.colors import LIGHT, Colors
from app.core.engines.calls import ToolCall

_CODE_STYLE = (
    "background-color:{bg}; color:{fg}; font-family:'DejaVu Sans Mono','Menlo','Consolas',monospace;"
    " padding:6px; white-space:pre-wrap;"
)


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


def _tool_block(call: ToolCall, label: str, code_bg: str, code_fg: str) -> str:
    """One tool call as a compact block: its name, then its arguments one per line."""
    name = html.escape(call.name, quote=False)
    rows = [f"{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in call.arguments.items()]
    body = html.escape("\n".join(rows), quote=False)
    style = _CODE_STYLE.format(bg=code_bg, fg=code_fg)
    head = f'<p style="margin-bottom:2px;">{html.escape(label, quote=False)}: <b>{name}</b></p>'
    return head + (f'<pre style="{style}">{body}</pre>' if rows and body else "")


def render_markdown(
    text: str,
    draft_spans: Sequence[tuple[int, int]] = (),
    *,
    highlight: str | None = LIGHT.draft,
    colors: Colors = LIGHT,
    tool_style: str | None = None,
    tool_label: str = "Tool call",
    copy_label: str = "Copy",
    live: bool = False,
) -> str:
    """Render ``text``; ``draft_spans`` (char ranges) get ``highlight`` as background if given;
    ``colors``: code, tool calls and formulas for a light or dark background.

    Tool calls in the text (``tool_style``: the family's ``tool_parser``; tagged styles are also
    found by their tags) are shown as compact blocks after the remaining content, never as raw
    markup; a broken block stays text, as the parser leaves it. ``live``: the text is still
    being written (see :func:`app.core.chat.render.render_html`).
    """
    style = tool_style_of(text, tool_style)
    if style is not None:
        try:
            content, calls = tool_parsers.parse_tool_calls(text, style)
        except ValueError:  # an unknown style name: show the text as written
            calls = []
        if calls:
            # the spans index the raw text, which the calls' markup no longer lines up with
            rest = render_html(content, highlight=None, colors=colors, copy_label=copy_label)
            return rest + "".join(_tool_block(c, tool_label, colors.code_bg, colors.code_fg) for c in calls)
    return render_html(
        text,
        draft_spans,
        highlight=highlight,
        colors=colors,
        copy_label=copy_label,
        live=live,
    )


def stable_prefix(text: str, start: int = 0) -> int:
    """The end of the longest prefix of ``text`` that later text cannot change the rendering of
    (where the last top-level block begins). ``start``: a stable end known already (the parse
    resumes there). So ``render_markdown(text)`` is ``render_markdown(text[:k])`` followed by
    ``render_markdown(text[k:])`` for ``k = stable_prefix(text)``, draft spans split at ``k``,
    unless the text holds tool calls (parsed as a whole): :func:`renders_in_parts` says."""
    return stable_end(text, start)


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
