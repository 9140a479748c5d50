"""The launch dialog's rules without Qt: what is shown, enabled and valid, and why.

The dialog keeps what the user set in ONE :class:`FormValues`: every widget change replaces it
(the speculation switches through :func:`set_auto`, :func:`set_drafter` and
:func:`set_model_free`, which keep the choices exclusive), :meth:`LaunchForm.evaluate` turns it into
a :class:`FormState`, and the dialog renders every widget from that state. The state carries the
launch itself (:attr:`FormState.request`), so what the dialog shows and what it launches come from
the same evaluation and cannot drift; :meth:`LaunchForm.choice` returns that request. Messages are
:class:`Note` codes with parameters, never sentences: the dialog says them in the user's language.

The rules:

- The Speculative Decoding panel is shown only if (the spec declares a drafter OR the
  compatible-drafter finder found one on this computer) AND the chosen engine can run it
  (``capability.drafter_support`` for a declared one, which also asks whether it is installed;
  an installed engine that runs ``draft`` drafters of this format for a found one).
- A GGUF spec that declares no drafter is searched for one once its file is on
  disk and the engine could run a drafter: the dialog runs the finder off the GUI thread and
  hands the candidates back in :attr:`FormValues.found`; only compatible ones are offered, and
  "none found" is a note (with the hint to download a smaller sibling or use a model-free method).
  A found drafter launches as method ``draft`` with an explicit ``draft_model_path``; Auto may try
  the chosen one (it is on disk by construction).
- The drafter's quantization is asked only once the switch is on; tokens per round stays in view
  (disabled while off) so the engine's default depth can be read before deciding.
- Model-free methods (n-gram) are offered for any model on an installed engine that has them, and
  are disabled while the drafter is on.
- Launch is enabled when the engine is installed, every enabled tokens-per-round field parses,
  and the sampling fields make a valid :class:`Sampling` whose answer leaves room in the context.
- Auto is the default speculation on every local engine: it applies while no manual
  speculation is set (drafter switch off, no model-free method); choosing one replaces Auto for as
  long as it is chosen, and withdrawing it brings Auto back unless the user turned Auto off.
  Turning Auto on withdraws the manual choices. Auto may try the declared drafter only when it is
  on disk (it never queues a download); otherwise it measures without it and says so.
- Whatever the switches say, :attr:`FormState.speculation` names what the launch runs (Auto, off,
  the drafter, a model-free method) and :attr:`FormState.request` is that launch.
- An engine that ignores a thread count (MLX computes through Metal) gets the field disabled and
  the choice carries no thread count.
- A remote server (:meth:`LaunchForm.evaluate_remote`): the endpoint URL must pass the
  endpoint checks (https, or plain HTTP to this machine, or to another one once "allow plain
  HTTP" is ticked for it); the server's own launch settings decide speculation and context, so
  only the sampling is checked (without the context rule).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Literal, NamedTuple, Protocol

from app.core.catalog.drafters import Candidate
from app.core.engines import capability
from app.core.engines.base import Sampling, SamplingError
from app.core.engines.capability import ENGINES, Support
from app.core.engines.remote.endpoints import Endpoint, EndpointError, InsecureEndpointError
from app.core.launch.plan import LaunchChoice, RemoteTarget, Role, projector_path
from app.core.registry import AnySpec, Family, reads_images
from app.core.speculative import (
    DefaultDepth,
    SpeculationError,
    SpeculationOptions,
    default_tokens,
    parse_num_speculative_tokens,
)


class StatusOf(Protocol):
    """The cache's status of a file: "cached", "partial", "absent", ... (``CacheBridge.status``)."""

    def __call__(self, family: Family, spec: AnySpec, role: Role, quant: str | None, /) -> str: ...


SupportOf = Callable[[Family, AnySpec, str], Support]
#: (family, spec, target quantization) -> the projector of that launch is on disk
ProjectorOf = Callable[[Family, AnySpec, "str | None"], bool]

_UNQUANTIZED = ("F32", "BF16", "F16", "FP16", "bf16", "fp16", "f16", "f32")


def ordered_draft_quants(quants: list[str]) -> list[str]:
    """Unquantized drafters first (recommended), then the registry's order."""
    return sorted(quants, key=lambda q: (q not in _UNQUANTIZED, quants.index(q)))


class NoteCode(StrEnum):
    """What a message under a field says; its parameters are listed beside each code."""

    #: the chosen engine is not installed here (``reason``: the package check's own words)
    ENGINE_UNAVAILABLE = "engine-unavailable"
    #: the model's file is not downloaded yet; launching queues it (``quant``)
    TARGET_NOT_CACHED = "target-not-cached"
    #: the drafter is not downloaded yet; launching queues it (``quant``, None: the default one)
    DRAFTER_NOT_CACHED = "drafter-not-cached"
    #: a mixture-of-experts model: a drafter may cost more than it saves
    MOE_DRAFTER_COST = "moe-drafter-cost"
    #: a model-free method needs the drafter off
    DRAFTER_BLOCKS_MODEL_FREE = "drafter-blocks-model-free"
    #: tokens per round is not a whole number above zero (``detail``: the parser's message)
    DEPTH_INVALID = "depth-invalid"
    #: the answer would fill the context (``max_tokens``, ``n_ctx``)
    MAX_TOKENS_NOT_BELOW_CONTEXT = "max-tokens-not-below-context"
    #: a sampling value no engine runs (``detail``: the sampling check's message)
    SAMPLING_INVALID = "sampling-invalid"
    #: Auto measures without the declared drafter: it is not downloaded (``quant``)
    AUTO_DRAFTER_NOT_CACHED = "auto-drafter-not-cached"
    #: the endpoint URL is not one Tandem connects to (``detail``: the endpoint check's message)
    REMOTE_URL_INVALID = "remote-url-invalid"
    #: plain HTTP to another machine, not allowed for this endpoint (``host``)
    REMOTE_NEEDS_HTTPS = "remote-needs-https"
    #: the finder is looking for a compatible drafter on this computer
    FINDING_DRAFTERS = "finding-drafters"
    #: the finder found no compatible drafter (``rejected``: how many files were judged and refused)
    NO_COMPATIBLE_DRAFTER = "no-compatible-drafter"
    #: the finder could not run (``detail``: its error)
    DRAFTER_SEARCH_FAILED = "drafter-search-failed"
    #: the launch reads images (MLX: its vision tower; ``methods``: on llama.cpp, the speculation
    #: methods that run with the projector, ``refused`` those that do not)
    READS_IMAGES = "reads-images"
    #: the model reads images once its projector is downloaded; this launch reads text only
    PROJECTOR_NOT_CACHED = "projector-not-cached"
    #: the chosen speculation method cannot run with images here (``method``, ``reason``): the
    #: launch loads without the projector and reads text only
    METHOD_BLOCKS_IMAGES = "method-blocks-images"
    #: the conversation that launches has pictures and this launch cannot read them (``why``:
    #: ``text-model``, ``projector`` not downloaded, or the speculation ``method`` refuses them,
    #: with its ``reason``): a message with a picture would be refused
    CHAT_IMAGES_UNREADABLE = "chat-images-unreadable"


Level = Literal["info", "warn", "error"]


@dataclass(frozen=True)
class Note:
    code: NoteCode
    level: Level
    params: Mapping[str, object] = field(default_factory=dict)


class SwitchLabel(StrEnum):
    """The speculation switch's label: a Gemma 4 assistant runs as MTP, others as a drafter."""

    ENABLE_MTP = "enable-mtp"
    USE_DRAFTER = "use-drafter"


@dataclass(frozen=True)
class EngineOption:
    name: str
    label: str
    available: bool
    #: why it is not available (the package check's words), "" when it is
    reason: str = ""


@dataclass(frozen=True)
class QuantOption:
    """A quantization to offer and its cache status (``cached`` and ``partial`` get a marker)."""

    value: str | None
    status: str


@dataclass
class FormValues:
    """What the user has set in the dialog."""

    spec: AnySpec
    quant: str | None = None
    engine: str = ""
    #: the speculation switch (counts only while the panel is shown)
    drafter_on: bool = False
    draft_quant: str | None = None
    depth: str = ""
    model_free: str | None = None
    model_free_depth: str = ""
    n_ctx: int = 4096
    threads: int = 0
    temperature: float = 0.0
    top_p: float = 1.0
    top_k: int = 0
    repeat_penalty: float = 1.0
    max_tokens: int = 256
    #: the Auto choice (the default); a manual drafter or model-free method replaces it
    auto: bool = True
    #: the finder's candidates for a spec without a declared drafter (compatible and not), None
    #: while it has not run for this spec and quantization
    found: tuple[Candidate, ...] | None = None
    #: the finder is running for this spec and quantization
    finding: bool = False
    #: the error of a finder that failed ("" when none)
    find_error: str = ""
    #: the chosen found drafter's path (None: the first compatible one)
    found_drafter: str | None = None
    #: the conversation this launch is for has pictures in it
    chat_images: bool = False


def set_auto(v: FormValues, on: bool) -> FormValues:
    """The Auto switch: on withdraws the manual choices it replaces (drafter, model-free
    method); off leaves the launch without speculation unless a manual choice is made."""
    if on:
        return replace(v, auto=True, drafter_on=False, model_free=None)
    return replace(v, auto=False)


def set_drafter(v: FormValues, on: bool) -> FormValues:
    """The drafter switch: on replaces Auto while it stays on, off brings Auto back when the user
    had not turned Auto off (``auto`` is the user's Auto switch, not whether Auto applies)."""
    return replace(v, drafter_on=on, model_free=None if on else v.model_free)


def set_model_free(v: FormValues, method: str | None) -> FormValues:
    """The model-free method (None: off), with the drafter's rule: a method replaces Auto while
    it is chosen; choosing none brings Auto back unless the user turned Auto off."""
    return replace(v, model_free=method or None)


SpeculationKind = Literal["auto", "off", "drafter", "model-free"]


@dataclass(frozen=True)
class LaunchSpeculation:
    """What the launch runs, as the dialog says it (the request carries the same)."""

    kind: SpeculationKind
    #: the method that drafts ("" for Auto and off): "draft", "mtp", "ngram-mod", ...
    method: str = ""
    #: tokens per round as typed, None: the engine's default (see ``default_depth``)
    depth: int | None = None
    default_depth: int | None = None
    #: where the drafter comes from: "declared", "builtin" (the model's own heads), "found"
    source: str = ""
    #: a manual choice replaces Auto for now: withdrawing it brings Auto back
    replaces_auto: bool = False


@dataclass(frozen=True)
class FormState:
    """What the dialog shows for :class:`FormValues`; see the module's rules."""

    engine_available: bool
    engine_note: Note | None
    target_note: Note | None
    panel_visible: bool
    #: the method the declared drafter runs with on this engine ("mtp" or "draft")
    method: str
    switch_label: SwitchLabel
    drafter_on: bool
    draft_quant_shown: bool
    draft_quant_enabled: bool
    draft_quants: tuple[QuantOption, ...]
    depth_enabled: bool
    depth_error: Note | None
    depth_default: DefaultDepth
    download_note: Note | None
    moe_note: Note | None
    model_free_methods: tuple[str, ...]
    model_free_enabled: bool
    model_free_depth_enabled: bool
    model_free_depth_error: Note | None
    #: the engine's default depth for the chosen model-free method (None: none chosen)
    model_free_default: DefaultDepth | None
    model_free_note: Note | None
    #: False for an engine that ignores a thread count (the field is disabled, the choice has none)
    threads_apply: bool
    sampling: Sampling | None
    sampling_error: Note | None
    launch_enabled: bool
    #: Auto can run on this engine (a local, installed engine)
    auto_available: bool = False
    #: Auto is what this launch uses
    auto_on: bool = False
    #: Auto may try the declared drafter (on disk), at this quantization
    auto_drafter: bool = False
    auto_draft_quant: str | None = None
    auto_note: Note | None = None
    #: where the panel's drafter comes from: "declared" (the spec's), "found" (the finder's), ""
    drafter_source: str = ""
    #: the compatible drafters the finder found (offered), best first
    found_drafters: tuple[Candidate, ...] = ()
    #: the found drafter a manual launch or Auto uses (a path), None when none applies
    found_drafter: str | None = None
    #: what the finder says outside the panel (searching, none found, failed)
    found_note: Note | None = None
    #: Auto may try this found drafter (a path)
    auto_found_drafter: str | None = None
    #: whether and how the launch reads images, None for a text model
    vision_note: Note | None = None
    #: the conversation has pictures this launch cannot read (None: it can, or it has none)
    chat_images_note: Note | None = None
    #: what the launch runs (Auto, off, the drafter, a model-free method)
    speculation: LaunchSpeculation = LaunchSpeculation("off")
    #: the chosen model-free method when this engine offers it (the list shows it), else None
    model_free: str | None = None
    #: the drafter the switch would run is on this computer (a found file or the model's own
    #: heads always are; a declared drafter at the chosen quantization when its files are cached)
    drafter_on_disk: bool = False
    #: the declared drafter's quantization the switch would run (None: its default file)
    drafter_quant: str | None = None
    #: the launch these values describe, None when they make none (see ``request_error``)
    request: LaunchChoice | None = None
    #: why there is no request: the sampling or tokens-per-round check's message ("" when there is)
    request_error: str = ""


@dataclass
class RemoteValues:
    """What the user has set on the Remote server tab."""

    url: str = ""
    allow_http: bool = False
    #: the server's model id ('' = the only one it serves)
    model: str = ""
    #: a key typed for this session ('' = the endpoint's keyring entry, if any)
    api_key: str = ""


class UrlState(NamedTuple):
    """One endpoint URL field checked (see :meth:`LaunchForm.evaluate_url`)."""

    #: the checked endpoint, None while the URL is empty or refused
    endpoint: Endpoint | None
    note: Note | None
    #: the URL is plain HTTP to another machine: the "allow plain HTTP" tick applies to it
    allow_http_applies: bool


@dataclass(frozen=True)
class RemoteState:
    """What the Remote server tab shows for :class:`RemoteValues`."""

    #: the checked endpoint, None while the URL is empty or refused
    endpoint: Endpoint | None
    url_note: Note | None
    #: the URL is plain HTTP to another machine: the "allow plain HTTP" tick applies to it
    allow_http_applies: bool
    list_enabled: bool
    sampling: Sampling | None
    sampling_error: Note | None
    launch_enabled: bool


def _projector_on_disk(family: Family, spec: AnySpec, quant: str | None) -> bool:
    return projector_path(family, spec, quant) is not None


class LaunchForm:
    """The rules of one family's launch dialog; ``status`` is the cache's status lookup."""

    def __init__(
        self,
        family: Family,
        status: StatusOf,
        support: SupportOf | None = None,
        default_engine: str = "",
        projector: ProjectorOf | None = None,
    ) -> None:
        self.family = family
        self._status = status
        self._support = support
        self._projector = projector or _projector_on_disk
        self.default_engine = default_engine

    def support(self, spec: AnySpec, engine: str) -> Support:
        return (self._support or capability.drafter_support)(self.family, spec, engine)

    # --- lists --------------------------------------------------------------------------------
    def engines(self, spec: AnySpec) -> list[EngineOption]:
        """Engines able to run this spec's format, installed or not (a missing one says why)."""
        out = []
        for name in capability.engines_for_spec(spec):
            avail = capability.engine_availability(name)
            out.append(EngineOption(name, ENGINES[name].label, avail.ok, "" if avail.ok else avail.reason))
        return out

    def preferred_engine(self, spec: AnySpec) -> str:
        """The settings' default engine when it runs this spec, else the first that does."""
        names = capability.engines_for_spec(spec)
        return self.default_engine if self.default_engine in names else (names[0] if names else "")

    def quants(self, spec: AnySpec) -> list[QuantOption]:
        return [QuantOption(q, self._status(self.family, spec, "target", q)) for q in spec.quantizations]

    def draft_quants(self, spec: AnySpec) -> list[QuantOption]:
        """The drafter's quantizations, unquantized first; a drafter declared without a list of
        quantizations is one entry of None (its default file)."""
        values: list[str | None] = list(ordered_draft_quants(spec.draft_quantizations()))
        if spec.declares_drafter() and not values:
            values.append(None)
        return [QuantOption(v, self._status(self.family, spec, "drafter", v)) for v in values]

    # --- rules --------------------------------------------------------------------------------
    def panel_visible(self, spec: AnySpec, engine: str, found: tuple[Candidate, ...] | None = None) -> bool:
        """The gate: (the spec declares a drafter OR a compatible drafter was found) AND the
        engine can run it."""
        if not engine:
            return False
        if spec.declares_drafter() or spec.builtin_mtp:  # built-in MTP heads: no drafter file
            return self.support(spec, engine).ok
        return bool(compatible(found)) and self.runs_found_drafter(spec, engine)

    @staticmethod
    def runs_found_drafter(spec: AnySpec, engine: str) -> bool:
        """An installed engine that runs ``draft`` drafters of a GGUF spec's format (the finder
        reads GGUF headers; an MLX spec's drafter search is not offered here)."""
        info = ENGINES.get(engine)
        if info is None or spec.format != "gguf" or spec.format not in info.formats:
            return False
        return "draft" in info.drafter_methods and capability.engine_availability(engine).ok

    def wants_drafter_search(self, spec: AnySpec, quant: str | None, engine: str) -> bool:
        """Run the finder for this spec: it declares no drafter, the engine could run a found one
        and the model's file is on disk (the finder compares headers of local files)."""
        return (
            not spec.declares_drafter()
            and not spec.builtin_mtp
            and self.runs_found_drafter(spec, engine)
            and self._status(self.family, spec, "target", quant) == "cached"
        )

    def evaluate(self, v: FormValues) -> FormState:
        spec, engine = v.spec, v.engine
        avail = capability.engine_availability(engine) if engine else None
        available = bool(engine) and avail is not None and avail.ok
        engine_note = None
        if avail is not None and not avail.ok:
            engine_note = Note(NoteCode.ENGINE_UNAVAILABLE, "warn", {"reason": avail.reason})
        target_note = None
        if self._status(self.family, spec, "target", v.quant) != "cached":
            target_note = Note(NoteCode.TARGET_NOT_CACHED, "info", {"quant": v.quant})

        declared = spec.declares_drafter()
        visible = self.panel_visible(spec, engine, v.found)
        builtin = visible and not declared and spec.builtin_mtp
        source = ("declared" if declared else "builtin" if builtin else "found") if visible else ""
        method = (self.support(spec, engine).method if source in ("declared", "builtin") else None) or "draft"
        drafter_on = visible and v.drafter_on
        draft_quants = tuple(self.draft_quants(spec))
        offered = compatible(v.found) if source == "found" else ()
        paths = [c.path for c in offered]
        found_drafter = (v.found_drafter if v.found_drafter in paths else paths[0]) if paths else None
        found_note = None
        if not declared and not builtin and self.runs_found_drafter(spec, engine):
            if v.finding:
                found_note = Note(NoteCode.FINDING_DRAFTERS, "info")
            elif v.find_error:
                found_note = Note(NoteCode.DRAFTER_SEARCH_FAILED, "warn", {"detail": v.find_error})
            elif v.found is not None and not offered:
                found_note = Note(NoteCode.NO_COMPATIBLE_DRAFTER, "info", {"rejected": len(v.found)})
        download_note = None
        if (
            drafter_on
            and source == "declared"
            and self._status(self.family, spec, "drafter", v.draft_quant) != "cached"
        ):
            download_note = Note(NoteCode.DRAFTER_NOT_CACHED, "info", {"quant": v.draft_quant})
        moe_note = (
            Note(NoteCode.MOE_DRAFTER_COST, "warn") if visible and spec.activated_size_in_billions else None
        )
        depth_default = default_tokens(engine, self.family.name, spec.size_in_billions, method)
        depth_error = _depth_error(v.depth)

        methods = tuple(capability.model_free_methods(engine)) if available else ()
        model_free = v.model_free if v.model_free in methods else None
        mf_default = (
            default_tokens(engine, self.family.name, spec.size_in_billions, model_free)
            if model_free
            else None
        )
        mf_error = _depth_error(v.model_free_depth)
        mf_note = Note(NoteCode.DRAFTER_BLOCKS_MODEL_FREE, "info") if drafter_on else None

        info = ENGINES.get(engine)
        threads_apply = info.uses_thread_count if info is not None else True
        sampling, sampling_error = self._sampling(v)

        auto_available = available and engine in ("llama.cpp", "mlx")
        auto_on = v.auto and auto_available and not drafter_on and not model_free
        auto_drafter, auto_dq, auto_note, auto_found = False, None, None, None
        if auto_on and source == "found":
            auto_found = found_drafter  # on disk by construction: Auto may try it
        elif auto_on and visible and source == "declared":
            cached = [q.value for q in draft_quants if q.status == "cached"]
            if cached:
                auto_drafter, auto_dq = True, cached[0]
            else:
                first = draft_quants[0].value if draft_quants else None
                auto_note = Note(NoteCode.AUTO_DRAFTER_NOT_CACHED, "info", {"quant": first})

        vision_note = self._vision_note(v, available, drafter_on, method, model_free, auto_on)
        chat_images_note = self._chat_images_note(v, available, vision_note)
        ok = available
        if drafter_on and depth_error is not None:
            ok = False
        if model_free and not drafter_on and mf_error is not None:
            ok = False
        if auto_on:
            speculation = LaunchSpeculation("auto")
        elif drafter_on:
            speculation = LaunchSpeculation(
                "drafter",
                "mtp" if source == "builtin" else "draft" if source == "found" else method,
                _depth(v.depth),
                depth_default.value,
                source,
                replaces_auto=v.auto and auto_available,
            )
        elif model_free:
            speculation = LaunchSpeculation(
                "model-free",
                model_free,
                _depth(v.model_free_depth),
                mf_default.value if mf_default is not None else None,
                replaces_auto=v.auto and auto_available,
            )
        else:
            speculation = LaunchSpeculation("off")
        drafter_quant = v.draft_quant if source == "declared" else None
        on_disk = source in ("found", "builtin") or (
            source == "declared" and self._status(self.family, spec, "drafter", drafter_quant) == "cached"
        )
        state = FormState(
            engine_available=available,
            engine_note=engine_note,
            target_note=target_note,
            panel_visible=visible,
            method=method,
            switch_label=SwitchLabel.ENABLE_MTP if method == "mtp" else SwitchLabel.USE_DRAFTER,
            drafter_on=drafter_on,
            draft_quant_shown=drafter_on and source == "declared",
            draft_quant_enabled=drafter_on and source == "declared" and len(draft_quants) > 1,
            draft_quants=draft_quants,
            depth_enabled=drafter_on,
            depth_error=depth_error,
            depth_default=depth_default,
            download_note=download_note,
            moe_note=moe_note,
            model_free_methods=methods,
            model_free_enabled=not drafter_on,
            model_free_depth_enabled=bool(model_free) and not drafter_on,
            model_free_depth_error=mf_error,
            model_free_default=mf_default,
            model_free_note=mf_note,
            threads_apply=threads_apply,
            sampling=sampling,
            sampling_error=sampling_error,
            launch_enabled=ok and sampling is not None,
            auto_available=auto_available,
            auto_on=auto_on,
            auto_drafter=auto_drafter,
            auto_draft_quant=auto_dq,
            auto_note=auto_note,
            drafter_source=source,
            found_drafters=offered,
            found_drafter=found_drafter,
            found_note=found_note,
            auto_found_drafter=auto_found,
            # the conversation's own note says it for the pictures at hand: one note, not two
            vision_note=vision_note if chat_images_note is None else None,
            chat_images_note=chat_images_note,
            speculation=speculation,
            model_free=model_free,
            drafter_on_disk=on_disk,
            drafter_quant=drafter_quant,
        )
        request, error = self._request(v, state)
        return replace(state, request=request, request_error=error)

    @staticmethod
    def _sampling(v: FormValues) -> tuple[Sampling | None, Note | None]:
        if v.n_ctx and v.max_tokens >= v.n_ctx:  # 0 is Auto: the answer's room is checked per request
            params = {"max_tokens": v.max_tokens, "n_ctx": v.n_ctx}
            return None, Note(NoteCode.MAX_TOKENS_NOT_BELOW_CONTEXT, "error", params)
        return _form_sampling(v)

    # --- remote server ---------------------------------------------------------------
    def _vision_note(
        self,
        v: FormValues,
        available: bool,
        drafter_on: bool,
        method: str,
        model_free: str | None,
        auto_on: bool,
    ) -> Note | None:
        """Whether the launch reads images and, on llama.cpp, with which speculation."""
        spec, engine = v.spec, v.engine
        if not available or not reads_images(self.family, spec):
            return None
        if engine == "mlx":
            return Note(NoteCode.READS_IMAGES, "info", {"methods": "", "refused": ""})
        if engine != "llama.cpp":
            return None
        if not self._projector(self.family, spec, v.quant):
            return Note(NoteCode.PROJECTOR_NOT_CACHED, "info")
        chosen = method if drafter_on else model_free
        reason = capability.vision_problem(chosen) if chosen and not auto_on else None
        if reason:
            return Note(NoteCode.METHOD_BLOCKS_IMAGES, "warn", {"method": chosen, "reason": reason})
        table = capability.vision_methods()
        works = ", ".join(m for m, why in table.items() if why is None)
        refused = ", ".join(m for m, why in table.items() if why is not None)
        return Note(NoteCode.READS_IMAGES, "info", {"methods": works, "refused": refused})

    def _chat_images_note(self, v: FormValues, available: bool, vision: Note | None) -> Note | None:
        """Whether the conversation's pictures can go to this launch: not to a text model, not
        without the projector, not with a speculation method that fails on image prompts."""
        if not v.chat_images or not available or v.engine not in ("llama.cpp", "mlx"):
            return None
        if not reads_images(self.family, v.spec):
            return Note(NoteCode.CHAT_IMAGES_UNREADABLE, "warn", {"why": "text-model"})
        if vision is not None and vision.code == NoteCode.PROJECTOR_NOT_CACHED:
            return Note(NoteCode.CHAT_IMAGES_UNREADABLE, "warn", {"why": "projector"})
        if vision is not None and vision.code == NoteCode.METHOD_BLOCKS_IMAGES:
            return Note(NoteCode.CHAT_IMAGES_UNREADABLE, "warn", {"why": "method", **vision.params})
        return None

    @staticmethod
    def evaluate_url(url: str, allow_http: bool) -> UrlState:
        """The endpoint rules for one URL field (the endpoint, and the Verify baseline):
        loopback HTTP is fine, HTTPS is required elsewhere unless plain HTTP is allowed for it."""
        endpoint, note, applies = None, None, False
        if url.strip():
            try:
                candidate = Endpoint.parse(url, allow_http=True)
            except EndpointError as exc:
                note = Note(NoteCode.REMOTE_URL_INVALID, "error", {"detail": str(exc)})
            else:
                try:
                    Endpoint.parse(url, allow_http=False)
                except InsecureEndpointError:
                    applies = True
                if applies and not allow_http:
                    note = Note(NoteCode.REMOTE_NEEDS_HTTPS, "warn", {"host": candidate.host})
                else:
                    endpoint = Endpoint(candidate.url, applies and allow_http)
        return UrlState(endpoint, note, applies)

    @staticmethod
    def evaluate_remote(rv: RemoteValues, v: FormValues) -> RemoteState:
        endpoint, note, applies = LaunchForm.evaluate_url(rv.url, rv.allow_http)
        sampling, sampling_error = _form_sampling(v)
        return RemoteState(
            endpoint=endpoint,
            url_note=note,
            allow_http_applies=applies,
            list_enabled=endpoint is not None,
            sampling=sampling,
            sampling_error=sampling_error,
            launch_enabled=endpoint is not None and sampling is not None,
        )

    def remote_choice(self, rv: RemoteValues, v: FormValues) -> LaunchChoice:
        """The remote launch the values describe; raises :class:`EndpointError` for a URL the
        tab refuses and :class:`SamplingError` for sampling no server runs."""
        state = self.evaluate_remote(rv, v)
        if state.endpoint is None:
            Endpoint.parse(rv.url, allow_http=rv.allow_http)  # raises the endpoint check's reason
            raise EndpointError("endpoint: no URL given")
        if state.sampling is None:
            detail = state.sampling_error.params.get("detail") if state.sampling_error else ""
            raise SamplingError(str(detail))
        target = RemoteTarget(state.endpoint, rv.model.strip(), rv.api_key.strip() or None)
        return LaunchChoice(
            self.family,
            v.spec,
            str(v.quant),
            "remote",
            SpeculationOptions(),
            v.n_ctx,
            None,
            state.sampling,
            remote=target,
        )

    # --- result -------------------------------------------------------------------------------
    def choice(self, v: FormValues) -> LaunchChoice:
        """The launch the values describe (:attr:`FormState.request`); raises
        :class:`SamplingError` when Launch is disabled for its sampling, :class:`SpeculationError`
        for a tokens-per-round that does not parse."""
        state = self.evaluate(v)
        if state.request is not None:
            return state.request
        if state.sampling is None:
            raise SamplingError(state.request_error)
        raise SpeculationError(state.request_error)

    def _request(self, v: FormValues, state: FormState) -> tuple[LaunchChoice | None, str]:
        """The launch of ``state`` (built from the state's decisions only), or why there is none."""
        try:
            return self._build_request(v, state), ""
        except (SamplingError, SpeculationError) as exc:
            return None, str(exc)

    def _build_request(self, v: FormValues, state: FormState) -> LaunchChoice:
        spec, quant, engine = v.spec, str(v.quant), v.engine
        downloads: list[tuple[str, str | None]] = []
        if self._status(self.family, spec, "target", quant) != "cached":
            downloads.append(("target", quant))
        kind = state.speculation.kind
        if kind == "auto":
            # Auto: speculation off until the calibration chooses; it may try the cached drafter
            options = SpeculationOptions(
                draft_quantization=state.auto_draft_quant, draft_model_path=state.auto_found_drafter
            )
        elif kind == "drafter" and state.drafter_source == "found":
            # a found drafter: its file, as an explicit drafter path (nothing to download)
            options = SpeculationOptions.build(
                enabled=True,
                method="draft",
                num_speculative_tokens=v.depth,
                draft_model_path=state.found_drafter,
            )
        elif kind == "drafter" and state.drafter_source == "builtin":
            # the target's own MTP heads: nothing to download
            options = SpeculationOptions.build(enabled=True, method="mtp", num_speculative_tokens=v.depth)
        elif kind == "drafter":
            options = SpeculationOptions.build(
                enabled=True,
                method=state.method,
                draft_quantization=v.draft_quant,
                num_speculative_tokens=v.depth,
            )
            if self._status(self.family, spec, "drafter", v.draft_quant) != "cached":
                downloads.append(("drafter", v.draft_quant))
        elif kind == "model-free":
            options = SpeculationOptions.build(
                enabled=True, method=state.speculation.method, num_speculative_tokens=v.model_free_depth
            )
        else:
            options = SpeculationOptions()
        if state.sampling is None:
            detail = state.sampling_error.params.get("detail") if state.sampling_error else None
            if detail is None and state.sampling_error is not None:
                p = state.sampling_error.params
                detail = f"max tokens ({p['max_tokens']}) must be less than the context length ({p['n_ctx']})"
            raise SamplingError(str(detail))
        threads = (v.threads or None) if state.threads_apply else None
        return LaunchChoice(
            self.family,
            spec,
            quant,
            engine,
            options,
            v.n_ctx,
            threads,
            state.sampling,
            downloads,
            auto=kind == "auto",
            auto_drafter=state.auto_drafter,
        )


def compatible(found: tuple[Candidate, ...] | None) -> tuple[Candidate, ...]:
    """The candidates to offer: compatible ones with a local path (never an incompatible one)."""
    return tuple(c for c in found or () if c.compatible and c.path)


def _form_sampling(v: FormValues) -> tuple[Sampling | None, Note | None]:
    """The form's sampling, or why not. A remote launch uses it as it is (the server's context
    decides the room); a local one checks the context rule first."""
    try:
        sampling = Sampling(
            temperature=v.temperature,
            top_p=v.top_p,
            top_k=v.top_k,
            max_tokens=v.max_tokens,
            repeat_penalty=v.repeat_penalty,
        )
    except SamplingError as exc:
        return None, Note(NoteCode.SAMPLING_INVALID, "error", {"detail": str(exc)})
    return sampling, None


def _depth(text: str) -> int | None:
    """Tokens per round as typed (None: empty, or not a number: the field says why)."""
    try:
        return parse_num_speculative_tokens(text)
    except SpeculationError:
        return None


def _depth_error(text: str) -> Note | None:
    try:
        parse_num_speculative_tokens(text)
    except SpeculationError as exc:
        return Note(NoteCode.DEPTH_INVALID, "error", {"detail": str(exc)})
    return None
