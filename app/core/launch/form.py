"""The launch dialog's rules without Qt: what is shown, enabled and valid, and why.

The dialog keeps what the user set in ONE :class:`~app.core.launch.form_state.FormValues`, and
:meth:`LaunchForm.evaluate` turns it into a :class:`~app.core.launch.form_state.FormState` from which
the dialog renders every widget (both, and the switches' transitions, are
:mod:`~app.core.launch.form_state`'s). The state carries the launch itself
(:attr:`~app.core.launch.form_state.FormState.request`), so what the dialog shows and what it
launches come from the same evaluation and cannot drift; :meth:`LaunchForm.choice` returns that
request. Messages are :class:`~app.core.launch.form_state.Note` codes with parameters, never
sentences. The typed fields are read by :mod:`~app.core.launch.form_fields`; which found drafters
are offered is :mod:`~app.core.launch.form_drafters`'s.

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
  and the sampling fields make a valid :class:`~app.core.engines.base.Sampling` whose answer
  leaves room in the context.
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

from collections.abc import Callable
from dataclasses import replace
from typing import Protocol

from app.core.catalog.drafters import Candidate
from app.core.engines import capability
from app.core.engines.base import SamplingError
from app.core.engines.capability import ENGINES, Support
from app.core.engines.remote.endpoints import Endpoint, EndpointError, InsecureEndpointError
from app.core.launch.form_drafters import compatible, finder_note, ordered_draft_quants, runs_found_drafter
from app.core.launch.form_fields import depth_note, form_sampling, local_sampling, typed_depth
from app.core.launch.form_state import (
    EngineOption,
    FormState,
    FormValues,
    LaunchSpeculation,
    Note,
    NoteCode,
    QuantOption,
    RemoteState,
    RemoteValues,
    SwitchLabel,
    UrlState,
)
from app.core.launch.plan import LaunchChoice, RemoteTarget, Role, projector_path
from app.core.registry import AnySpec, Family, reads_images
from app.core.speculative import SpeculationError, SpeculationOptions, default_tokens


class StatusOf(Protocol):
    """The cache's status of a file: "cached", "partial", "absent", ... (``CacheBridge.status``)."""

    def __call__(self, family: Family, spec: AnySpec, role: Role, quant: str | None, /) -> str: ...


SupportOf = Callable[[Family, AnySpec, str], Support]
#: (family, spec, target quantization) -> the projector of that launch is on disk
ProjectorOf = Callable[[Family, AnySpec, "str | None"], bool]


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
        return bool(compatible(found)) and runs_found_drafter(spec, engine)

    def wants_drafter_search(self, spec: AnySpec, quant: str | None, engine: str) -> bool:
        """Run the finder for this spec: it declares no drafter, the engine could run a found one
        and the model's file is on disk (the finder compares headers of local files)."""
        return (
            not spec.declares_drafter()
            and not spec.builtin_mtp
            and runs_found_drafter(spec, engine)
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
        if not declared and not builtin and runs_found_drafter(spec, engine):
            found_note = finder_note(v, offered)
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
        depth_error = depth_note(v.depth)

        methods = tuple(capability.model_free_methods(engine)) if available else ()
        model_free = v.model_free if v.model_free in methods else None
        mf_default = (
            default_tokens(engine, self.family.name, spec.size_in_billions, model_free)
            if model_free
            else None
        )
        mf_error = depth_note(v.model_free_depth)
        mf_note = Note(NoteCode.DRAFTER_BLOCKS_MODEL_FREE, "info") if drafter_on else None

        info = ENGINES.get(engine)
        threads_apply = info.uses_thread_count if info is not None else True
        sampling, sampling_error = local_sampling(v)

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
                typed_depth(v.depth),
                depth_default.value,
                source,
                replaces_auto=v.auto and auto_available,
            )
        elif model_free:
            speculation = LaunchSpeculation(
                "model-free",
                model_free,
                typed_depth(v.model_free_depth),
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

    # --- images -------------------------------------------------------------------------------
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

    # --- remote server --------------------------------------------------------------------------
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
        sampling, sampling_error = form_sampling(v)
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
