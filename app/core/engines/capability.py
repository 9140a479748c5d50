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
from app.core.speculative import DRAFTER_METHODS, MODEL_FREE_METHODS


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


LLAMACPP = EngineInfo(
    name="llama.cpp",
    label="llama.cpp (xllamacpp)",
    formats=frozenset({"gguf"}),
    distribution="xllamacpp",
    module="xllamacpp",
    min_version="2026.6.9713",
    drafter_methods=frozenset({"draft", "mtp"}),
    model_free_methods=frozenset(MODEL_FREE_METHODS),
    method_min_versions=(("mtp", "2026.6.9713"),),
)
MLX = EngineInfo(
    name="mlx",
    label="Apple MLX (mlx-vlm)",
    formats=frozenset({"mlx"}),
    distribution="mlx-vlm",
    module="mlx_vlm",
    min_version="0.5.0",
    drafter_methods=frozenset({"mtp", "eagle3", "dflash", "draft"}),
    model_free_methods=frozenset(),
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
    """The method a declared drafter runs with on ``engine``."""
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
    if method is None or method in DRAFTER_METHODS:
        if not spec.declares_drafter():
            return Support(False, f"{family.name} {spec.format} {spec.size_label} declares no drafter")
        chosen = method or drafter_method_for(family, spec, engine)
    else:
        chosen = method
        if chosen not in info.model_free_methods:
            return Support(False, f"{info.label} does not offer the model-free method {chosen!r}")
    if chosen in DRAFTER_METHODS and chosen not in info.drafter_methods:
        return Support(False, f"{info.label} cannot run a {chosen!r} drafter")
    avail = engine_availability(engine)
    if not avail.ok:
        return Support(False, f"{info.label} is unavailable: {avail.reason}", chosen)
    for m, minimum in info.method_min_versions:
        if m == chosen and avail.version and not version_at_least(avail.version, minimum):
            return Support(
                False,
                f"{chosen!r} needs {info.distribution} >= {minimum} (installed {avail.version})",
                chosen,
            )
    for m, dist, module, minimum in info.method_packages:
        if m == chosen:
            problem = package_problem(dist, module, minimum)
            if problem:
                return Support(False, f"{info.label} needs {dist} for {chosen!r} drafters: {problem}", chosen)
    return Support(True, "", chosen)


def model_free_methods(engine: str) -> list[str]:
    info = ENGINES.get(engine)
    return sorted(info.model_free_methods) if info else []
