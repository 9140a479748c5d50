"""Decide how an MLX target/drafter pair runs, and refuse a bad pair before any weight is loaded.

Everything here reads ``config.json`` files only (plus installed versions), so a mismatch is
reported at load time with a message naming what differs, not on the first request and not as a
crash deep inside mlx-vlm. mlx-vlm itself checks only kind vs ``model_type`` and (for ``mtp``) the
hidden size; head dims, KV heads, layer types and vocabulary are checked here.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from app.core.engines.base import DrafterMismatchError, EngineUnavailable, ModelLoadError
from app.core.engines.capability import version_at_least
from app.core.speculative import DRAFTER_METHODS, parse_num_speculative_tokens
from app.core.speculative.options import MLX_CLASSIC_DEFAULT_TOKENS, SUFFIX_METHODS, SpeculationOptions
from app.core.speculative.options import default_tokens as default_depth
from app.core.speculative.suffix import PRIVATE_CORPUS

#: Drafter kinds mlx-vlm runs (``draft_kind``); "draft" is a classic mlx-lm drafter.
VLM_DRAFTER_KINDS = ("mtp", "eagle3", "dflash")
MIN_MLX_VLM = "0.5.0"
#: Gemma 4 12B is the encoder-free "unified" variant; mlx-vlm runs its assistant from 0.6.1 on.
MIN_MLX_VLM_UNIFIED = "0.6.1"
MIN_MLX_LM = "0.25"
#: A classic drafter's longest draft per round when the user sets none; each round's depth adapts
#: below it (app.core.engines.mlx.drafted).
CLASSIC_DEFAULT_DRAFT_TOKENS = MLX_CLASSIC_DEFAULT_TOKENS
#: Fallback when an mlx-vlm drafter's config has no ``block_size`` (mlx-vlm's Gemma 4 default).
VLM_DEFAULT_BLOCK_SIZE = 4
#: Drafter ``model_type`` -> kind, used when mlx-vlm is too old to have its own table.
_KNOWN_KINDS = {"gemma4_assistant": "mtp", "gemma4_unified_assistant": "mtp", "eagle3": "eagle3"}
_GEMMA4_ASSISTANTS = ("gemma4_assistant", "gemma4_unified_assistant")

Backend = Literal["vlm", "lm"]


@dataclass(frozen=True)
class PairPlan:
    """What :meth:`MLXEngine.load` will do; ``notes`` are user-facing remarks (auto-detection)."""

    backend: Backend
    #: None: no speculation; "mtp" | "eagle3" | "dflash" (mlx-vlm), "draft" (mlx-lm), or the
    #: model-free "suffix" | "prompt-lookup" (Tandem's own decode loop, either library's model)
    kind: str | None
    target_config: dict[str, Any]
    drafter_config: dict[str, Any] = field(default_factory=dict)
    #: the user's tokens per round (drafted tokens), None for the drafter's trained depth
    num_speculative_tokens: int | None = None
    #: drafted tokens per round when the user sets nothing
    default_draft_tokens: int | None = None
    notes: tuple[str, ...] = ()
    #: suffix decoding with a corpus of its own: empty at load, nothing stored (see
    #: :data:`app.core.speculative.suffix.PRIVATE_CORPUS`)
    private_corpus: bool = False

    @property
    def draft_tokens(self) -> int | None:
        """Drafted tokens per round that will be requested (None without speculation)."""
        if self.kind is None:
            return None
        return self.num_speculative_tokens or self.default_draft_tokens

    @property
    def vlm_block_size(self) -> int | None:
        """mlx-vlm's ``draft_block_size`` counts the verified bonus token too: drafts + 1.

        None lets the drafter run at its trained depth (its config's ``block_size``).
        """
        return None if self.num_speculative_tokens is None else self.num_speculative_tokens + 1


def read_config(path: str | Path, role: str) -> dict[str, Any]:
    p = Path(path)
    cfg_file = p / "config.json"
    if not p.is_dir():
        raise ModelLoadError(
            f"The {role} path {str(p)!r} is not a directory (an MLX checkpoint is a folder)."
        )
    if not cfg_file.is_file():
        raise ModelLoadError(f"The {role} folder {str(p)!r} has no config.json; it is not an MLX checkpoint.")
    try:
        data = json.loads(cfg_file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ModelLoadError(f"The {role}'s config.json could not be read: {exc}") from exc
    if not isinstance(data, dict):
        raise ModelLoadError(f"The {role}'s config.json is not a JSON object.")
    gen = p / "generation_config.json"
    if gen.is_file():
        try:
            extra = json.loads(gen.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            extra = {}
        if isinstance(extra, dict) and "eos_token_id" in extra:
            data.setdefault("_generation_eos_token_id", extra["eos_token_id"])
    return data


def installed_version(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def require(dist: str, minimum: str, why: str) -> str:
    version = installed_version(dist)
    if version is None:
        raise EngineUnavailable(f"{dist} is not installed; {why} needs {dist} >= {minimum}.")
    if not version_at_least(version, minimum):
        raise EngineUnavailable(f"{why} needs {dist} >= {minimum}; installed {version}.")
    return version


def drafter_kind(cfg: dict[str, Any]) -> str | None:
    """The mlx-vlm kind a drafter config needs, or None for a plain language model (classic)."""
    if cfg.get("dflash_config") is not None:
        return "dflash"
    try:
        from mlx_vlm.speculative.drafters import DRAFTER_KIND_BY_MODEL_TYPE as table
    except Exception:  # older or missing mlx-vlm: our own short table
        table = _KNOWN_KINDS
    for key in ("model_type", "speculators_model_type"):
        value = cfg.get(key)
        if isinstance(value, str) and value in table:
            return str(table[value])
    model_type = str(cfg.get("model_type") or "")
    if "mtp" in model_type.lower():
        return "mtp"
    for sub in (cfg, cfg.get("text_config") or {}):
        n = sub.get("num_nextn_predict_layers") if isinstance(sub, dict) else None
        if isinstance(n, int) and n > 0:
            return "mtp"
    return None


def _text(cfg: dict[str, Any]) -> dict[str, Any]:
    sub = cfg.get("text_config")
    return sub if isinstance(sub, dict) else cfg


def _gemma4_text_defaults() -> dict[str, Any]:
    """mlx-vlm's Gemma 4 TextConfig defaults, for keys a real config leaves out."""
    try:
        import dataclasses

        from mlx_vlm.models.gemma4.config import TextConfig
    except Exception:
        return {}
    return {f.name: f.default for f in dataclasses.fields(TextConfig) if f.default is not dataclasses.MISSING}


def mtp_differences(target_cfg: dict[str, Any], drafter_cfg: dict[str, Any]) -> list[str]:
    """What does not line up between a target and its MTP drafter (empty when they fit)."""
    diffs: list[str] = []
    ttext = _text(target_cfg)
    dtext = drafter_cfg.get("text_config") if isinstance(drafter_cfg.get("text_config"), dict) else {}
    assert isinstance(dtext, dict)
    gemma = drafter_cfg.get("model_type") in _GEMMA4_ASSISTANTS
    defaults = _gemma4_text_defaults() if gemma else {}

    def tget(key: str) -> Any:
        return ttext.get(key, defaults.get(key))

    def dget(key: str) -> Any:
        return dtext.get(key, defaults.get(key))

    drafter_hidden = (
        drafter_cfg.get("backbone_hidden_size")
        or drafter_cfg.get("target_hidden_size")
        or dtext.get("hidden_size")
    )
    if (
        drafter_hidden is not None
        and tget("hidden_size") is not None
        and drafter_hidden != tget("hidden_size")
    ):
        diffs.append(f"hidden size: drafter expects {drafter_hidden}, target has {tget('hidden_size')}")
    if not gemma:
        return diffs
    for key, label in (
        ("head_dim", "head_dim"),
        ("global_head_dim", "global_head_dim"),
        ("num_key_value_heads", "KV heads"),
    ):
        if dget(key) != tget(key):
            diffs.append(f"{label}: drafter {dget(key)}, target {tget(key)}")
    dg, tg = dget("num_global_key_value_heads"), tget("num_global_key_value_heads")
    if dg is not None and tg is not None and dg != tg:
        diffs.append(f"global KV heads: drafter {dg}, target {tg}")
    d_types = dget("layer_types")
    t_types = tget("layer_types")
    if d_types and t_types:
        missing = sorted(set(d_types) - set(t_types))
        if missing:
            diffs.append(
                f"layer types: drafter uses {', '.join(missing)}, which the target does not have "
                f"(target: {', '.join(sorted(set(t_types)))})"
            )
    dv = dget("vocab_size") or drafter_cfg.get("vocab_size")
    tv = tget("vocab_size") or target_cfg.get("vocab_size")
    if dv is not None and tv is not None and dv != tv:
        diffs.append(f"vocabulary size: drafter {dv}, target {tv}")
    return diffs


def lm_supports(model_type: str) -> bool:
    """Can mlx-lm build this ``model_type`` (after its own remapping)?"""
    if importlib.util.find_spec("mlx_lm") is None:
        return False
    try:
        from mlx_lm.utils import MODEL_REMAPPING
    except Exception:
        MODEL_REMAPPING = {}
    name = MODEL_REMAPPING.get(model_type, model_type)
    try:
        return importlib.util.find_spec(f"mlx_lm.models.{name}") is not None
    except (ImportError, ValueError):
        return False


def plan_pair(model_path: str, spec: SpeculationOptions) -> PairPlan:
    """Validate the pair from its configs and choose the library that runs it."""
    target_cfg = read_config(model_path, "target")
    target_type = str(target_cfg.get("model_type") or "")
    num = parse_num_speculative_tokens(spec.num_speculative_tokens)
    notes: list[str] = []

    wants_drafter = spec.enabled and spec.method in DRAFTER_METHODS
    if spec.enabled and spec.method in SUFFIX_METHODS:
        backend_mf: Backend = (
            "lm" if "vision_config" not in target_cfg and lm_supports(target_type) else "vlm"
        )
        require("mlx-lm", MIN_MLX_LM, f"{spec.method} on MLX")  # its sampler and (text models) its KV cache
        if backend_mf == "vlm":
            require("mlx-vlm", MIN_MLX_VLM, "the MLX engine")
        default = default_depth("mlx", "", 0.0, spec.method).value
        private = spec.method == "suffix" and bool(spec.engine_native.get(PRIVATE_CORPUS))
        return PairPlan(backend_mf, spec.method, target_cfg, {}, num, default, tuple(notes), private)
    if spec.enabled and not wants_drafter:
        raise ModelLoadError(
            f"Apple MLX does not offer the model-free method {spec.method!r}.",
            hint="Use suffix or prompt-lookup on MLX, choose a drafter model, run the model on llama.cpp, "
            "or turn speculative decoding off.",
        )
    if not wants_drafter:
        backend: Backend = "lm" if "vision_config" not in target_cfg and lm_supports(target_type) else "vlm"
        if backend == "vlm":
            require("mlx-vlm", MIN_MLX_VLM, "the MLX engine")
        else:
            require("mlx-lm", MIN_MLX_LM, "running a text model on MLX")
        return PairPlan(backend, None, target_cfg)

    if not spec.draft_model_path:
        raise ModelLoadError(
            "Speculative decoding is on but no drafter checkpoint was given.",
            hint="Download the drafter declared for this model, or turn speculative decoding off.",
        )
    drafter_cfg = read_config(spec.draft_model_path, "drafter")
    drafter_type = str(drafter_cfg.get("model_type") or "")
    detected = drafter_kind(drafter_cfg)

    if detected is None:
        if spec.method != "draft":
            raise DrafterMismatchError(
                f"Method {spec.method!r} needs an mlx-vlm drafter (Gemma 4 assistant, EAGLE-3 or DFlash), "
                f"but the drafter is a plain {drafter_type or 'unknown'!r} language model.",
                hint="Use the method 'draft' for a classic same-vocabulary drafter, or pick the model's "
                "own drafter.",
            )
        return _plan_classic(target_cfg, drafter_cfg, spec.draft_model_path, num, notes)

    if spec.method != detected:
        notes.append(
            f"The drafter's model_type {drafter_type!r} runs as {detected!r}"
            f" (method {spec.method!r} was asked); using {detected!r}."
        )
    why = f"a {drafter_type or detected} drafter"
    require("mlx-vlm", MIN_MLX_VLM, why)
    if drafter_type == "gemma4_unified_assistant" or "unified" in target_type:
        require("mlx-vlm", MIN_MLX_VLM_UNIFIED, "Gemma 4 12B (unified) speculative decoding")
    if detected == "mtp":
        diffs = mtp_differences(target_cfg, drafter_cfg)
        if diffs:
            raise DrafterMismatchError(
                f"The {drafter_type or 'MTP'} drafter does not fit this target: " + "; ".join(diffs) + "."
            )
    block = drafter_cfg.get("block_size")
    if not isinstance(block, int) or block < 2:
        dflash = drafter_cfg.get("dflash_config") or {}
        block = dflash.get("block_size") if isinstance(dflash, dict) else None
    default_tokens = (block if isinstance(block, int) and block >= 2 else VLM_DEFAULT_BLOCK_SIZE) - 1
    return PairPlan("vlm", detected, target_cfg, drafter_cfg, num, default_tokens, tuple(notes))


def _plan_classic(
    target_cfg: dict[str, Any],
    drafter_cfg: dict[str, Any],
    drafter_path: str,
    num: int | None,
    notes: list[str],
) -> PairPlan:
    require("mlx-lm", MIN_MLX_LM, "a classic drafter pair")
    target_type = str(target_cfg.get("model_type") or "")
    drafter_type = str(drafter_cfg.get("model_type") or "")
    if "vision_config" in target_cfg or not lm_supports(target_type):
        raise DrafterMismatchError(
            f"A classic drafter needs a text model that mlx-lm runs; the target is {target_type!r}.",
            hint="Use the drafter declared for this model (e.g. a Gemma 4 assistant), or turn speculative "
            "decoding off.",
        )
    if not lm_supports(drafter_type):
        raise DrafterMismatchError(f"mlx-lm cannot run the drafter's model_type {drafter_type!r}.")
    tv, dv = _text(target_cfg).get("vocab_size"), _text(drafter_cfg).get("vocab_size")
    if isinstance(tv, int) and isinstance(dv, int) and dv > tv:
        raise DrafterMismatchError(
            f"The drafter's vocabulary ({dv} tokens) is larger than the target's ({tv}); a classic drafter "
            "must share the target's vocabulary."
        )
    del drafter_path  # tokenizers are compared after loading, on the engine thread
    return PairPlan("lm", "draft", target_cfg, drafter_cfg, num, CLASSIC_DEFAULT_DRAFT_TOKENS, tuple(notes))


def vocabulary_difference(target_vocab: dict[str, int], drafter_vocab: dict[str, int]) -> str | None:
    """Name the first difference between two token -> id maps, or None when they are the same."""
    if target_vocab == drafter_vocab:
        return None
    if len(target_vocab) != len(drafter_vocab):
        first = f"target has {len(target_vocab)} tokens, drafter {len(drafter_vocab)}"
    else:
        first = f"both have {len(target_vocab)} tokens"
    by_id_t = {i: t for t, i in target_vocab.items()}
    by_id_d = {i: t for t, i in drafter_vocab.items()}
    for i in sorted(set(by_id_t) | set(by_id_d)):
        if by_id_t.get(i) != by_id_d.get(i):
            return (
                f"{first}; id {i} is {by_id_t.get(i)!r} in the target and {by_id_d.get(i)!r} in the drafter"
            )
    return first
