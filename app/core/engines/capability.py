"""Which engine can run which spec, with or without a drafter, and why not.

The launch dialog and the CLI both gate on :func:`drafter_support`, so an unsupported pair is
rejected before anything is downloaded or loaded.
"""

from __future__ import annotations

import importlib
import importlib.metadata
from dataclasses import dataclass
from functools import cache

from app.core.registry import AnySpec, Family
from app.core.speculative import DRAFTER_METHODS
from app.core.speculative.options import (
    NGRAM_METHODS,
    SUFFIX_METHODS,
    chain_problem,
    drafter_part,
    method_parts,
)


def _version_tuple(text: str) -> tuple[int, ...]:
    out: list[int] = []
    for part in text.replace("-", ".").split("."):
        digits = "".join(ch for ch in part if ch.isdigit())
        if not digits:
            break
        out.append(int(digits))
        if not part.isdigit():
            break
    return tuple(out)


def version_at_least(installed: str, minimum: str) -> bool:
    return _version_tuple(installed) >= _version_tuple(minimum)


@dataclass(frozen=True)
class EngineInfo:
    name: str
    label: str
    formats: frozenset[str]
    distribution: str
    module: str
    min_version: str
    drafter_methods: frozenset[str]
    model_free_methods: frozenset[str]
    #: (method, minimum version) where a method needs more than ``min_version``
    method_min_versions: tuple[tuple[str, str], ...] = ()
    #: (method, distribution, module, minimum version) for methods served by another package
    method_packages: tuple[tuple[str, str, str, str], ...] = ()
    #: whether the engine honours a CPU thread count (MLX computes on the GPU through Metal)
    uses_thread_count: bool = True
    #: runs a drafter method and a model-free one together (``mtp+ngram-mod``)
    chains: bool = False
    #: runs a target's own MTP heads (GGUF ``<arch>.nextn_predict_layers``) with no drafter file
    builtin_mtp: bool = False


LLAMACPP = EngineInfo(
    name="llama.cpp",
    label="llama.cpp (xllamacpp)",
    formats=frozenset({"gguf"}),
    distribution="xllamacpp",
    module="xllamacpp",
    min_version="2026.6.9713",
    drafter_methods=frozenset({"draft", "mtp", "eagle3", "dflash"}),
    model_free_methods=frozenset(NGRAM_METHODS),
    # eagle3 / dflash: the release they were tested with (tests/integration/test_methods_llamacpp.py),
    # not a known first release; an older build without the type is refused by translate.apply
    method_min_versions=(("mtp", "2026.6.9713"), ("eagle3", "2026.10"), ("dflash", "2026.10")),
    chains=True,
    builtin_mtp=True,
)
MLX = EngineInfo(
    name="mlx",
    label="Apple MLX (mlx-vlm)",
    formats=frozenset({"mlx"}),
    distribution="mlx-vlm",
    module="mlx_vlm",
    min_version="0.5.0",
    drafter_methods=frozenset({"mtp", "eagle3", "dflash", "draft"}),
    # suffix decoding and prompt lookup run in Tandem's own decode loop, through mlx-lm
    # for text models and mlx-vlm for multimodal ones
    model_free_methods=frozenset(SUFFIX_METHODS),
    # classic same-vocabulary draft models run through mlx-lm, not mlx-vlm
    method_packages=(("draft", "mlx-lm", "mlx_lm", "0.25"),),
    uses_thread_count=False,
)
ENGINES: dict[str, EngineInfo] = {e.name: e for e in (LLAMACPP, MLX)}


@dataclass(frozen=True)
class Availability:
    ok: bool
    version: str | None
    reason: str = ""


@cache
def engine_availability(name: str) -> Availability:
    info = ENGINES.get(name)
    if info is None:
        return Availability(False, None, f"unknown engine {name!r}; known: {', '.join(ENGINES)}")
    problem = package_problem(info.distribution, info.module, info.min_version)
    return Availability(not problem, _installed_version(info.distribution), problem)


def _installed_version(distribution: str) -> str | None:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


@cache
def package_problem(distribution: str, module: str, minimum: str) -> str:
    """'' when ``distribution`` >= ``minimum`` is installed and importable, else why not."""
    version = _installed_version(distribution)
    if version is None:
        return f"{distribution} is not installed"
    if not version_at_least(version, minimum):
        return f"{distribution} {version} is older than {minimum}"
    try:
        importlib.import_module(module)
    except Exception as exc:  # a broken native library must not break the app
        return f"{module} failed to import: {exc}"
    return ""


def engines_for_spec(spec: AnySpec) -> list[str]:
    """Engines able to run this spec's format (installed or not)."""
    return [e.name for e in ENGINES.values() if spec.format in e.formats]


def drafter_method_for(family: Family, spec: AnySpec, engine: str) -> str:
    """The method a declared drafter runs with on ``engine``: what the spec declares, else told
    from the family (a Gemma 4 drafter is its assistant)."""
    declared = spec.draft_method()
    if declared:
        return declared
    gemma4 = family.name == "gemma-4" or any(a.startswith("Gemma4") for a in family.architectures)
    if engine == "llama.cpp":
        return "mtp" if gemma4 else "draft"
    return "mtp" if gemma4 else "draft"


@dataclass(frozen=True)
class Support:
    ok: bool
    reason: str = ""
    method: str | None = None


def drafter_support(family: Family, spec: AnySpec, engine: str, method: str | None = None) -> Support:
    """Can ``engine`` run speculation with ``method`` (default: the spec's declared drafter)?"""
    info = ENGINES.get(engine)
    if info is None:
        return Support(False, f"unknown engine {engine!r}")
    if spec.format not in info.formats:
        return Support(False, f"{info.label} does not run {spec.format} models")
    parts = method_parts(method) if method else ()
    if len(parts) > 1:
        if not info.chains:
            return Support(False, f"{info.label} does not run method chains such as {method!r}")
        problem = chain_problem(method or "")
        if problem:
            return Support(False, problem)
        free = next(p for p in parts if p not in DRAFTER_METHODS)
        if free not in info.model_free_methods:
            return Support(False, f"{info.label} does not offer the model-free method {free!r}")
    drafter = drafter_part(method) if method else None
    builtin = bool(getattr(spec, "builtin_mtp", False)) and info.builtin_mtp and not spec.declares_drafter()
    if method is None or drafter is not None:
        if builtin and (drafter or "mtp") == "mtp":
            chosen = "mtp"  # the target's own heads: no drafter file
        elif not spec.declares_drafter():
            return Support(False, f"{family.name} {spec.format} {spec.size_label} declares no drafter")
        elif drafter is None or (drafter == "draft" and len(parts) > 1):  # "draft": the family's kind
            chosen = drafter_method_for(family, spec, engine)
        else:
            chosen = drafter
    else:
        chosen = method
        if chosen not in info.model_free_methods:
            return Support(False, f"{info.label} does not offer the model-free method {chosen!r}")
    if chosen in DRAFTER_METHODS and chosen not in info.drafter_methods:
        return Support(False, f"{info.label} cannot run a {chosen!r} drafter")
    if len(parts) > 1:
        chosen = "+".join(chosen if p in DRAFTER_METHODS else p for p in parts)
    avail = engine_availability(engine)
    if not avail.ok:
        return Support(False, f"{info.label} is unavailable: {avail.reason}", chosen)
    for m, minimum in info.method_min_versions:
        if m in method_parts(chosen) and avail.version and not version_at_least(avail.version, minimum):
            return Support(
                False,
                f"{chosen!r} needs {info.distribution} >= {minimum} (installed {avail.version})",
                chosen,
            )
    for m, dist, module, minimum in info.method_packages:
        if m in method_parts(chosen):
            problem = package_problem(dist, module, minimum)
            if problem:
                return Support(False, f"{info.label} needs {dist} for {chosen!r} drafters: {problem}", chosen)
    return Support(True, "", chosen)


def model_free_methods(engine: str) -> list[str]:
    info = ENGINES.get(engine)
    return sorted(info.model_free_methods) if info else []


# --- llama.cpp combinations that abort the process ---------------------------------------------
# A GGML_ASSERT or a segfault inside llama.cpp ends the whole process (exit 134 / 139): Python
# cannot catch it and the app would vanish without a word. Every combination seen to do that is
# listed here and refused before the engine is built. Each row names what llama.cpp
# printed and the xllamacpp version it was seen with; drop a row only after checking again.

#: drafter classes, from the drafter's ``general.architecture``
ASSISTANT_ARCHES = frozenset({"gemma4-assistant", "gemma4_assistant"})


@dataclass(frozen=True)
class GGUFFacts:
    """What the abort table needs to know about a GGUF file (from its header)."""

    architecture: str
    embedding_length: int | None = None
    #: assistants only: the width of the target hidden state they read
    embedding_length_out: int | None = None
    #: EAGLE-3 drafters: the width of the target hidden state they read (``eagle3.target_hidden_size``)
    target_hidden_size: int | None = None

    @property
    def is_assistant(self) -> bool:
        return self.architecture in ASSISTANT_ARCHES

    @property
    def reads_width(self) -> int | None:
        """The width of the target hidden state this drafter reads (None: it reads none)."""
        if self.is_assistant:
            return self.embedding_length_out
        if self.architecture == "eagle3":
            return self.target_hidden_size
        if self.architecture == "dflash":  # DFlash reads target states as wide as its own
            return self.embedding_length
        return None


@dataclass(frozen=True)
class KnownAbort:
    #: the ``common_speculative_type`` suffix that aborts when it is among the configured types
    speculative_type: str
    #: "assistant" (a Gemma 4 assistant drafter), "not-dflash" (any drafter but a DFlash one) or
    #: "eagle3-or-dflash" (a drafter reading several target layers)
    drafter: str
    #: "any", "not-gemma4" (a target of another architecture) or "other-width" (a target whose
    #: hidden size differs from the width the drafter reads)
    target: str
    llama_message: str
    seen_with: str
    advice: str


LLAMACPP_ABORTS: tuple[KnownAbort, ...] = (
    KnownAbort(
        "DRAFT_SIMPLE", "assistant", "any",
        'llama-graph.cpp:155: GGML_ASSERT(ubatch->embd_state && "this graph requires a state embedding, '
        'see llama_batch_ext_set_embd_state()") failed (exit 134 while the Server is built; with '
        "DRAFT_MTP listed too the first request fails: 'decode() failed: failed to process speculative "
        "batch')",
        "xllamacpp 2026.10.11549",
        "a Gemma 4 assistant drafter runs with DRAFT_MTP (method mtp) only",
    ),
    KnownAbort(
        "DRAFT_EAGLE3", "assistant", "any",
        'llama-graph.cpp:155: GGML_ASSERT(ubatch->embd_state && "this graph requires a state embedding, '
        'see llama_batch_ext_set_embd_state()") failed (exit 134)',
        "xllamacpp 2026.10.11549",
        "a Gemma 4 assistant drafter runs with DRAFT_MTP (method mtp) only",
    ),
    KnownAbort(
        "DRAFT_DFLASH", "not-dflash", "any",
        'speculative.cpp:1033: GGML_ASSERT(target_layer_ids_n > 0 && "DFlash model has no '
        'target_layer_ids") failed (exit 134, with a Gemma 4 assistant and with a plain drafter alike)',
        "xllamacpp 2026.10.11549",
        "DRAFT_DFLASH needs a DFlash drafter",
    ),
    KnownAbort(
        "DRAFT_MTP", "assistant", "not-gemma4",
        "segmentation fault, no message (exit 139; a SmolLM2 llama target with the Gemma 4 assistant)",
        "xllamacpp 2026.10.11549",
        "a Gemma 4 assistant drafts only for a Gemma 4 target",
    ),
    KnownAbort(
        "DRAFT_MTP", "assistant", "other-width",
        "ggml.c:3355: GGML_ASSERT(ggml_can_mul_mat(a, b)) failed (exit 134; a 256-wide gemma4 target "
        "with an assistant made for a 128-wide one)",
        "xllamacpp 2026.10.11549",
        "an assistant drafts only for the model size it was made for",
    ),
    # llama.cpp runs an EAGLE-3 or DFlash drafter by its architecture even under DRAFT_SIMPLE, so
    # both types abort alike (probed with scripts/make_tiny_drafters.py and a 576-wide SmolLM2 target)
    KnownAbort(
        "DRAFT_EAGLE3", "eagle3-or-dflash", "other-width",
        "ggml.c:2274: GGML_ASSERT(ggml_can_repeat(b, a)) failed (exit 134; a 576-wide SmolLM2 target with "
        "a 128-wide EAGLE-3 drafter)",
        "xllamacpp 2026.10.11549",
        "an EAGLE-3 or DFlash drafter drafts only for the model it was made for",
    ),
    KnownAbort(
        "DRAFT_DFLASH", "eagle3-or-dflash", "other-width",
        "ggml.c:2274: GGML_ASSERT(ggml_can_repeat(b, a)) failed (exit 134; a 576-wide SmolLM2 target with "
        "a 128-wide DFlash drafter)",
        "xllamacpp 2026.10.11549",
        "an EAGLE-3 or DFlash drafter drafts only for the model it was made for",
    ),
    KnownAbort(
        "DRAFT_SIMPLE", "eagle3-or-dflash", "other-width",
        "ggml.c:2274: GGML_ASSERT(ggml_can_repeat(b, a)) failed (exit 134; llama.cpp runs the EAGLE-3 "
        "or DFlash drafter by its architecture)",
        "xllamacpp 2026.10.11549",
        "an EAGLE-3 or DFlash drafter drafts only for the model it was made for",
    ),
)  # fmt: skip


def _drafter_matches(kind: str, drafter: GGUFFacts) -> bool:
    if kind == "assistant":
        return drafter.is_assistant
    if kind == "not-dflash":
        return drafter.architecture != "dflash"
    if kind == "eagle3-or-dflash":
        return drafter.architecture in ("eagle3", "dflash")
    raise ValueError(f"unknown drafter class {kind!r} in LLAMACPP_ABORTS")


def _target_matches(kind: str, target: GGUFFacts, drafter: GGUFFacts) -> bool:
    if kind == "any":
        return True
    if kind == "not-gemma4":
        return target.architecture != "gemma4"
    if kind == "other-width":
        reads = drafter.reads_width
        return (
            (target.architecture == "gemma4" or not drafter.is_assistant)
            and reads is not None
            and target.embedding_length is not None
            and reads != target.embedding_length
        )
    raise ValueError(f"unknown target class {kind!r} in LLAMACPP_ABORTS")


def llamacpp_abort(
    types: list[str] | tuple[str, ...], target: GGUFFacts, drafter: GGUFFacts | None
) -> KnownAbort | None:
    """The table row this configuration would hit (llama.cpp would end the process), or None."""
    if drafter is None:
        return None
    for row in LLAMACPP_ABORTS:
        if (
            row.speculative_type in types
            and _drafter_matches(row.drafter, drafter)
            and _target_matches(row.target, target, drafter)
        ):
            return row
    return None


# --- speculation with a vision projector ----------------------------------------------
# Which speculation methods of llama.cpp still run, and give the target's own tokens, once the
# target is loaded with an mmproj and the prompt carries images. Each combination was run in a
# child process of its own (scripts/probe_vision_speculation.py: the tiny Gemma 4 target with its
# gemma4v projector, or the tiny llama target for EAGLE-3 / DFlash, which read llama states; one
# text prompt and two image prompts, greedy, token ids compared with the same load without
# speculation). Re-run the probe when xllamacpp moves and update the rows.

#: the xllamacpp release the rows below were measured with
VISION_PROBED_WITH = "2026.10.11549"


@dataclass(frozen=True)
class VisionFinding:
    #: Tandem's method name (``draft``, ``mtp``, ``ngram-mod``, ...)
    method: str
    #: True: runs with images and gave the target's own tokens; False: refused at load
    works: bool
    #: what the probe saw
    evidence: str
    #: what to do instead (refused rows only)
    advice: str = ""


LLAMACPP_VISION: tuple[VisionFinding, ...] = (
    VisionFinding(
        "mtp", True,
        "Gemma 4 assistant (DRAFT_MTP): token-identical on 1 text + 2 image prompts; random pair 0/111 "
        "accepted, forced-acceptance pair 29/29 accepted on each prompt",
    ),
    VisionFinding(
        "draft", True,
        "same-vocabulary draft model (DRAFT_SIMPLE): token-identical; a random drafter 0/111 accepted, "
        "the target as its own drafter 21/51 and 15/67 on the image prompts",
    ),
    VisionFinding(
        "dflash", True,
        "DFlash drafter (DRAFT_DFLASH) on its llama target: token-identical on 1 text + 2 image prompts "
        "(108-111 drafted each, 0-1 accepted: random weights)",
    ),
    VisionFinding(
        "eagle3", False,
        "with an EAGLE-3 drafter llama.cpp answers text prompts but fails every image prompt "
        "('decode() failed: failed to process speculative batch', HTTP 500)",
        "use mtp, draft, dflash or an ngram method with images, or load without the projector",
    ),
    VisionFinding(
        "ngram-simple", True,
        "NGRAM_SIMPLE: loads and answers image prompts token-identically, but drafted nothing in the "
        "probe (nor without the projector)",
    ),
    VisionFinding(
        "ngram-map-k", True,
        "NGRAM_MAP_K: token-identical; 24/24 accepted on each prompt with a repeating target",
    ),
    VisionFinding(
        "ngram-map-k4v", True,
        "NGRAM_MAP_K4V: token-identical; 24/24 accepted on each prompt with a repeating target",
    ),
    VisionFinding(
        "ngram-mod", True,
        "NGRAM_MOD: token-identical; 22/22 accepted on each image prompt with a repeating target; "
        "chained as mtp+ngram-mod too",
    ),
    VisionFinding("ngram-cache", True, "NGRAM_CACHE: token-identical (0/8 accepted on an image prompt)"),
)  # fmt: skip


def vision_findings(version: str | None = None) -> dict[str, VisionFinding]:
    """The probe's rows by method. ``version`` is the installed xllamacpp (None: look it up); rows
    measured with another release are still the best knowledge there is, and say so in
    :func:`vision_methods`."""
    del version  # one probed release so far; later ones add their own table here
    return {f.method: f for f in LLAMACPP_VISION}


def vision_methods(version: str | None = None) -> dict[str, str | None]:
    """Each llama.cpp speculation method -> None when it runs with a vision projector loaded, else
    the one-line reason it is refused (for the launch dialog and ``tandem drafters``).

    Chains (``mtp+ngram-mod``) run when each part does. A method the probe never saw (a newer
    llama.cpp type) is refused until it is probed.
    """
    installed = version if version is not None else _installed_version("xllamacpp")
    found = vision_findings(installed)
    note = ""
    if installed and installed != VISION_PROBED_WITH:
        note = f" (probed with xllamacpp {VISION_PROBED_WITH}, installed {installed})"
    out: dict[str, str | None] = {}
    for method in sorted(LLAMACPP.drafter_methods | LLAMACPP.model_free_methods):
        row = found.get(method)
        if row is None:
            out[method] = f"not probed with a vision projector yet; load without it to use {method}{note}"
        elif row.works:
            out[method] = None
        else:
            out[method] = f"{row.evidence}; {row.advice}{note}"
    return out


def vision_problem(method: str, version: str | None = None) -> str | None:
    """Why ``method`` (a chain like ``mtp+ngram-mod`` too) cannot run with a vision projector, or None."""
    table = vision_methods(version)
    for part in method_parts(method):
        reason = table.get(part, "not a llama.cpp speculation method")
        if reason:
            return reason
    return None


def vision_summary(version: str | None = None) -> str:
    """One short line: which llama.cpp methods run with a vision projector loaded, which do not."""
    table = vision_methods(version)
    works = [m for m, reason in table.items() if reason is None]
    refused = [m for m, reason in table.items() if reason is not None]
    ngram = sorted(m for m in NGRAM_METHODS if m in table)
    shown = [m for m in works if m not in ngram]
    if ngram and all(m in works for m in ngram):
        shown.append("ngram-*")
    else:
        shown += [m for m in works if m in ngram]
    line = "with a vision projector (mmproj): " + (", ".join(shown) or "no method") + " run"
    if refused:
        line += f"; {', '.join(refused)} refused (fails on image prompts)"
    return line
