"""Tool calls in model output -> OpenAI-style calls, one parser per family format.

``parse_tool_calls(text, style)`` returns the text that remains for the user and the calls found
(a :class:`~app.core.engines.calls.ToolCall` each, with a new id). A block that cannot be parsed
stays in the text (the caller sees what the model wrote) and the reason is logged; it never raises.

Styles (the family's ``tool_parser`` field):

- ``gemma4``: ``<|tool_call>call:NAME{key:<|"|>text<|"|>,n:3}<tool_call|>``. Strings are delimited
  by ``<|"|>`` instead of quotes, so a string may hold anything but that delimiter: double quotes,
  backslashes, newlines, ``a,b:c``, braces, CJK text. Each delimited string is re-encoded with
  :func:`json.dumps`; only the structural text *between* strings gets its bare keys quoted.
  (Replacing the delimiter with ``"`` and calling ``json.loads`` fails on any value that contains a
  quote, so callers would see no tool call at all.)
- ``hermes`` / ``qwen``: ``<tool_call>{"name": ..., "arguments": {...}}</tool_call>``.
- ``llama3``: Llama 3.x JSON tool calls: the answer is (optionally ``<|python_tag|>`` and) a JSON
  object ``{"name": ..., "parameters"|"arguments": {...}}``, or several separated by ``;``.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable

from app.core.engines.calls import JsonObject, ToolCall

log = logging.getLogger(__name__)

GEMMA4_OPEN = "<|tool_call>"
GEMMA4_CLOSE = "<tool_call|>"
GEMMA4_STRING = '<|"|>'
HERMES_OPEN = "<tool_call>"
HERMES_CLOSE = "</tool_call>"
LLAMA3_TAG = "<|python_tag|>"

STYLES = ("gemma4", "hermes", "qwen", "llama3")
#: other names a family's ``tool_parser`` field may use (the builtin Gemma 4 family says "gemma")
ALIASES = {"gemma": "gemma4", "gemma-4": "gemma4", "llama": "llama3", "llama3_json": "llama3"}


class ToolCallFormatError(ValueError):
    """A tool-call block that does not follow its format; the message says where."""


def resolve_style(style: str) -> str:
    """The canonical style for a family's ``tool_parser`` value; ValueError names the known ones."""
    name = ALIASES.get(style.strip().lower(), style.strip().lower())
    if name not in STYLES:
        raise ValueError(f"unknown tool-call style {style!r}; known: {', '.join(STYLES)}")
    return name


def guess_style(chat_template: str | None) -> str | None:
    """The tool-call style a chat template writes, from its markup; None when it shows none."""
    if not chat_template:
        return None
    if GEMMA4_OPEN in chat_template or GEMMA4_STRING in chat_template:
        return "gemma4"
    if HERMES_OPEN in chat_template:
        return "hermes"
    if LLAMA3_TAG in chat_template or "ipython" in chat_template:
        return "llama3"
    return None


def block_tags(style: str) -> tuple[str, str, str | None] | None:
    """(open tag, close tag, string delimiter) of a block style, or None (llama3 has no tags)."""
    style = resolve_style(style)
    if style == "gemma4":
        return GEMMA4_OPEN, GEMMA4_CLOSE, GEMMA4_STRING
    if style in ("hermes", "qwen"):
        return HERMES_OPEN, HERMES_CLOSE, None
    return None


def parse_tool_calls(text: str, style: str) -> tuple[str, list[ToolCall]]:
    """(remaining content, calls) for ``text`` written in the tool-call ``style`` of a family."""
    style = resolve_style(style)
    if style == "gemma4":
        return _parse_blocks(text, GEMMA4_OPEN, GEMMA4_CLOSE, _gemma4_call, inner_string=GEMMA4_STRING)
    if style in ("hermes", "qwen"):
        return _parse_blocks(text, HERMES_OPEN, HERMES_CLOSE, _json_call)
    if style == "llama3":
        return _parse_llama3(text)
    raise AssertionError(style)  # resolve_style admits only STYLES


# --- shared block scanner ------------------------------------------------------------------------
def find_close(text: str, start: int, close: str, inner_string: str | None) -> int:
    """Index of ``close`` at or after ``start`` outside delimited strings, or -1."""
    if inner_string is None:
        return text.find(close, start)
    pos = start
    in_string = False
    while pos < len(text):
        if text.startswith(inner_string, pos):
            in_string = not in_string
            pos += len(inner_string)
            continue
        if not in_string and text.startswith(close, pos):
            return pos
        pos += 1
    return -1


def _parse_blocks(
    text: str,
    open_tag: str,
    close_tag: str,
    parse_one: Callable[[str], ToolCall],
    inner_string: str | None = None,
) -> tuple[str, list[ToolCall]]:
    calls: list[ToolCall] = []
    kept: list[str] = []
    pos = 0
    while True:
        start = text.find(open_tag, pos)
        if start < 0:
            kept.append(text[pos:])
            break
        body_start = start + len(open_tag)
        end = find_close(text, body_start, close_tag, inner_string)
        raw_end = text.find(close_tag, body_start)
        if end < 0 and raw_end >= 0:  # the closing tag sits inside a string that never ends
            log.info(
                "tool call left as text: unterminated %s string in %r", inner_string, text[start:raw_end][:60]
            )
            kept.append(text[pos : raw_end + len(close_tag)])
            pos = raw_end + len(close_tag)
            continue
        if end < 0:
            log.info("tool call left as text: %r has no closing %r", text[start : start + 60], close_tag)
            kept.append(text[pos:])
            break
        try:
            calls.append(parse_one(text[body_start:end]))
        except ToolCallFormatError as exc:
            log.info("tool call left as text: %s", exc)
            kept.append(text[pos : end + len(close_tag)])
        else:
            kept.append(text[pos:start])
        pos = end + len(close_tag)
    return _tidy("".join(kept)), calls


def _tidy(content: str) -> str:
    return content.strip()


def _call(name: object, arguments: object, where: str) -> ToolCall:
    if not isinstance(name, str) or not name.strip():
        raise ToolCallFormatError(f"{where}: the call has no function name")
    if arguments is None:
        arguments = {}
    if isinstance(arguments, str):  # some models encode the arguments object as a JSON string
        try:
            arguments = json.loads(arguments)
        except json.JSONDecodeError as exc:
            raise ToolCallFormatError(f"{where}: arguments are not JSON ({exc.msg})") from exc
    if not isinstance(arguments, dict):
        raise ToolCallFormatError(f"{where}: arguments must be an object, got {type(arguments).__name__}")
    return ToolCall.new(name.strip(), arguments)


# --- Gemma 4 -------------------------------------------------------------------------------------
_GEMMA_HEAD = re.compile(r"\s*call:([A-Za-z_][\w.\-]*)\s*(?=\{)")
#: a bare key: an identifier right after '{' or ',' and followed by ':'
_BARE_KEY = re.compile(r"([{,]\s*)([A-Za-z_][\w.\-]*)(\s*:)")
#: a bare word in value position that is not a JSON literal
_BARE_VALUE = re.compile(r"([:\[,]\s*)([A-Za-z_][\w.\-]*)(?=\s*[,}\]])")
_JSON_LITERALS = frozenset({"true", "false", "null"})


def _gemma4_call(body: str) -> ToolCall:
    head = _GEMMA_HEAD.match(body)
    if head is None:
        raise ToolCallFormatError(f"expected 'call:NAME{{...}}', got {body[:40]!r}")
    arguments = gemma4_arguments(body[head.end() :].strip())
    return _call(head.group(1), arguments, f"call:{head.group(1)}")


def gemma4_arguments(source: str) -> JsonObject:
    """Parse Gemma 4's argument object (``{k:<|"|>v<|"|>,n:1}``) into a dict."""
    pieces = source.split(GEMMA4_STRING)
    if len(pieces) % 2 == 0:
        raise ToolCallFormatError(f"unterminated {GEMMA4_STRING} string in {source[:60]!r}")
    out: list[str] = []
    for i, piece in enumerate(pieces):
        if i % 2:  # inside a delimited string: any character is literal text
            out.append(json.dumps(piece, ensure_ascii=False))
        else:
            out.append(_structural(piece))
    encoded = "".join(out)
    try:
        value = json.loads(encoded)
    except json.JSONDecodeError as exc:
        raise ToolCallFormatError(f"arguments {source[:60]!r} are malformed ({exc.msg})") from exc
    if not isinstance(value, dict):
        raise ToolCallFormatError(f"arguments {source[:60]!r} are not an object")
    return value


def _structural(text: str) -> str:
    """Quote bare keys (and bare word values) in the text between delimited strings."""
    if '"' in text:
        # quotes outside a delimited string are not Gemma 4 syntax; JSON strings would be
        # misread by the key rule, so refuse rather than guess
        raise ToolCallFormatError(f"unexpected '\"' outside a {GEMMA4_STRING} string in {text[:40]!r}")
    text = _BARE_KEY.sub(lambda m: f'{m.group(1)}"{m.group(2)}"{m.group(3)}', text)
    # a key may follow another key's value directly after a closing bracket: handled by ',' above

    def value(m: re.Match[str]) -> str:
        word = m.group(2)
        if word in _JSON_LITERALS:
            return m.group(0)
        return f'{m.group(1)}"{word}"'

    # run twice: adjacent list items share a separator, so one pass skips every other one
    for _ in range(2):
        text = _BARE_VALUE.sub(value, text)
    return text


# --- Hermes / Qwen -------------------------------------------------------------------------------
def _json_call(body: str) -> ToolCall:
    try:
        data = json.loads(body.strip())
    except json.JSONDecodeError as exc:
        raise ToolCallFormatError(f"tool call {body.strip()[:60]!r} is not JSON ({exc.msg})") from exc
    if not isinstance(data, dict):
        raise ToolCallFormatError(f"tool call {body.strip()[:60]!r} is not an object")
    return _call(data.get("name"), data.get("arguments", data.get("parameters")), "tool call")


# --- Llama 3.x JSON ------------------------------------------------------------------------------
def _parse_llama3(text: str) -> tuple[str, list[ToolCall]]:
    body = text.strip()
    prefix = ""
    if LLAMA3_TAG in body:
        prefix, _, body = body.partition(LLAMA3_TAG)
        body = body.strip()
    if not body.startswith("{"):
        return text.strip(), []
    decoder = json.JSONDecoder()
    calls: list[ToolCall] = []
    pos = 0
    try:
        while pos < len(body):
            data, end = decoder.raw_decode(body, pos)
            if not isinstance(data, dict) or "name" not in data:
                raise ToolCallFormatError("a JSON object without a 'name' is not a tool call")
            calls.append(_call(data.get("name"), data.get("parameters", data.get("arguments")), "tool call"))
            pos = end
            while pos < len(body) and body[pos] in " \t\r\n;":
                pos += 1
    except (json.JSONDecodeError, ToolCallFormatError) as exc:
        log.info("llama3 tool call left as text: %s", exc)
        return text.strip(), []
    return prefix.strip(), calls
