"""How a model's tool calls are read out of its answers: the tool-call style of a model file or
folder (an explicit choice, its family's, else the markup its chat template writes)."""

from __future__ import annotations

import json
import logging
from pathlib import Path

from app.core.chat.tool_parsers import guess_style, resolve_style

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
