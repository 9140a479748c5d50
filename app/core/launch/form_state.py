"""What the launch dialog keeps and what it shows, without Qt.

The dialog keeps what the user set in ONE :class:`FormValues`: every widget change replaces it,
the speculation switches through :func:`set_auto`, :func:`set_drafter` and :func:`set_model_free`,
which keep the choices exclusive. :meth:`~app.core.launch.form.LaunchForm.evaluate` turns the
values into a :class:`FormState`, from which the dialog renders every widget; the state carries
the launch itself (:attr:`FormState.request`). The Remote server tab has its own pair,
:class:`RemoteValues` and :class:`RemoteState`, and :class:`UrlState` for one checked URL field.

Messages are :class:`Note` codes with parameters, never sentences: the dialog says them in the
user's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Literal, NamedTuple

from app.core.catalog.drafters import Candidate
from app.core.engines.base import Sampling
from app.core.engines.remote.endpoints import Endpoint
from app.core.launch.plan import LaunchChoice
from app.core.registry import AnySpec
from app.core.speculative import DefaultDepth


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
    """What the dialog shows for :class:`FormValues`; the rules are :mod:`app.core.launch.form`'s."""

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
