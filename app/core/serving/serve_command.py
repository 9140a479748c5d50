"""Server command lines with the speculative config translated from the registry's drafter.

``tandem serve-command NAME --engine vllm|sglang|llama-server`` prints the command that starts a
server for a spec and its declared drafter, so Tandem (``--engine remote``) or anything else can
then talk to it. The rules are those of the founding reference (Xinference's paired-drafter
work, see ``shared/facts/gemma4_registry.json`` "engines"):

- vLLM: ``--speculative-config '{"method": "mtp", "model": <assistant>, "num_speculative_tokens": N}'``
  for Gemma 4 assistants (vLLM >= 0.22.0 with transformers >= 5.8.0), ``"method": "draft_model"``
  for classic same-vocabulary pairs. Default N: the Gemma 4 size table, else 1.
- SGLang: ``--speculative-algorithm NEXTN`` (Gemma 4 assistant) or ``STANDALONE`` (classic pair)
  with ``--speculative-draft-model-path``; ``--speculative-num-draft-tokens N``,
  ``--speculative-num-steps max(1, N-1)`` and ``--speculative-eagle-topk 1`` kept consistent
  (SGLang adjusts draft tokens to steps + 1 when topk is 1). Default N: the Gemma 4 size table,
  else 6.
- llama-server: ``--model-draft`` with ``--spec-type draft-mtp`` for Gemma 4 assistants, and
  ``--spec-draft-n-max N``; GGUF specs only.

Depth always goes through :func:`parse_num_speculative_tokens` (also inside an explicit native
config). An explicit engine-native config wins: the drafter and the neutral options are then not
added. Flag and key names were checked against the vLLM docs (speculative_decoding/mtp.md,
draft_model.md; 0.22-era), SGLang docs (advanced_features/speculative_decoding.md; 0.5.x) and
llama.cpp's server options (builds with ``draft-mtp``); see docs/remote.md.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from pydantic import JsonValue

from app.core.cache import listing
from app.core.cache.plan import make_plan
from app.core.registry import AnySpec, Family, GGUFSpec, Registry, format_template
from app.core.speculative.options import (
    GEMMA4_TOKENS_BY_SIZE,
    SpeculationError,
    parse_num_speculative_tokens,
    parse_whole_number,
)

SERVER_ENGINES = ("vllm", "sglang", "llama-server")
#: Engines Tandem knows and refuses, with why (said instead of printing a command that cannot work).
REFUSED_ENGINES = {
    "transformers": (
        "the Transformers backend runs its own continuous-batching loop without generate(), so there "
        "is no place to attach a drafter; use vllm, sglang or llama-server"
    ),
}
VLLM_MTP_MIN = "vllm>=0.22.0 with transformers>=5.8.0"
VLLM_DEFAULT_TOKENS = 1
SGLANG_DEFAULT_DRAFT_TOKENS = 6

#: vLLM and SGLang load Hugging Face safetensors checkpoints, which Tandem's registry does not
#: declare (it holds GGUF and MLX files). These are the Gemma 4 ``pytorch`` specs of the founding
#: reference (Xinference llm_family.json, gemma-4): target and assistant per size in billions.
SAFETENSORS_CHECKPOINTS: dict[tuple[str, float], tuple[str, str]] = {
    ("gemma-4", 2): ("google/gemma-4-E2B-it", "google/gemma-4-E2B-it-assistant"),
    ("gemma-4", 4): ("google/gemma-4-E4B-it", "google/gemma-4-E4B-it-assistant"),
    ("gemma-4", 12): ("google/gemma-4-12B-it", "google/gemma-4-12B-it-assistant"),
    ("gemma-4", 26): ("google/gemma-4-26B-A4B-it", "google/gemma-4-26B-A4B-it-assistant"),
    ("gemma-4", 31): ("google/gemma-4-31B-it", "google/gemma-4-31B-it-assistant"),
}


class ServeCommandError(ValueError):
    """No working command can be printed; the message says why."""


@dataclass(frozen=True)
class ServeCommand:
    engine: str
    argv: list[str]
    #: lines printed as shell comments above the command (version floors, downloads, notes)
    comments: list[str] = field(default_factory=list)
    #: the speculative settings as the server reads them (vLLM's JSON, SGLang's flags, ...)
    speculative: dict[str, JsonValue] = field(default_factory=dict)
    #: True when an explicit engine-native config decided the speculative settings
    native: bool = False

    def shell(self) -> str:
        """Comments, then the command: program and leading arguments on one line, one option a line."""
        lines = [f"# {c}" for c in self.comments]
        i = 1
        while i < len(self.argv) and not self.argv[i].startswith("--"):
            i += 1
        parts = [shlex.join(self.argv[:i])]
        while i < len(self.argv):
            arg = self.argv[i]
            if i + 1 < len(self.argv) and not self.argv[i + 1].startswith("--"):
                parts.append(f"{shlex.quote(arg)} {shlex.quote(self.argv[i + 1])}")
                i += 2
            else:
                parts.append(shlex.quote(arg))
                i += 1
        lines.append(" \\\n    ".join(parts))
        return "\n".join(lines)


def is_gemma4_assistant(family: Family) -> bool:
    return family.name == "gemma-4" or any(a.startswith("Gemma4") for a in family.architectures)


def _depth(value: object, field_name: str = "draft tokens") -> int | None:
    try:
        return parse_num_speculative_tokens(value, field_name)
    except SpeculationError as exc:
        raise ServeCommandError(str(exc)) from exc


def default_tokens(engine: str, family: Family, size_in_billions: float) -> int | None:
    """Tokens per round when none is given (None: leave it to the server)."""
    if family.name == "gemma-4" and size_in_billions in GEMMA4_TOKENS_BY_SIZE:
        return GEMMA4_TOKENS_BY_SIZE[size_in_billions]
    if engine == "vllm":
        return VLLM_DEFAULT_TOKENS
    if engine == "sglang":
        return SGLANG_DEFAULT_DRAFT_TOKENS
    return None  # llama-server: its own draft n_max default


def _flag(key: str) -> str:
    return key if key.startswith("-") else "--" + key.replace("_", "-")


def _native_args(native: Mapping[str, Any], skip: frozenset[str] = frozenset()) -> list[str]:
    """Native keys as flags: ``true`` -> bare flag, ``false``/None -> left out, dicts as JSON."""
    out: list[str] = []
    for key, value in native.items():
        if key in skip or value is None or value is False:
            continue
        out.append(_flag(key))
        if value is True:
            continue
        out.append(json.dumps(value) if isinstance(value, dict | list) else str(value))
    return out


# --- vLLM ---------------------------------------------------------------------------------------------
def vllm_command(
    target: str, drafter: str | None, mtp: bool, tokens: int | None, native: Mapping[str, Any]
) -> ServeCommand:
    comments: list[str] = []
    raw = native.get("speculative_config", native.get("speculative-config"))
    if raw is not None:
        config = json.loads(raw) if isinstance(raw, str) else raw
        if not isinstance(config, dict):
            raise ServeCommandError("native speculative_config: expected a JSON object")
        if "num_speculative_tokens" in config:
            _depth(config["num_speculative_tokens"], "speculative_config.num_speculative_tokens")
        comments.append(
            "explicit speculative_config given: the declared drafter and --draft-tokens are not used"
        )
        native_on = True
    else:
        if not drafter:
            raise ServeCommandError(
                "no drafter to serve with; pass --draft-model-id or a native speculative_config"
            )
        n = tokens if tokens is not None else VLLM_DEFAULT_TOKENS
        config = {"method": "mtp" if mtp else "draft_model", "model": drafter, "num_speculative_tokens": n}
        native_on = False
    if config.get("method") == "mtp" and mtp:
        comments.insert(0, f"needs {VLLM_MTP_MIN} (Gemma 4 assistant checkpoints run as vLLM MTP)")
    rest = {k: v for k, v in native.items() if k not in ("speculative_config", "speculative-config")}
    argv = ["vllm", "serve", target, "--speculative-config", json.dumps(config), *_native_args(rest)]
    return ServeCommand("vllm", argv, comments, dict(config), native_on)


# --- SGLang -------------------------------------------------------------------------------------------
_SGLANG_KEYS = (
    "speculative_algorithm",
    "speculative_draft_model_path",
    "speculative_num_steps",
    "speculative_eagle_topk",
    "speculative_num_draft_tokens",
)


def _sglang_native(native: Mapping[str, Any]) -> dict[str, JsonValue]:
    return {k.lstrip("-").replace("-", "_"): v for k, v in native.items()}


def sglang_command(
    target: str, drafter: str | None, mtp: bool, tokens: int | None, native: Mapping[str, Any]
) -> ServeCommand:
    nat = _sglang_native(native)
    comments: list[str] = []
    for key in ("speculative_num_steps", "speculative_eagle_topk"):
        if key in nat:
            try:
                parse_whole_number(nat[key], key, minimum=1)
            except SpeculationError as exc:
                raise ServeCommandError(str(exc)) from exc
    if "speculative_num_draft_tokens" in nat:
        _depth(nat["speculative_num_draft_tokens"], "speculative_num_draft_tokens")
    if "speculative_algorithm" in nat:  # explicit native algorithm wins; drafter ignored
        spec = {k: nat[k] for k in _SGLANG_KEYS if k in nat}
        comments.append(
            "explicit speculative_algorithm given: the declared drafter and --draft-tokens are not used"
        )
        native_on = True
    else:
        if not drafter:
            raise ServeCommandError(
                "no drafter to serve with; pass --draft-model-id or a native speculative_algorithm"
            )
        explicit = nat.get("speculative_num_draft_tokens")
        n = _depth(explicit) if explicit is not None else tokens
        n = n if n is not None else SGLANG_DEFAULT_DRAFT_TOKENS
        spec = {
            "speculative_algorithm": "NEXTN" if mtp else "STANDALONE",
            "speculative_draft_model_path": drafter,
            "speculative_num_steps": nat.get("speculative_num_steps", max(1, n - 1)),
            "speculative_eagle_topk": nat.get("speculative_eagle_topk", 1),
            "speculative_num_draft_tokens": n,
        }
        native_on = False
    if spec.get("speculative_algorithm") == "NEXTN":
        comments.insert(0, "Gemma 4 assistant as NEXTN; the founding reference pins sglang==0.5.13.post1")
    rest = {k: v for k, v in nat.items() if k not in _SGLANG_KEYS}
    argv = ["python3", "-m", "sglang.launch_server", "--model-path", target]
    argv += _native_args(spec) + _native_args(rest)
    return ServeCommand("sglang", argv, comments, spec, native_on)


# --- llama-server -------------------------------------------------------------------------------------
#: In-process dotted keys (as the llama.cpp engine takes them) -> llama-server flags.
LLAMA_NATIVE_FLAGS = {
    "speculative.types": "--spec-type",
    "speculative.draft.mparams.path": "--model-draft",
    "speculative.draft.n_max": "--spec-draft-n-max",
    "speculative.draft.n_min": "--spec-draft-n-min",
    "speculative.draft.p_min": "--spec-draft-p-min",
}
_LLAMA_SELECTORS = frozenset({"--spec-type", "--model-draft", "-md", "--spec-draft-model"})


def llama_server_command(
    target: str, drafter: str | None, mtp: bool, tokens: int | None, native: Mapping[str, Any]
) -> ServeCommand:
    flags: dict[str, JsonValue] = {}
    for key, value in native.items():
        flag = LLAMA_NATIVE_FLAGS.get(key, _flag(key))
        if isinstance(value, list):
            value = ",".join(str(v).lower().replace("_", "-") for v in value)
        flags[flag] = value
    if "--spec-draft-n-max" in flags:
        _depth(flags["--spec-draft-n-max"], "speculative.draft.n_max")
    comments: list[str] = []
    if _LLAMA_SELECTORS & set(flags):  # user-driven: drafter and neutral depth not added
        spec = dict(flags)
        comments.append(
            "explicit native speculative settings given: the declared drafter and --draft-tokens are not used"
        )
        native_on = True
    else:
        if not drafter:
            raise ServeCommandError("no drafter to serve with; this spec declares none")
        spec = {"--model-draft": drafter}
        if mtp:
            spec["--spec-type"] = "draft-mtp"
        if tokens is not None:
            spec["--spec-draft-n-max"] = tokens
        spec.update(flags)
        native_on = False
    if spec.get("--spec-type") == "draft-mtp" or "draft-mtp" in str(spec.get("--spec-type", "")):
        comments.insert(
            0, "needs a llama.cpp build whose `llama-server --help` lists draft-mtp under --spec-type"
        )
    argv = ["llama-server", "-m", target]
    for flag, value in spec.items():
        argv.append(flag)
        if value is not True:
            argv.append(str(value))
    return ServeCommand(
        "llama-server", argv, comments, {k.lstrip("-"): v for k, v in spec.items()}, native_on
    )


# --- from the registry --------------------------------------------------------------------------------
def _gguf_files(
    family: Family, spec: GGUFSpec, quant: str, draft_quant: str | None, hub: str
) -> tuple[str, str | None, list[str]]:
    """(target path, drafter path, comments) for llama-server from a GGUF spec's declaration."""
    local = spec.sources.local
    if hub == "local" or (local is not None and not spec.sources.hubs()):
        if local is None:
            raise ServeCommandError(f"{family.name} {spec.size_label} has no local source")
        from app.core import assets

        def real(path: str) -> str:
            if assets.is_embedded(path):
                if assets.needs_preparation(path):
                    raise ServeCommandError(
                        f"{path} is not prepared yet; run `tandem generate {family.name}` once, then retry"
                    )
                return str(assets.resolve(path))
            return path

        target = real(format_template(local.path, "sources.local.path", quantization=quant))
        drafter = None
        if local.draft_path:
            ldq = draft_quant or next(iter(local.draft_quantizations or []), None)
            values = {"draft_quantization": ldq} if ldq else {}
            drafter = real(format_template(local.draft_path, "sources.local.draft_path", **values))
        return target, drafter, []
    src = spec.source(hub)
    if draft_quant and src.draft_quantizations and draft_quant not in src.draft_quantizations:
        raise ServeCommandError(
            f"drafter quantization {draft_quant!r} is not declared; available: {src.draft_quantizations}"
        )
    # the repository's own names where a listing fetched earlier knows them; else the registry's
    # patterns, fetched with --include and expanded by the shell once downloaded
    try:
        plan = listing.resolve_plan_offline(make_plan(family, spec, "target", quant, hub))
        dplan = (
            listing.resolve_plan_offline(make_plan(family, spec, "drafter", quant, hub, draft_quant))
            if src.declares_drafter and src.draft_model_file_name_template
            else None
        )
    except ValueError as exc:
        raise ServeCommandError(str(exc)) from None
    folder = src.model_id.split("/")[-1]

    def fetch(repo: str, names: tuple[str, ...], into: str) -> str:
        literal = [n for n in names if not listing.is_pattern(n)]
        include = "".join(f' --include "{n}"' for n in names if listing.is_pattern(n))
        return f"hf download {repo} {' '.join(literal)}{include} --local-dir {into}".replace("  ", " ")

    def path(into: str, name: str) -> str:
        return str(PurePosixPath(into) / name)

    files = plan.files
    if dplan is None:
        return path(folder, files[0]), None, [f"download first: {fetch(src.model_id, files, folder)}"]
    dfolder = folder if dplan.repo_id == plan.repo_id else dplan.repo_id.split("/")[-1]
    if dfolder == folder:
        downloads = [fetch(src.model_id, (*files, *dplan.files), folder)]
    else:
        downloads = [fetch(src.model_id, files, folder), fetch(dplan.repo_id, dplan.files, dfolder)]
    comments = [f"download first: {d}" for d in downloads]
    if any(listing.is_pattern(n) for n in (files[0], dplan.files[0])):
        comments.append(
            "file names are patterns until the download: the shell expands them to the files fetched"
        )
    return path(folder, files[0]), path(dfolder, dplan.files[0]), comments


def build(
    registry: Registry,
    name: str,
    engine: str,
    *,
    size: str | None = None,
    quant: str | None = None,
    fmt: str | None = None,
    draft_quant: str | None = None,
    draft_tokens: object = None,
    native: Mapping[str, Any] | str | None = None,
    model_id: str | None = None,
    draft_model_id: str | None = None,
    hub: str | None = None,
) -> ServeCommand:
    """The serve command for ``name`` on ``engine``; :class:`ServeCommandError` says why not."""
    if engine in REFUSED_ENGINES:
        raise ServeCommandError(f"{engine}: {REFUSED_ENGINES[engine]}")
    if engine not in SERVER_ENGINES:
        raise ServeCommandError(
            f"unknown server engine {engine!r}; choose one of {', '.join(SERVER_ENGINES)}"
        )
    tokens = _depth(draft_tokens)
    if isinstance(native, str):
        try:
            native = json.loads(native) if native.strip() else {}
        except ValueError as exc:
            raise ServeCommandError(f"--native: not valid JSON ({exc})") from None
    if native is not None and not isinstance(native, Mapping):
        raise ServeCommandError("--native: expected a JSON object of server options")
    nat: Mapping[str, Any] = native or {}

    if engine == "llama-server":
        if model_id or draft_model_id:
            raise ServeCommandError(
                "--model-id/--draft-model-id are for vllm and sglang; llama-server uses GGUF files"
            )
        family, spec, q = registry.match(name, fmt or "gguf", size, quant)
        if not isinstance(spec, GGUFSpec):
            raise ServeCommandError("llama-server runs GGUF files; this spec is not GGUF")
        hubs: list[str] = [*spec.sources.hubs(), "local"]
        chosen_hub = hub or hubs[0]
        if not nat and not spec.declares_drafter(chosen_hub if chosen_hub != "local" else None):
            raise ServeCommandError(f"{family.name} gguf {spec.size_label} declares no drafter")
        target, drafter, comments = _gguf_files(family, spec, q, draft_quant, chosen_hub)
        n = tokens if tokens is not None else default_tokens(engine, family, spec.size_in_billions)
        cmd = llama_server_command(target, drafter, is_gemma4_assistant(family), n, nat)
        return ServeCommand(cmd.engine, cmd.argv, comments + cmd.comments, cmd.speculative, cmd.native)

    # vLLM / SGLang: Hugging Face checkpoints, not the registry's GGUF/MLX files
    if quant:
        raise ServeCommandError(
            f"--quant selects GGUF/MLX files; {engine} serves the original checkpoint (drop --quant, "
            "or pass the repo of a quantized checkpoint with --model-id)"
        )
    family, spec, _q = registry.match(name, fmt, size, None)
    target, drafter = _safetensors(family, spec, model_id, draft_model_id)
    n = tokens if tokens is not None else default_tokens(engine, family, spec.size_in_billions)
    mtp = is_gemma4_assistant(family) and not draft_model_id
    if engine == "vllm":
        return vllm_command(target, drafter, mtp, n, nat)
    return sglang_command(target, drafter, mtp, n, nat)


def _safetensors(
    family: Family, spec: AnySpec, model_id: str | None, draft_model_id: str | None
) -> tuple[str, str | None]:
    known = SAFETENSORS_CHECKPOINTS.get((family.name, spec.size_in_billions))
    target = model_id or (known[0] if known else None)
    drafter = draft_model_id or (known[1] if known and not model_id else None)
    if target is None:
        raise ServeCommandError(
            f"{family.name} {spec.size_label}: the registry declares GGUF/MLX files only and no Hugging Face "
            "safetensors checkpoint for vLLM/SGLang; pass --model-id ORG/NAME (and --draft-model-id ORG/NAME)"
        )
    return target, drafter
