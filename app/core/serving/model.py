"""What a loaded engine is served as: model id, tool-call style, speculative method."""

from __future__ import annotations

import json
import logging
from pathlib import Path

from app.core.chat.tool_parsers import guess_style, resolve_style
from app.core.engines.base import Engine
from app.core.serving.served import ServedModel

log = logging.getLogger(__name__)


def _template_of(model_path: str) -> str | None:
    """The chat template a model file or folder carries (GGUF header, tokenizer files), or None."""
    path = Path(model_path)
    try:
        if path.is_file() and path.suffix == ".gguf":
            from app.core.gguf_tools import read_header

            value = read_header(path).fields.get("tokenizer.chat_template")
            return value if isinstance(value, str) else None
        if path.is_dir():
            jinja = path / "chat_template.jinja"
            if jinja.is_file():
                return jinja.read_text(encoding="utf-8")
            config = path / "tokenizer_config.json"
            if config.is_file():
                value = json.loads(config.read_text(encoding="utf-8")).get("chat_template")
                return value if isinstance(value, str) else None
    except (OSError, ValueError) as exc:  # a template we cannot read means: no tool-call style
        log.info("no chat template read from %s: %s", path, exc)
    return None


def tool_style_for(
    tool_parser: str | None, chat_template: str | None, model_path: str, override: str | None = None
) -> str | None:
    """The tool-call style: an explicit choice, the family's ``tool_parser``, else the template's markup.

    Raises ValueError for an unknown explicit or family style (the message lists the known ones).
    """
    if override:
        return resolve_style(override)
    if tool_parser:
        return resolve_style(tool_parser)
    return guess_style(chat_template or _template_of(model_path))


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
    return ServedModel(engine, model_id, style, engine.spec_kind)
