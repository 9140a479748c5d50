"""What a GGUF file can do for speculation, told from its metadata (never from its file name).

A drafter's ``general.architecture`` says which method runs it: ``eagle3`` drafters run with
EAGLE-3, ``dflash`` drafters with DFlash, MTP assistants (``gemma4-assistant``) with ``mtp``, and
any plain language model with classic drafting (``draft``). A target whose
``<arch>.nextn_predict_layers`` is above zero carries its own MTP heads: ``mtp`` then needs no
drafter file.

Every check returns ``None`` when the configuration is fine, else ONE line for the user that says
what the file is and what to do. The checks run before llama.cpp starts.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from app.core.gguf_tools import GGUFFormatError, read_header
from app.core.speculative.options import drafter_part

#: Drafter roles, by ``general.architecture``.
Role = Literal["eagle3", "dflash", "assistant", "lm"]
EAGLE3_ARCHES = frozenset({"eagle3"})
DFLASH_ARCHES = frozenset({"dflash"})
#: Drafters that read the target's hidden state and KV cache (llama.cpp's DRAFT_MTP)
MTP_ASSISTANT_ARCHES = frozenset({"gemma4-assistant", "gemma4_assistant"})

#: the method each drafter role runs with
METHOD_BY_ROLE: dict[Role, str] = {"eagle3": "eagle3", "dflash": "dflash", "assistant": "mtp", "lm": "draft"}
_ROLE_NOUN: dict[Role, str] = {
    "eagle3": "an EAGLE-3 drafter",
    "dflash": "a DFlash drafter",
    "assistant": "an MTP assistant drafter",
    "lm": "a plain language model (a classic draft model)",
}


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


@dataclass(frozen=True)
class ModelFacts:
    """The speculation-relevant facts of one GGUF header."""

    architecture: str
    embedding_length: int | None = None
    block_count: int | None = None
    vocab_size: int | None = None
    #: MTP heads inside a target (``<arch>.nextn_predict_layers``)
    nextn_layers: int = 0
    #: EAGLE-3 / DFlash: the target layers whose hidden states the drafter reads
    target_layers: tuple[int, ...] = ()
    #: EAGLE-3 / DFlash: the width of the target hidden state the drafter reads
    target_hidden_size: int | None = None
    #: MTP assistants: the width of the target hidden state they read
    embedding_length_out: int | None = None

    @property
    def role(self) -> Role:
        if self.architecture in EAGLE3_ARCHES:
            return "eagle3"
        if self.architecture in DFLASH_ARCHES:
            return "dflash"
        if self.architecture in MTP_ASSISTANT_ARCHES or self.architecture.endswith(
            ("-assistant", "_assistant")
        ):
            return "assistant"
        return "lm"

    @property
    def has_builtin_mtp(self) -> bool:
        return self.nextn_layers > 0 and self.role == "lm"

    @property
    def described(self) -> str:
        return f"{_ROLE_NOUN[self.role]} (general.architecture {self.architecture or 'missing'})"


def facts_from_fields(fields: Mapping[str, Any]) -> ModelFacts:
    """:class:`ModelFacts` from parsed GGUF key/values (``app.core.gguf_tools.read_header``)."""
    arch = str(fields.get("general.architecture") or "")

    def number(key: str) -> int | None:
        return _int(fields.get(f"{arch}.{key}"))

    layers = fields.get(f"{arch}.target_layers")
    if layers is None:
        layers = fields.get(f"{arch}.extract_layers")
    target_layers = tuple(int(x) for x in layers) if isinstance(layers, list | tuple) else ()
    tokens = fields.get("tokenizer.ggml.tokens")
    vocab = len(tokens) if isinstance(tokens, list) else _int(tokens) or number("vocab_size")
    return ModelFacts(
        architecture=arch,
        embedding_length=number("embedding_length"),
        block_count=number("block_count"),
        vocab_size=vocab,
        nextn_layers=number("nextn_predict_layers") or 0,
        target_layers=target_layers,
        target_hidden_size=number("target_hidden_size"),
        embedding_length_out=number("embedding_length_out"),
    )


def file_facts(path: str | os.PathLike[str] | None) -> ModelFacts | None:
    """:class:`ModelFacts` of a GGUF file, or None (no path, a folder, not a readable GGUF file)."""
    if path is None or not Path(path).is_file():
        return None
    try:
        return facts_from_fields(read_header(Path(path)).fields)
    except (OSError, GGUFFormatError):
        return None


def auto_drafter_method(target: str | None, drafter: str | None, declared: str | None) -> str | None:
    """The drafter method Auto measures: the drafter file's own (from its architecture), else the
    declared one, else ``mtp`` for a GGUF target with built-in heads and no drafter, else None."""
    if drafter is not None:
        facts = file_facts(drafter)
        return method_for_drafter(facts) if facts is not None else declared or "draft"
    target_facts = file_facts(target)
    return "mtp" if target_facts is not None and target_facts.has_builtin_mtp else None


# --- checks ----------------------------------------------------------------------------------


def method_for_drafter(drafter: ModelFacts) -> str:
    """The method a drafter runs with, from its architecture."""
    return METHOD_BY_ROLE[drafter.role]


def method_mismatch(method: str, drafter: ModelFacts, drafter_name: str = "the drafter") -> str | None:
    """One line when the chosen drafter method cannot run this drafter, else None."""
    wanted = drafter_part(method)
    if wanted is None:
        return None
    fits = method_for_drafter(drafter)
    if wanted == fits:
        return None
    return (
        f"--spec-method {wanted} cannot use {drafter_name}: it is {drafter.described}, which runs with "
        f"--spec-method {fits}; pick that method or {_WHICH_DRAFTER[wanted]}"
    )


_WHICH_DRAFTER = {
    "draft": "a plain language model with the target's vocabulary as drafter",
    "mtp": "an MTP assistant drafter (or no drafter, for a target with built-in MTP heads)",
    "eagle3": "an EAGLE-3 drafter (general.architecture eagle3) made for this target",
    "dflash": "a DFlash drafter (general.architecture dflash) made for this target",
}


def builtin_mtp_problem(target: ModelFacts, target_name: str = "the model") -> str | None:
    """One line when ``mtp`` without a drafter file cannot run on this target, else None."""
    if target.has_builtin_mtp:
        return None
    return (
        f"--spec-method mtp without a drafter needs a model with built-in MTP heads, and {target_name} "
        f"({target.architecture or 'unknown architecture'}) has none ({target.architecture}."
        "nextn_predict_layers is missing or 0); pass an MTP assistant with --draft-model-path or pick "
        "another method"
    )


def pair_problem(
    target: ModelFacts,
    drafter: ModelFacts,
    target_name: str = "the target",
    drafter_name: str = "the drafter",
) -> str | None:
    """One line when an EAGLE-3 / DFlash drafter was made for another target, else None.

    Told from metadata: the hidden size the drafter reads, the target layer ids it reads, and the
    vocabulary size.
    """
    if drafter.role not in ("eagle3", "dflash"):
        return None
    kind = "EAGLE-3" if drafter.role == "eagle3" else "DFlash"
    article = "an" if drafter.role == "eagle3" else "a"
    lead = f"{drafter_name} is {article} {kind} drafter made for another model than {target_name}"
    reads = drafter.target_hidden_size
    if reads is None and drafter.role == "dflash":
        reads = drafter.embedding_length  # DFlash reads target states as wide as its own
    if reads is not None and target.embedding_length is not None and reads != target.embedding_length:
        return (
            f"{lead}: it reads {reads}-wide hidden states and the target's are "
            f"{target.embedding_length} wide; use the {kind} drafter published for this model"
        )
    if not drafter.target_layers:
        key = f"{drafter.architecture}.target_layers"
        return f"{drafter_name} is {article} {kind} drafter without {key} in its metadata; convert it again"
    if drafter.role == "eagle3" and len(drafter.target_layers) != 3:
        return (
            f"{drafter_name} is an EAGLE-3 drafter reading {len(drafter.target_layers)} target layers; "
            "llama.cpp's EAGLE-3 reads exactly 3"
        )
    if target.block_count is not None:
        beyond = [i for i in drafter.target_layers if i < 0 or i >= target.block_count]
        if beyond:
            return (
                f"{lead}: it reads target layers {list(drafter.target_layers)} and the target has "
                f"{target.block_count} layers (0-{target.block_count - 1}); use the {kind} drafter "
                "published for this model"
            )
    if drafter.vocab_size and target.vocab_size and drafter.vocab_size != target.vocab_size:
        return (
            f"{lead}: its vocabulary has {drafter.vocab_size} tokens and the target's "
            f"{target.vocab_size}; use the {kind} drafter published for this model"
        )
    return None
