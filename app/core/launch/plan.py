"""From "this spec, this quantization, these options" to a LoadRequest, checked before any I/O.

The CLI and the launch dialog share this path (one launch path): both describe what the
user chose as a :class:`LaunchChoice` and turn it into a :class:`LaunchPlan` with
:func:`plan_launch`, which judges the engine/drafter pair by the capability table first (so an
unsupported combination is refused before anything is downloaded or loaded), resolves target and
drafter files through the caller's resolver, and applies the one context rule
(:func:`fit_context`).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from app.core import limits
from app.core.cache import projector_on_disk
from app.core.catalog import fit
from app.core.catalog.fit import MIN_AUTO_CONTEXT, fitted_context
from app.core.engines.base import Engine, EngineUnavailable, LoadRequest, Sampling
from app.core.engines.capability import (
    ENGINES,
    drafter_support,
    engine_availability,
    engines_for_spec,
    vision_problem,
)
from app.core.launch import auto
from app.core.registry import AnySpec, Family, GGUFSpec, reads_images
from app.core.speculative import SpeculationError, SpeculationOptions
from app.core.speculative.detect import auto_drafter_method
from app.core.speculative.options import default_tokens, drafter_part

if TYPE_CHECKING:
    from app.core.engines.remote.endpoints import Endpoint

DEFAULT_MODEL = ("smollm2-135m-instruct", "gguf", "0.135", "Q4_1")


class LaunchError(ValueError):
    """The requested launch cannot work; the message says why and what to do."""


@dataclass(frozen=True)
class LaunchPlan:
    """What a launch loads: the engine and its request (files resolved, options checked)."""

    engine: str
    request: LoadRequest
    draft_quantization: str | None
    #: the launch loads what its model needs to see images (:func:`launch_reads_images`)
    reads_images: bool = False
    #: one line about the launch the user should read, e.g. a declared projector not downloaded
    #: (so this launch reads text only); "" when there is nothing to say
    notice: str = ""


@dataclass(frozen=True)
class RemoteTarget:
    """Where a remote launch connects: the endpoint, the server's model id ('' = the
    only one it serves) and a key typed for this session (None: the endpoint's keyring entry).
    The key is never stored in the settings or the launch record."""

    endpoint: Endpoint
    model: str = ""
    api_key: str | None = field(default=None, repr=False)

    @property
    def label(self) -> str:
        """What the chat and the status bar call this launch: "model @ host"."""
        return f"{self.model} @ {self.endpoint.host}" if self.model else self.endpoint.host


@dataclass
class LaunchChoice:
    """What the user chose, in the launch dialog or on the command line (no paths resolved)."""

    family: Family
    spec: AnySpec
    quantization: str
    engine: str
    speculation: SpeculationOptions
    n_ctx: int
    threads: int | None
    sampling: Sampling = field(default_factory=Sampling)
    #: (role, quantization) pairs not downloaded yet; the GUI queues them before loading.
    downloads: list[tuple[str, str | None]] = field(default_factory=list)
    #: Auto: the speculation is the stored calibration's choice, else its prior;
    #: ``speculation`` then only says which drafter Auto may try (``draft_quantization`` of the
    #: declared drafter, or ``draft_model_path`` of a found one) and is otherwise off.
    auto: bool = False
    #: Auto may try the declared drafter (it is on disk); a found drafter's path counts on its own.
    auto_drafter: bool = False
    #: engine "remote": the server to chat through (its own launch settings decide speculation)
    remote: RemoteTarget | None = None


Role = Literal["target", "drafter"]
#: (family, spec, role, quantization, drafter quantization) -> the file or folder an engine loads
Resolver = Callable[[Family, AnySpec, Role, str, "str | None"], Path]
#: (family, spec, target quantization) -> the target's vision projector on disk, or None
ProjectorLookup = Callable[[Family, AnySpec, str], "Path | None"]
#: the engines that load a GGUF target's projector (``LoadRequest.mmproj_path``)
PROJECTOR_ENGINES = frozenset({"llama.cpp"})


def launch_reads_images(family: Family, spec: AnySpec, engine: str, request: LoadRequest) -> bool:
    """Whether a launch loads what its model needs to read images, for the GUI to say.

    llama.cpp: the request carries the target's projector (``mmproj_path``). MLX: the spec reads
    images by the registry's rule (:func:`app.core.registry.reads_images`: the vision tower is in
    the checkpoint). A remote server's model is its own business (False here). The loaded
    engine's ``supports_images`` stays the final word for a message with images.
    """
    if engine in PROJECTOR_ENGINES:
        return request.mmproj_path is not None
    if engine == "mlx":
        return reads_images(family, spec)
    return False


def vision_method(method: str, drafter: str | None) -> str:
    """The method a llama.cpp launch runs, for the images check: a classic ``draft`` whose file
    is an EAGLE-3 or DFlash drafter runs as that (the drafter's architecture says)."""
    if drafter and method.split("+")[0] == "draft":
        found = auto_drafter_method(None, drafter, None)
        if found and found != "draft":
            return method.replace("draft", found, 1)
    return method


def projector_path(
    family: Family, spec: AnySpec, quantization: str | None, lookup: ProjectorLookup | None = None
) -> Path | None:
    """The target's vision projector file on this machine: the local source's (when it exists),
    else the one fetched with this target quantization (``lookup``, default the cache's); None
    when there is none."""
    local = spec.local_projector if isinstance(spec, GGUFSpec) else None
    if local:
        path = Path(local).expanduser()
        return path if path.is_file() else None
    if quantization is None:
        return None
    return (lookup or projector_on_disk)(family, spec, quantization)


def projector_for(
    family: Family, spec: AnySpec, quantization: str, engine: str, lookup: ProjectorLookup | None = None
) -> tuple[str | None, str]:
    """(projector path, notice) of a launch: the path when the spec declares a projector, the
    engine loads one and it is on disk; otherwise None, with one line when it is declared but
    not downloaded (the launch then reads text only; downloading the target fetches it)."""
    local = spec.local_projector if isinstance(spec, GGUFSpec) else None
    if engine not in PROJECTOR_ENGINES or not (local or spec.declares_projector()):
        return None, ""
    found = projector_path(family, spec, quantization, lookup)
    if found is not None:
        return str(found), ""
    if local:  # a file on this machine, not a download
        return None, (
            f"the image projector {Path(local).expanduser()} of {family.name} {spec.size_label} is not "
            "there; this launch reads text only (fix sources.local.mmproj_path to send images)"
        )
    fmt, size = spec.format, spec.size_label
    command = f"tandem download {family.name} --format {fmt} --size {size} --quant {quantization}"
    return None, (
        f"the image projector (mmproj) of {family.name} {spec.size_text} is not downloaded, so this "
        f"launch reads text only; downloading the model again fetches it ({command})"
    )


def fit_context(n_ctx: int, family: Family) -> int:
    """The one context rule: what was asked, capped at the family's context length."""
    return min(n_ctx, family.context_length) if family.context_length > 0 else n_ctx


def auto_context(engine: str, family: Family | None, target: Path, drafter: str | None) -> tuple[int, str]:
    """The context of a launch that asked for none (``n_ctx`` 0): for llama.cpp the model's trained
    length where the memory estimate allows (:func:`~app.core.catalog.fit.fitted_context`), for
    other engines the family's context length, or :data:`~app.core.catalog.fit.MIN_AUTO_CONTEXT`."""
    if engine == "llama.cpp" and target.is_file():
        ctx, note = fitted_context(target, Path(drafter) if drafter else None)
        return (fit_context(ctx, family) if family is not None else ctx), note
    if family is not None and family.context_length > 0:
        return family.context_length, ""
    return MIN_AUTO_CONTEXT, ""


def plan_launch(
    choice: LaunchChoice, resolve: Resolver, projector: ProjectorLookup | None = None
) -> LaunchPlan:
    """The load request for ``choice``, for the CLI and the GUI alike.

    Refuses an unsupported engine/drafter pair before any file is resolved; ``resolve`` may block
    (cache lookups, embedded files prepared once), so the GUI calls this on its engine thread.
    A vision target's projector comes from ``projector`` (default: the cache,
    :func:`app.core.cache.projector_on_disk`); a declared one not downloaded is said in
    ``notice`` and the launch reads text only.
    """
    if choice.engine == "remote":
        return plan_remote(choice)
    family, spec, quant = choice.family, choice.spec, choice.quantization
    options = check_speculation(family, spec, choice.engine, choice.speculation)
    target = resolve(family, spec, "target", quant, None)
    builtin = spec.builtin_mtp and not spec.declares_drafter()  # the target's own MTP heads
    if options.needs_drafter and not options.draft_model_path and not builtin:
        drafter = resolve(family, spec, "drafter", quant, options.draft_quantization)
        options = options.with_drafter(str(drafter))
    mmproj, notice = projector_for(family, spec, quant, choice.engine, projector)
    if mmproj is not None and choice.engine == "llama.cpp" and options.enabled:
        method = vision_method(options.method, options.draft_model_path)
        reason = vision_problem(method)
        if reason:  # that method or the images: the method was chosen, so the launch reads text
            mmproj = None
            notice = (
                f"{method} cannot run with images on this llama.cpp ({reason}); this launch reads "
                "text only (choose another speculation method to send images)"
            )
    n_ctx = fit_context(choice.n_ctx, family)
    if n_ctx <= 0:
        n_ctx, ctx_note = auto_context(choice.engine, family, Path(target), options.draft_model_path)
        notice = "; ".join(n for n in (notice, ctx_note) if n)
    request = LoadRequest(
        model_path=str(target),
        speculation=options,
        n_ctx=n_ctx,
        n_threads=choice.threads,
        chat_template=family.chat_template,
        family_name=family.name,
        size_in_billions=float(spec.size_in_billions),
        mmproj_path=mmproj,
        n_parallel=limits.LLAMACPP_SLOTS if choice.engine == "llama.cpp" else 1,
    )
    return LaunchPlan(
        choice.engine,
        request,
        options.draft_quantization if options.enabled else None,
        reads_images=launch_reads_images(family, spec, choice.engine, request),
        notice=notice,
    )


def plan_remote(choice: LaunchChoice) -> LaunchPlan:
    """The load request of a remote launch: no files, the server's own speculation. Reads the
    endpoint's key from the keyring when none was typed (blocking: the GUI's engine thread)."""
    from app.core.engines.remote.endpoints import get_api_key
    from app.core.engines.remote.engine import RemoteLoadRequest

    target = choice.remote
    if target is None:
        raise LaunchError("a remote launch needs an endpoint URL (the server's OpenAI API root)")
    target.endpoint.check()
    key = target.api_key or get_api_key(target.endpoint.url)
    request = RemoteLoadRequest(
        model_path=target.model,
        n_ctx=choice.n_ctx,
        family_name=choice.family.name,
        endpoint=target.endpoint,
        api_key=key,
    )
    return LaunchPlan("remote", request, None)


@dataclass(frozen=True)
class AutoLaunch:
    """What an Auto launch measures: the engine, the launch without speculation, the drafter Auto
    may try, the calibration key and the candidates (:mod:`app.core.launch.auto`)."""

    engine: str
    base: LoadRequest
    drafter_path: str | None
    drafter_method: str | None
    key: auto.CalibrationKey
    candidates: tuple[auto.Candidate, ...]

    def request(self, chosen: auto.Candidate, result: auto.CalibrationResult | None = None) -> LoadRequest:
        """The load request of Auto's choice (with the thread count the calibration found to pay
        as the most an automatic count may be)."""
        cap = result.threads if result is not None and self.base.n_threads is None else None
        return replace(self.base, speculation=chosen.options(self.drafter_path), max_threads=cap)

    def prior(self, demoted: dict[auto.Candidate, float] | None = None) -> auto.Candidate:
        """What this launch runs before anything is measured here (:func:`auto.prior`)."""
        return auto.prior(self.candidates, tuple(demoted or ()))

    def measuring_bytes(self) -> int:
        """Memory a calibration needs beside the loaded chat: it loads the model twice at once
        (without speculation and with a candidate), the drafter with the candidate, plus a
        quarter for context and runtime. 0 when the files cannot be sized (nothing is refused)."""
        sizes = []
        for path in (self.base.model_path, self.drafter_path):
            if not path:
                sizes.append(0)
                continue
            try:
                sizes.append(os.path.getsize(path))
            except OSError:
                return 0
        model, drafter = sizes
        return int((2 * model + drafter) * 1.25)


#: Seconds per measured step (a load or a 40-token answer) of a model of about 1B parameters on a
#: CPU; Auto's estimate scales it by the model's size (at least a tenth of it).
STEP_SECONDS_PER_B = 8.0


def plan_auto(choice: LaunchChoice, resolve: Resolver) -> AutoLaunch:
    """The Auto launch of ``choice``: blocking (files resolved, stat'ed for the key), so the GUI
    calls it on a worker. A drafter that is the target file itself is not tried (it cannot pay)."""
    if choice.engine == "remote":
        raise LaunchError("Auto measures local engines only; a remote server's speculation is its own")
    off = plan_launch(replace(choice, speculation=SpeculationOptions(), auto=False), resolve)
    family, spec, engine = choice.family, choice.spec, choice.engine
    drafter: str | None = choice.speculation.draft_model_path
    method: str | None = "draft" if drafter else None
    if drafter is None and choice.auto_drafter and spec.declares_drafter():
        support = drafter_support(family, spec, engine, None)
        if support.ok:
            path = resolve(
                family, spec, "drafter", choice.quantization, choice.speculation.draft_quantization
            )
            drafter, method = str(path), support.method or "draft"
    if drafter is not None and Path(drafter).resolve() == Path(off.request.model_path).resolve():
        drafter, method = None, None
    if engine == "llama.cpp":  # the drafter file's own method, or the target's built-in MTP heads
        method = auto_drafter_method(off.request.model_path, drafter, method)
    mtp_depth = None
    if method == "mtp":
        mtp_depth = default_tokens(engine, family.name, spec.size_in_billions, "mtp").value
    cands = auto.candidates(engine, method, auto.auto_model_free(engine), mtp_depth)
    if off.request.mmproj_path:  # only what runs with images
        cands = auto.with_images(engine, cands)
    return AutoLaunch(
        engine=engine,
        base=off.request,
        drafter_path=drafter,
        drafter_method=method,
        key=auto.CalibrationKey.for_launch(engine, off.request, drafter),
        candidates=tuple(cands),
    )


def estimate_calibration_seconds(n_candidates: int, size_in_billions: float) -> int:
    """About how long a calibration of ``n_candidates`` (off included) takes at most: six steps
    each, and as long again to measure ties again (the re-measuring's budget is the first pass's
    time, see :func:`app.core.launch.auto.runner.calibrate`)."""
    steps = max(1, (n_candidates - 1) * 6 + 2)
    return max(1, round(2 * steps * STEP_SECONDS_PER_B * max(0.1, float(size_in_billions))))


def pick_engine(spec: AnySpec, engine: str | None) -> str:
    candidates = engines_for_spec(spec)
    if engine:
        if engine not in ENGINES:
            raise LaunchError(f"unknown engine {engine!r}; choose one of {', '.join(ENGINES)}")
        if engine not in candidates:
            raise LaunchError(f"engine {engine} cannot run {spec.format} models; use {', '.join(candidates)}")
        return engine
    for name in candidates:
        if engine_availability(name).ok:
            return name
    reasons = "; ".join(f"{n}: {engine_availability(n).reason}" for n in candidates)
    raise LaunchError(f"no installed engine can run {spec.format} models ({reasons})")


def check_speculation(
    family: Family, spec: AnySpec, engine: str, options: SpeculationOptions
) -> SpeculationOptions:
    """Refuse an unsupported pair up front; fill in the method for the declared drafter."""
    if not options.enabled:
        return options
    if options.draft_model_path and drafter_part(options.method) is not None:
        return options  # an explicit drafter file: the engine validates the pair at load
    support = drafter_support(family, spec, engine, None if options.method == "draft" else options.method)
    if not support.ok:
        raise LaunchError(f"speculative decoding is not available here: {support.reason}")
    return replace(options, method=support.method or options.method)


def thread_count_notice(engine: str, n_threads: int | None) -> str | None:
    """One line saying a given thread count will not be used, or None when it will (or none was given)."""
    info = ENGINES.get(engine)
    if n_threads is None or info is None or info.uses_thread_count:
        return None
    return f"the thread count ({n_threads}) is ignored by {info.label}: MLX chooses its own CPU threads"


def load_engine(engine: str, req: LoadRequest, progress: Callable[[str], None] | None = None) -> Engine:
    if engine == "llama.cpp":
        from app.core.engines.llamacpp.engine import LlamaCppEngine

        return LlamaCppEngine.load(req, progress)
    if engine == "mlx":
        avail = engine_availability("mlx")
        if not avail.ok:
            raise EngineUnavailable(f"the MLX engine is unavailable: {avail.reason}")
        from app.core.engines.mlx.engine import MLXEngine

        return MLXEngine.load(req, progress)
    if engine == "remote":
        from app.core.engines.remote.engine import RemoteEngine

        return RemoteEngine.load(req, progress)
    raise EngineUnavailable(f"unknown engine {engine!r}")


def make_options(
    *,
    enabled: object = False,
    method: str | None = None,
    draft_quantization: str | None = None,
    num_speculative_tokens: object = None,
    draft_model_path: str | None = None,
    engine_native: dict[str, Any] | None = None,
) -> SpeculationOptions:
    """:meth:`SpeculationOptions.build` with its error turned into a :class:`LaunchError`."""
    try:
        return SpeculationOptions.build(
            enabled=enabled,
            method=method,
            draft_quantization=draft_quantization,
            num_speculative_tokens=num_speculative_tokens,
            draft_model_path=draft_model_path,
            engine_native=engine_native,
        )
    except SpeculationError as exc:
        raise LaunchError(str(exc)) from exc


def memory_of(request: LoadRequest) -> int:
    """The memory a loaded GGUF model takes (the launch dialog's fit estimate at its context, with
    its drafter); 0 when it cannot be told (an MLX folder, an unreadable header)."""
    target = Path(request.model_path)
    drafter = request.speculation.draft_model_path
    try:
        found = fit.estimate_files(target, ctx=request.n_ctx, drafter=Path(drafter) if drafter else None)
    except (OSError, ValueError):
        return 0
    return found.total_bytes or 0
