"""Tool calls: the typed call the core passes around, and the OpenAI shape a conversation carries.

A :class:`ToolCall` is what a model asked for in one answer, whoever read it out of the answer
(an engine that parses calls itself, :mod:`app.core.chat.tool_parsers` for the families' markup,
the API streams). The three APIs turn it into their own shapes at the edge. Earlier calls that
travel back in a conversation keep OpenAI's wire shape (:class:`WireToolCall`): chat templates and
OpenAI-compatible servers read that shape, with the arguments as a JSON string.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, NotRequired, TypedDict

from pydantic import JsonValue

#: a JSON object: a call's arguments, a tool's parameter schema
JsonObject = dict[str, JsonValue]


def new_call_id() -> str:
    """An id for a call the model made (OpenAI's ``call_`` form; the APIs may use their own)."""
    return "call_" + secrets.token_hex(12)


@dataclass(frozen=True)
class ToolCall:
    """One call of a tool: the id it goes by in the conversation, the tool's name, its arguments.

    Two calls are equal when they ask for the same thing: the id only names a call, and a call
    read twice from the same text gets two ids."""

    id: str = field(compare=False)
    name: str
    arguments: JsonObject

    @classmethod
    def new(cls, name: str, arguments: JsonObject) -> ToolCall:
        return cls(new_call_id(), name, arguments)

    @classmethod
    def of(cls, call: ToolCall | Mapping[str, object]) -> ToolCall:
        """A call from a ``{"name", "arguments"}`` object (its ``id`` when it has one)."""
        if isinstance(call, ToolCall):
            return call
        name, arguments, cid = call.get("name"), call.get("arguments"), call.get("id")
        if not isinstance(name, str) or not isinstance(arguments, dict):
            raise ValueError(f"not a tool call: {call!r}")
        return cls(cid if isinstance(cid, str) and cid else new_call_id(), name, arguments)

    def arguments_json(self) -> str:
        """The arguments as the JSON text OpenAI's shapes carry."""
        return json.dumps(self.arguments, ensure_ascii=False)

    def wire(self) -> WireToolCall:
        """The call in OpenAI's conversation shape."""
        return {
            "id": self.id,
            "type": "function",
            "function": {"name": self.name, "arguments": self.arguments_json()},
        }


class WireFunction(TypedDict):
    name: str
    #: the arguments object as JSON text
    arguments: str


class WireToolCall(TypedDict):
    """A call in OpenAI's shape, as an assistant message of a conversation carries it."""

    id: str
    type: Literal["function"]
    function: WireFunction


class FunctionSpec(TypedDict):
    name: str
    description: NotRequired[str]
    #: the JSON schema of the arguments
    parameters: NotRequired[JsonObject]
    strict: NotRequired[bool]


class FunctionTool(TypedDict):
    """A tool in OpenAI's chat shape, as engines take it (every API's tools become these)."""

    type: Literal["function"]
    function: FunctionSpec


class NamedFunction(TypedDict):
    name: str


class NamedChoice(TypedDict):
    """A tool choice that names the one function the answer must call."""

    type: Literal["function"]
    function: NamedFunction


#: how the answer may use the tools (chat's shape; every API's choice becomes one): "none" leaves
#: the request without tools instead
ToolChoice = Literal["auto", "required"] | NamedChoice
