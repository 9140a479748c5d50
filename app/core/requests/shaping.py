"""A checked request fitted to the loaded model's chat template, before the engine sees it.

Agents send what their own servers take; a local model's template takes less. :func:`shape`
closes the gap the same way for the three HTTP APIs and the tool loop, so nothing a client sent
is silently lost:

* **System messages** anywhere in the conversation (Claude Code and Codex put some after the first
  turn): kept where they are when the template renders a late system message in place, else
  merged, in order, into the one leading system message every template takes.
* **Tools** go to the template when it renders them. A template that does not gets them from
  Tandem's own compact prompt format (one line per tool, calls written as
  ``<tool_call>{"name", "arguments"}</tool_call>`` and read back with the ``hermes`` parser), and
  the conversation's earlier calls and results are written the same way.
* **A forced tool choice** (``required``, a named function, Anthropic ``any`` / ``tool``) is
  enforced by the engine's grammar: with a template that renders tools, in the model's own call
  format (llama-server and vLLM build that grammar themselves); else the answer must be one JSON
  object naming a tool and its arguments (``{"name", "arguments"}``, the arguments following the
  tool's schema), which becomes the call. An engine with no grammar refuses the request instead
  of answering free text.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import replace

from pydantic import JsonValue

from app.core.engines.base import ChatMessage, TemplateCaps, is_agent_turn
from app.core.engines.calls import FunctionSpec, FunctionTool, JsonObject, ToolChoice
from app.core.requests.request import ChatRequest, JsonSchemaFormat, RequestError

#: the tool-call style of Tandem's own tool prompt (read back by the ``hermes`` parser)
FALLBACK_STYLE = "hermes"
#: the style that reads a forced call: the whole answer is one JSON object
FORCED_STYLE = "llama3"
#: a tool's description is cut to its first sentence, at most this long, in the compact format
_DESCRIPTION_CHARS = 160


def shape(req: ChatRequest, caps: TemplateCaps, family_style: str | None, structured: bool) -> ChatRequest:
    """``req`` fitted to a template with ``caps``, as a new request (``req`` is left as it is);
    ``family_style`` reads the calls a template that renders tools writes, ``structured`` says
    whether the engine has a grammar. :class:`RequestError` for a forced tool choice that cannot
    be enforced."""
    agentic = req.agentic or is_agent_turn(req.messages, req.tools)
    messages, response_format = req.messages, req.response_format
    tools, tool_choice = req.tools, req.tool_choice
    forced = _forced_tools(tools or [], tool_choice)
    if forced is not None and caps.renders_tools and structured:
        # the template knows the model's call format, and the engine's grammar holds the answer
        # to it (llama-server and vLLM do for a required or named tool choice)
        call_style = family_style
    elif forced is not None:
        if not structured:
            raise RequestError(
                "tool_choice: this engine cannot force a tool call (it has no grammar to hold the "
                'answer to one); send tool_choice "auto"',
                param="tool_choice",
                code="unsupported",
            )
        if response_format is not None:
            raise RequestError(
                "tool_choice forces a tool call, so the answer cannot also follow response_format; "
                "send one of them",
                param="tool_choice",
            )
        messages = _with_tool_prompt(_calls_as_text(messages), tools or [], forced=True)
        response_format = forced_format(forced)
        tools, tool_choice, call_style = None, None, FORCED_STYLE
    elif tools and not caps.renders_tools:
        messages = _with_tool_prompt(_calls_as_text(messages), tools, forced=False)
        tools, tool_choice, call_style = None, None, FALLBACK_STYLE
    else:
        call_style = family_style if tools else None
    if not caps.system_anywhere:
        messages = merge_system(messages)
    return replace(
        req,
        messages=messages,
        tools=tools,
        tool_choice=tool_choice,
        response_format=response_format,
        call_style=call_style,
        agentic=agentic,
    )


def _forced_tools(tools: list[FunctionTool], choice: ToolChoice | None) -> list[FunctionTool] | None:
    """The tools one of which the answer must call, or None when the choice forces nothing."""
    if not tools:
        return None
    if choice == "required":
        return tools
    if isinstance(choice, dict):
        name = choice["function"]["name"]
        named = [t for t in tools if t["function"]["name"] == name]
        if not named:
            known = ", ".join(t["function"]["name"] for t in tools)
            raise RequestError(
                f"tool_choice: no tool named {name!r} in tools (they are: {known})", param="tool_choice"
            )
        return named
    return None


def forced_format(tools: list[FunctionTool]) -> JsonSchemaFormat:
    """A JSON-schema ``response_format`` for one call of one of ``tools``."""
    options: list[JsonValue] = [
        {
            "type": "object",
            "properties": {
                "name": {"type": "string", "enum": [t["function"]["name"]]},
                "arguments": _clean_schema(t["function"].get("parameters") or {"type": "object"}),
            },
            "required": ["name", "arguments"],
            "additionalProperties": False,
        }
        for t in tools
    ]
    only = options[0] if len(options) == 1 else None
    schema: JsonObject = only if isinstance(only, dict) else {"anyOf": options}
    return {"type": "json_schema", "json_schema": {"name": "tool_call", "schema": schema, "strict": True}}


def _clean_schema(schema: JsonValue) -> JsonValue:
    """A tool's parameter schema without the keys that only describe the schema document."""
    if isinstance(schema, dict):
        return {k: _clean_schema(v) for k, v in schema.items() if k not in ("$schema", "$id")}
    if isinstance(schema, list):
        return [_clean_schema(v) for v in schema]
    return schema


def merge_system(messages: list[ChatMessage]) -> list[ChatMessage]:
    """Every system message's text, in order, in one leading system message."""
    if [i for i, m in enumerate(messages) if m["role"] == "system"] in ([], [0]):
        return messages  # already one leading system message, or none
    system = [m["content"] for m in messages if m["role"] == "system" and m["content"]]
    rest = [m for m in messages if m["role"] != "system"]
    head: list[ChatMessage] = [{"role": "system", "content": "\n\n".join(system)}] if system else []
    return head + rest


def tool_lines(tools: list[FunctionTool]) -> str:
    """One line per tool: its name, its parameters with their types, its description's first
    sentence. Agents send dozens of tools with pages of description; a small local model reads
    this in a few hundred tokens."""
    return "\n".join(_tool_line(t["function"]) for t in tools)


def _tool_line(fn: FunctionSpec) -> str:
    params = fn.get("parameters") or {}
    props = params.get("properties")
    listed = params.get("required")
    required = {r for r in listed if isinstance(r, str)} if isinstance(listed, list) else set()
    args = []
    if isinstance(props, dict):
        for name, prop in props.items():
            mark = "" if name in required else "?"
            args.append(f"{name}{mark}: {_type_of(prop)}")
    line = f"- {fn['name']}({', '.join(args)})"
    description = _first_sentence(fn.get("description"))
    return f"{line}: {description}" if description else line


def _type_of(prop: JsonValue) -> str:
    if not isinstance(prop, dict):
        return "any"
    enum = prop.get("enum")
    if isinstance(enum, list):
        return "|".join(json.dumps(v, ensure_ascii=False) for v in enum[:8])
    kind = prop.get("type")
    if isinstance(kind, list):
        return "|".join(str(k) for k in kind)
    if kind == "array":
        return f"array of {_type_of(prop.get('items'))}"
    if isinstance(kind, str):
        return kind
    for key in ("anyOf", "oneOf"):
        options = prop.get(key)
        if isinstance(options, list):
            return "|".join(_type_of(p) for p in options)
    return "any"


def _first_sentence(text: str | None) -> str:
    if text is None:
        return ""
    line = " ".join(text.strip().split())
    for end in (". ", "? ", "! "):
        cut = line.find(end)
        if 0 < cut < _DESCRIPTION_CHARS:
            return line[: cut + 1]
    return line if len(line) <= _DESCRIPTION_CHARS else line[: _DESCRIPTION_CHARS - 1].rstrip() + "…"


def _with_tool_prompt(
    messages: list[ChatMessage], tools: list[FunctionTool], forced: bool
) -> list[ChatMessage]:
    """``messages`` with the tools described at the end of the (first) system message."""
    how = (
        'Reply with one call only, as a JSON object: {"name": "<tool name>", "arguments": {...}}.'
        if forced
        else 'To call a tool, reply with <tool_call>{"name": "<tool name>", "arguments": {...}}</tool_call> '
        "(one block per call); each result comes back in a <tool_response> block. "
        "If no tool is needed, answer normally."
    )
    text = f"# Tools\nYou can call these tools:\n{tool_lines(tools)}\n\n{how}"
    if messages and messages[0]["role"] == "system":
        first: ChatMessage = {**messages[0], "content": f"{messages[0]['content']}\n\n{text}".lstrip()}
        return [first, *messages[1:]]
    return [{"role": "system", "content": text}, *messages]


def _calls_as_text(messages: list[ChatMessage]) -> list[ChatMessage]:
    """A conversation's tool calls and results written in Tandem's tool format, for a prompt whose
    template does not render tools (it would drop them); consecutive user turns are joined, as
    some templates require turns to alternate."""
    out: list[ChatMessage] = []
    for m in messages:
        if m["role"] == "assistant" and m.get("tool_calls"):
            blocks = [m["content"]] if m["content"] else []
            for call in m["tool_calls"]:
                fn = call["function"]
                args: JsonValue = fn["arguments"]  # written as the client sent it unless it is JSON
                with contextlib.suppress(ValueError):
                    args = json.loads(fn["arguments"])
                payload = json.dumps({"name": fn["name"], "arguments": args}, ensure_ascii=False)
                blocks.append(f"<tool_call>{payload}</tool_call>")
            out.append({"role": "assistant", "content": "\n".join(blocks)})
            continue
        if m["role"] == "tool":
            m = {"role": "user", "content": f"<tool_response>\n{m['content']}\n</tool_response>"}
        if m["role"] == "user" and out and out[-1]["role"] == "user" and not out[-1].get("images"):
            joined: ChatMessage = {**m, "content": f"{out[-1]['content']}\n\n{m['content']}"}
            out[-1] = joined
            continue
        out.append(m)
    return out
