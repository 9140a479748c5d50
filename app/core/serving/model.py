"""What a loaded engine is served as: its model id and tool-call style."""

from __future__ import annotations

from pathlib import Path

from app.core.engines.base import Engine
from app.core.requests.tool_style import tool_style_for
from app.core.serving.served import ServedModel


def served_model(
    engine: Engine,
    model_path: str,
    family_name: str | None = None,
    tool_parser: str | None = None,
    chat_template: str | None = None,
    override_style: str | None = None,
) -> ServedModel:
    """A :class:`ServedModel` for a loaded engine (the CLI and the GUI build it the same way)."""
    model_id = family_name or Path(model_path).stem or "tandem"
    style = tool_style_for(tool_parser, chat_template, model_path, override_style)
    return ServedModel(engine, model_id, style)
