"""Tool calls in a streamed answer: text passes through, a tool-call block is held back until whole.

:class:`ToolCallStream` is fed the answer's text deltas and returns what may be sent now: plain
text (as soon as it cannot be the start of an opening tag) and complete calls. From an opening tag
on, text is buffered until the closing tag (outside Gemma 4's ``<|"|>`` strings), then the block
goes through :func:`~app.core.chat.tool_parsers.parse_tool_calls`; a block that does not parse is
sent as the text it was, as the non-streamed answer would show it. Llama 3.x JSON calls have no
tags: an answer that starts with ``{`` or ``<|python_tag|>`` is held to the end and parsed whole.
"""

from __future__ import annotations

from app.core.chat.tool_parsers import LLAMA3_TAG, block_tags, find_close, parse_tool_calls
from app.core.engines.calls import ToolCall

#: an item to send: text content or one complete call
Piece = str | ToolCall


def _held_prefix(text: str, tag: str) -> int:
    """Length of the longest end of ``text`` that begins ``tag`` (it may grow into the tag)."""
    for n in range(min(len(text), len(tag) - 1), 0, -1):
        if tag.startswith(text[-n:]):
            return n
    return 0


class ToolCallStream:
    """Split streamed text into content and tool calls for one answer (``style`` None: all text)."""

    def __init__(self, style: str | None) -> None:
        self.style = style
        self.tags = block_tags(style) if style else None
        self._buf = ""
        self._in_block = False
        #: llama3: None until the first non-space character says whether the answer is a call
        self._json_answer: bool | None = None

    def feed(self, text: str) -> list[Piece]:
        if self.style is None:
            return [text] if text else []
        self._buf += text
        if self.tags is None:
            return self._feed_json()
        return self._feed_blocks()

    def finish(self) -> list[Piece]:
        rest, self._buf = self._buf, ""
        if not rest or self.style is None:
            return [rest] if rest else []
        if self.tags is None and self._json_answer is not False:
            content, calls = parse_tool_calls(rest, self.style)
            return [*calls, *([content] if content else [])] if calls else [rest]
        return [rest]  # an unclosed block (or a held partial tag) stays text

    def _feed_json(self) -> list[Piece]:
        if self._json_answer is None:
            head = self._buf.lstrip()
            if not head:
                return []
            if head.startswith("{") or head.startswith(LLAMA3_TAG):
                self._json_answer = True
            elif LLAMA3_TAG.startswith(head):
                return []  # may still become the tag
            else:
                self._json_answer = False
        if self._json_answer:
            return []
        out, self._buf = self._buf, ""
        return [out]

    def _feed_blocks(self) -> list[Piece]:
        assert self.tags is not None
        open_tag, close_tag, inner = self.tags
        out: list[Piece] = []
        while self._buf:
            if not self._in_block:
                start = self._buf.find(open_tag)
                if start < 0:
                    keep = _held_prefix(self._buf, open_tag)
                    send = self._buf[: len(self._buf) - keep]
                    if send:
                        out.append(send)
                    self._buf = self._buf[len(send) :]
                    break
                if start:
                    out.append(self._buf[:start])
                self._buf = self._buf[start:]
                self._in_block = True
            end = find_close(self._buf, len(open_tag), close_tag, inner)
            if end < 0:
                break
            block = self._buf[: end + len(close_tag)]
            self._buf = self._buf[end + len(close_tag) :]
            self._in_block = False
            content, calls = parse_tool_calls(block, self.style or "")
            if calls:
                out.extend(calls)
                if content:
                    out.append(content)
            else:
                out.append(block)
        return out
