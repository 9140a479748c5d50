"""The MLX engine: mlx-vlm drafters (Gemma 4 assistant, EAGLE-3, DFlash) and classic mlx-lm pairs.

MLX arrays and streams are thread-affine, so one dedicated thread (``tandem-mlx-N``, an
:class:`~app.core.engines.worker.EngineWorker`) owns everything MLX: it imports the libraries,
loads target and drafter, and runs every generation, checking for a stop between tokens. The
worker carries the job queue, the per-request events, typed errors on the caller's side (never
chat text), cancel and close; this module supplies the jobs: the load
(:mod:`~app.core.engines.mlx.loading`), a generation (the tokens of
:mod:`~app.core.engines.mlx.steps` turned into events) and the release.

Which library runs what (decided from the configs in :mod:`app.core.engines.mlx.pair`):

* an mlx-vlm drafter (``mtp`` / ``eagle3`` / ``dflash``, kind from the drafter's ``model_type``):
  target and drafter through mlx-vlm; rounds come from the drafter's per-round ``accept_lens`` /
  ``draft_lens`` and the first ``accepted`` tokens of a round are marked ``from_draft``;
* a plain language model as drafter (method ``draft``): target and drafter are mlx-lm models in
  Tandem's own loop (:mod:`app.core.engines.mlx.drafted`), which reports each round and picks its
  depth (:class:`~app.core.speculative.depth.DepthControl`);
* no drafter: mlx-vlm for multimodal targets (``vision_config``), mlx-lm for text models;
* model-free ``suffix`` / ``prompt-lookup``: the same target model (mlx-lm or mlx-vlm)
  in Tandem's own decode loop (:mod:`app.core.engines.mlx.modelfree`), drafts from the suffix cache
  (:mod:`app.core.speculative.suffix`); suffix decoding's corpus persists per vocabulary.

Per request (:class:`~app.core.engines.base.SpeculationSwitch`): a request may run off, the
loaded drafter, or a model-free method on the same weights (:meth:`MLXEngine.offers`,
``GenerateRequest.speculation``), on a view of the loaded state made once per choice; another
drafter needs a reload.

Images: an mlx-vlm target with a vision tower and an image processor reads the
``images`` of a message (:mod:`app.core.engines.mlx.vision`). A prompt with images is laid out by
mlx-vlm and its processor; the pixel values go to mlx-vlm's prefill (no drafter, or an mlx-vlm
drafter) or to Tandem's own prefill (model-free methods), and decoding is the same as for text.

Depth: ``num_speculative_tokens`` is the number of drafted tokens per round on every engine. mlx-vlm
counts its ``draft_block_size`` with the verified token included, so N becomes a block of N + 1;
unset keeps the drafter's trained depth (``block_size - 1`` drafts: 3 for the Gemma 4 assistant).
A value above the trained depth is a ceiling for MTP drafters: mlx-vlm only drafts deeper once
the trained depth is accepted often enough. For a classic drafter it is a ceiling too (default 8):
each round drafts what the measured acceptance and costs say pays, 0 to N.
"""

from __future__ import annotations

import copy
import itertools
import logging
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

from app.core.engines.base import (
    ChatMessage,
    ContextLengthError,
    EngineUnavailable,
    Event,
    Finished,
    FinishReason,
    GenerateRequest,
    GenerationError,
    ImagesUnsupportedError,
    LoadRequest,
    Round,
    Sampling,
    TextDelta,
    TokenCandidate,
    has_images,
    structured_refusal,
)
from app.core.engines.capability import Availability, engine_availability
from app.core.engines.mlx.loading import Loaded, load_pair, open_suffix_cache
from app.core.engines.mlx.modelfree import PrefillStopped, VerifyCost
from app.core.engines.mlx.pair import PairPlan
from app.core.engines.mlx.replay import ModelFreeReplay, replay_model_free
from app.core.engines.mlx.steps import VlmRoundReader, token_steps
from app.core.engines.mlx.stream import IncrementalDecoder, StopScanner
from app.core.engines.mlx.vision import VisionPrompt
from app.core.engines.worker import EngineClosed, EngineWorker, Job
from app.core.images import estimated_tokens, text_only
from app.core.speculative import RoundAccountant, per_request
from app.core.speculative.acceptance import AcceptanceByPosition, Estimate
from app.core.speculative.depth import DepthControl
from app.core.speculative.options import SUFFIX_METHODS
from app.core.speculative.options import default_tokens as default_depth
from app.core.speculative.per_request import Speculation
from app.core.speculative.predict import Alternative, predict
from app.core.speculative.rounds import Pass
from app.core.speculative.speedup import PlainSteps, own_plain_step
from app.core.speculative.suffix import (
    key_for_messages,
)

log = logging.getLogger(__name__)

_thread_ids = itertools.count(1)


def availability() -> Availability:
    """Whether the MLX engine can run here, with the reason when not (never raises)."""
    return engine_availability("mlx")


def _clear_thread_streams() -> None:
    """Release this thread's MLX streams before the thread ends.

    MLX requires ``mx.clear_streams()`` at the end of every thread that used it: its automatic
    clean-up runs too late (after the interpreter is gone) and the process can die at exit with
    "terminate called without an active exception" (ml-explore/mlx#4327, Blaizzy/mlx-vlm#1945).
    """
    import sys

    core = sys.modules.get("mlx.core")
    clear = getattr(core, "clear_streams", None)
    if callable(clear):
        try:
            clear()
        except Exception:  # the thread is ending either way
            log.debug("mx.clear_streams failed", exc_info=True)


#: the model-free methods a request may switch to, in the order the window lists them
_MODEL_FREE = ("suffix", "prompt-lookup")
assert frozenset(_MODEL_FREE) == SUFFIX_METHODS


class MLXEngine:
    """Loads a target (and optionally a drafter) on its own thread; see the module docstring."""

    name = "mlx"

    def __init__(self, req: LoadRequest) -> None:
        self.request = req
        #: how the pair runs; decided (and validated) on the MLX thread by :meth:`load`
        self.plan: PairPlan | None = None
        #: user-facing remarks made at load (e.g. an auto-detected drafter kind)
        self.notes: tuple[str, ...] = ()
        #: "mtp" | "eagle3" | "dflash" | "draft", or None when speculation is off
        self.spec_kind: str | None = None
        #: drafted tokens per round requested from the library (None without speculation)
        self.draft_tokens: int | None = None
        #: drafted tokens per round when the user sets nothing (the drafter's trained depth)
        self.default_draft_tokens: int | None = None
        #: the drafter only supports temperature 0 (a request that samples is refused up front)
        self.greedy_only = False
        #: model-free methods: time spent proposing drafts in the last request (seconds) and how
        #: many proposals were made, to measure the suffix cache's overhead per step
        self.last_draft_stats: dict[str, float] = {}
        #: model-free methods: cut drafts where verifying a token costs more than it is expected to
        #: save (see mlx_modelfree.VerifyCost); tests that need every proposal verified turn it off
        self.cost_gate = True
        #: classic drafter: the draft length follows the measured acceptance and costs per round,
        #: up to tokens per round (see app.core.speculative.depth); False drafts tokens per round
        #: every round (a fixed depth, for benchmarks and tests that compare depths)
        self.adaptive_depth = True
        #: classic drafter: what chooses each round's depth, with what it measured so far (kept
        #: across requests; created at the first request, replaced when its settings change)
        self.depth_control: DepthControl | None = None
        #: what each kind of pass costs in plain steps, learned from this engine's answers (see
        #: :class:`~app.core.speculative.speedup.PlainSteps`; prices the predictions)
        self.plain_steps = PlainSteps()
        #: the classic drafter's acceptance by draft position, from the rounds it ran
        self.acceptance = AcceptanceByPosition()
        #: the model-free methods' replays over the last complete answer, by method (what its
        #: ``alternatives`` rest on)
        self.last_replays: dict[str, ModelFreeReplay] = {}
        #: the loaded target reads images (set on the MLX thread by the load)
        self._images = False
        self._state: Loaded | None = None
        #: the loaded state as a request switched to another speculation runs it, per choice (made
        #: on the MLX thread at the first such request, kept: the model-free caches and their
        #: measured costs persist across requests)
        self._views: dict[str, Loaded] = {}
        #: the one thread that touches MLX (the shared owner thread of every engine)
        self._worker = EngineWorker(f"tandem-mlx-{next(_thread_ids)}", "MLX", free=self._release)

    # --- loading ------------------------------------------------------------------------------

    @classmethod
    def load(cls, req: LoadRequest, progress: Callable[[str], None] | None = None) -> MLXEngine:
        """Load target (+ drafter) on a new MLX thread; the pair is validated before any weights.

        ``progress`` is called on the caller's thread with short status lines.
        """
        avail = availability()
        if not avail.ok:
            raise EngineUnavailable(f"Apple MLX is unavailable: {avail.reason}.")
        engine = cls(req)
        engine._worker.run_load(engine._load_job, progress)  # closes the engine when it fails
        for note in engine.notes:
            log.info("MLX: %s", note)
        return engine

    def _load_job(self, say: Callable[[str], None]) -> None:
        state = load_pair(self.request, say)
        plan = self.plan = state.plan
        self.notes = state.notes
        self.spec_kind = plan.kind
        self.draft_tokens = plan.draft_tokens
        self.default_draft_tokens = plan.default_draft_tokens
        self.greedy_only = state.greedy_only
        self._images = state.processor is not None
        self._state = state

    # --- what Tandem's own loops keep across requests (steps.LoopSettings) -----------------------
    def depth(self, ceiling: int) -> DepthControl:
        control = self.depth_control
        if control is None or control.ceiling != ceiling or control.adaptive != self.adaptive_depth:
            control = self.depth_control = DepthControl(ceiling, adaptive=self.adaptive_depth)
        return control

    def new_draft_stats(self) -> dict[str, float]:
        self.last_draft_stats = {}
        return self.last_draft_stats

    # --- generation ---------------------------------------------------------------------------

    def offers(self) -> list[Speculation]:
        """What one request may run without a reload (:attr:`GenerateRequest.speculation`): off,
        the loaded drafter (it stays loaded), and the model-free methods (the target alone, in
        Tandem's own loop). Another drafter needs a reload."""
        loaded = self.spec_kind
        names = dict.fromkeys([per_request.OFF, *([loaded] if loaded else []), *_MODEL_FREE])
        return [Speculation(name) for name in names]

    def _choice(self, request: GenerateRequest) -> str | None:
        """The name of the request's speculation when it differs from what was loaded, else None."""
        choice = request.speculation
        if choice is None or choice == per_request.running(self.spec_kind):
            return None
        offers = self.offers()
        if choice not in offers:
            raise GenerationError(
                f"The MLX engine cannot switch to {choice.name!r} without a reload; a request may run "
                f"{', '.join(map(str, offers))}.",
                hint="Choose one of those, or load the model again with that speculation.",
            )
        return choice.name

    async def stream(self, request: GenerateRequest) -> AsyncIterator[Event]:
        """:meth:`generate` read from an event loop: the job runs on the engine's one owner thread
        (MLX computes in-process), its events reach the loop with no thread per request."""
        async for event in self._worker.astream(self._job_for(request)):
            yield event

    def _job_for(self, request: GenerateRequest) -> Callable[[Job[Event]], None]:
        """Check a request against the loaded model (typed errors here, before it is queued); the
        job that answers it on the owner thread."""
        messages, sampling, top_logprobs = request.messages, request.sampling, request.top_logprobs
        tools, response_format = request.tools, request.response_format
        if self._worker.closed:
            raise EngineClosed()
        choice = self._choice(request)  # None: the loaded configuration
        loaded_drafter = choice is None
        if response_format is not None:
            raise GenerationError(structured_refusal("the MLX engine"))
        if has_images(messages) and not self.supports_images:
            raise ImagesUnsupportedError(Path(self.model_path).name)
        if isinstance(top_logprobs, bool) or not isinstance(top_logprobs, int) or top_logprobs < 0:
            raise GenerationError(
                f"top_logprobs must be 0 or a positive whole number (got {top_logprobs!r})."
            )
        if loaded_drafter and self.greedy_only and sampling.temperature > 0:
            raise GenerationError(
                f"This drafter ({self.spec_kind}) supports greedy decoding only; temperature "
                f"{sampling.temperature:g} cannot be used with it.",
                hint="Set the temperature to 0, or turn speculative decoding off to sample.",
            )
        plan = self.plan
        if (
            loaded_drafter
            and sampling.repeat_penalty != 1.0
            and plan is not None
            and plan.backend == "vlm"
            and plan.kind
            and plan.kind not in SUFFIX_METHODS  # Tandem's own loop applies the penalty every step
        ):
            # mlx-vlm applies logits processors to the prefill token only, not to its
            # speculative rounds: the penalty would silently stop after the first token.
            raise GenerationError(
                f"mlx-vlm does not apply a repeat penalty in its speculative rounds ({self.spec_kind}); "
                f"a repeat penalty of {sampling.repeat_penalty:g} cannot be used with this drafter.",
                hint="Set the repeat penalty to 1 (off), or turn speculative decoding off.",
            )
        msgs = list(messages)
        tool_list = [dict(t) for t in tools] if tools else None  # the template takes dicts
        stop = request.stop

        def answer(job: Job[Event]) -> None:
            stopped = job.stopped if stop is None else lambda: job.stopped() or stop.cancelled
            self._generate_job(job, stopped, msgs, sampling, top_logprobs, tool_list, choice)

        return answer

    def _generate_job(
        self,
        job: Job[Event],
        stopped: Callable[[], bool],
        messages: list[ChatMessage],
        sampling: Sampling,
        top_logprobs: int,
        tools: list[dict[str, Any]] | None = None,
        choice: str | None = None,
    ) -> None:
        state = self._state_for(choice)
        for ev in self._run(state, messages, sampling, stopped, top_logprobs, tools):
            job.emit(ev)

    def _state_for(self, choice: str | None) -> Loaded:
        """On the MLX thread: the loaded state as a request choosing ``choice`` runs it (None: as
        loaded). The same weights and tokenizer; no drafter for off and the model-free methods, a
        suffix cache of its own for each model-free method."""
        state = self._state
        if state is None:
            raise EngineClosed()
        if choice is None:
            return state
        view = self._views.get(choice)
        if view is None:
            kind = None if choice == per_request.OFF else choice
            default = default_depth("mlx", "", 0.0, kind).value if kind in SUFFIX_METHODS else None
            view = copy.copy(state)
            view.plan = replace(
                state.plan, kind=kind, num_speculative_tokens=None, default_draft_tokens=default
            )
            view.drafter, view.greedy_only = None, False
            view.suffix, view.store, view.cost = None, None, None
            if kind in SUFFIX_METHODS:
                open_suffix_cache(view, view.plan)
            self._views[choice] = view
        return view

    @property
    def model_path(self) -> str:
        return self.request.model_path

    @property
    def supports_tools(self) -> bool:
        """The tokenizer's chat template renders ``tools``."""
        return True

    @property
    def supports_images(self) -> bool:
        """The target is an mlx-vlm model with a vision tower and an image processor (never an
        mlx-lm text model)."""
        return self._images

    @property
    def supports_structured_output(self) -> bool:
        """MLX samples without a grammar: JSON / schema output cannot be enforced."""
        return False

    @property
    def candidates_with_speculation(self) -> bool:
        """Whether top candidates (``top_logprobs``) are recorded with speculation on too: Tandem's
        model-free loop and mlx-lm's classic loop expose the target's log-probabilities."""
        plan = self.plan
        return plan is not None and (plan.kind in SUFFIX_METHODS or plan.kind == "draft" or plan.kind is None)

    @property
    def n_ctx(self) -> int:
        """The context length asked at load: the prompt and the answer must fit in it."""
        return self.request.n_ctx

    def count_prompt_tokens(
        self, messages: Sequence[ChatMessage], tools: Sequence[Mapping[str, Any]] | None = None
    ) -> int:
        """Prompt size in tokens with the chat template applied (as ``generate`` builds it).

        Images count exactly when the target reads them (the processor lays the prompt out with
        each image's soft tokens); when an image cannot be read, or the model cannot see images,
        the text is counted and each image reckoned with :func:`app.core.images.estimated_tokens`.
        Runs on the MLX thread like every use of the tokenizer; used for context trimming.
        """
        msgs = list(messages)
        tool_list = [dict(t) for t in tools] if tools else None

        def count() -> int:
            state = self._state
            if state is None:
                raise EngineClosed()
            if not has_images(msgs):
                return len(self._prompt_ids(state, msgs, tool_list))
            if state.processor is not None:
                try:
                    return len(self._vision_prompt(state, msgs, tool_list).ids)
                except GenerationError as exc:
                    log.info("counting with estimated image sizes: %s", exc)
            text = [cast(ChatMessage, text_only(m)) for m in msgs]
            return len(self._prompt_ids(state, text, tool_list)) + estimated_tokens(msgs)

        return self._worker.call(count)

    def _vision_prompt(
        self, state: Loaded, messages: list[ChatMessage], tools: list[dict[str, Any]] | None = None
    ) -> VisionPrompt:
        from app.core.engines.mlx.vision import build_prompt

        return build_prompt(
            state.processor, state.plan.target_config, messages, tools, self.request.chat_template or None
        )

    def _prompt_ids(
        self, state: Loaded, messages: list[ChatMessage], tools: list[dict[str, Any]] | None = None
    ) -> list[int]:
        tok = state.tokenizer
        template = self.request.chat_template or None
        if template is None and not getattr(tok, "chat_template", None):
            text = "".join(f"{m['role']}: {m['content']}\n" for m in messages) + "assistant: "
            return list(tok.encode(text))
        try:
            ids = tok.apply_chat_template(
                [dict(m) for m in messages],
                chat_template=template,
                add_generation_prompt=True,
                tokenize=True,
                return_dict=False,
                **({"tools": tools} if tools else {}),
            )
        except Exception as exc:
            raise GenerationError(f"The chat template failed on these messages: {exc}") from exc
        return [int(i) for i in ids]

    def _candidates(self, state: Loaded, logprobs: Any, k: int) -> list[TokenCandidate]:
        """The ``k`` most likely tokens of one step, best first; MLX thread only."""
        import mlx.core as mx

        flat = logprobs.reshape(-1).astype(mx.float32)
        k = min(k, int(flat.shape[0]))
        top: Any = mx.argpartition(-flat, kth=k - 1)[:k]  # Any: mlx types tolist() as a union
        pairs = sorted(zip(top.tolist(), flat[top].tolist(), strict=True), key=lambda p: -p[1])
        tok = state.tokenizer
        return [TokenCandidate(int(i), str(tok.decode([int(i)])), float(lp)) for i, lp in pairs]

    def _run(
        self,
        state: Loaded,
        messages: list[ChatMessage],
        sampling: Sampling,
        stopped: Callable[[], bool],
        top_logprobs: int = 0,
        tools: list[dict[str, Any]] | None = None,
    ) -> Iterator[Event]:
        """The generate steps, on the MLX thread: ``stopped()`` is checked before every token.

        The time to the first token (``prompt_ms``) starts before the prompt is built: with images
        it covers reading and preparing them, and the vision tower (run by the prefill).
        """
        t0 = time.perf_counter()
        vision = self._vision_prompt(state, messages, tools) if has_images(messages) else None
        prompt = vision.ids if vision is not None else self._prompt_ids(state, messages, tools)
        n_ctx = self.request.n_ctx
        if len(prompt) >= n_ctx:
            raise ContextLengthError(len(prompt), n_ctx)
        # Generation stops at the context's end like llama.cpp's does (finish reason "length").
        budget = min(sampling.max_tokens, n_ctx - len(prompt))
        tok = state.tokenizer
        decoder = IncrementalDecoder(lambda ids: str(tok.decode(list(ids), skip_special_tokens=True)))
        stops = StopScanner(sampling.stop)
        rounds = RoundAccountant() if state.plan.kind is not None else None
        vlm_rounds = (
            VlmRoundReader(state.drafter)
            if state.plan.backend == "vlm" and state.drafter is not None
            else None
        )
        candidates: list[list[TokenCandidate]] | None = [] if top_logprobs > 0 else None
        ids: list[int] = []
        n_tokens = 0  # completion tokens, the end-of-generation token included
        reason: FinishReason = "length"
        t_first: float | None = None

        n_rounds = 0
        drafted_total = 0
        ended_on: int | None = None  # the end-of-generation token the answer ended on
        #: the target's passes after the first token, timed as the steps return them: a round's
        #: first token carries its compute, its accepted tokens and the target's own follow it
        passes: list[Pass] = []
        room = 0  # tokens the open pass may still emit (its accepted drafts + the target's token)
        #: accountant index of the first round whose draft count is unknown (mlx-vlm only)
        first_unknown: int | None = None

        def closed_rounds() -> Iterator[Round]:
            nonlocal n_rounds, drafted_total
            if rounds is not None:
                for r in rounds.pop_closed():
                    n_rounds += 1
                    known = first_unknown is None or r.index < first_unknown
                    drafted = r.drafted if known else 0
                    drafted_total += drafted
                    yield Round(r.index, drafted, r.accepted, r.emitted, drafted_known=known)

        steps = token_steps(
            state, prompt, sampling, budget, vlm_rounds, self, key_for_messages(messages), vision, stopped
        )
        try:
            while True:
                if stopped():
                    reason = "cancelled"
                    break
                t_step = time.perf_counter()
                try:
                    (token, logprobs), new_round = next(steps)
                except StopIteration:
                    break
                except PrefillStopped:  # Stop while the prompt was read: nothing generated
                    reason = "cancelled"
                    break
                step_ms = (time.perf_counter() - t_step) * 1000.0
                if t_first is None:
                    t_first = time.perf_counter()
                elif new_round is not None:
                    passes.append(Pass(new_round[0], 1, step_ms))
                    room = new_round[1]  # its accepted drafts, then the target's own token
                elif room > 0 and passes:
                    last = passes[-1]
                    passes[-1] = Pass(last.drafted, last.tokens + 1, last.ms + step_ms)
                    room -= 1
                else:
                    passes.append(Pass(0, 1, step_ms))
                if candidates is not None:
                    if logprobs is None:  # mlx-vlm's speculative rounds expose no logits
                        candidates = None
                    else:
                        candidates.append(self._candidates(state, logprobs, top_logprobs))
                if rounds is not None and new_round is not None:
                    rounds.start_round(*new_round)
                    if vlm_rounds is not None and not vlm_rounds.last_round_known and first_unknown is None:
                        first_unknown = rounds.round_count  # the index the round just opened will get
                from_draft = rounds.token() if rounds is not None else False
                n_tokens += 1
                yield from closed_rounds()
                if token in state.eos_ids:
                    ended_on = token
                    # Counted (the model produced it, and its round emitted it) but not streamed:
                    # it is not in token_ids and carries only the text still held back.
                    reason = "stop"
                    yield TextDelta(stops.feed(decoder.flush()) + stops.flush(), 1, from_draft)
                    break
                ids.append(token)
                piece = stops.feed(decoder.add(token))
                if n_tokens >= budget and not stops.stopped:
                    piece += stops.feed(decoder.flush()) + stops.flush()
                yield TextDelta(piece, 1, from_draft)
                if stops.stopped:
                    reason = "stop"
                    break
                if n_tokens >= budget:
                    break
        finally:
            steps.close()
        t_end = time.perf_counter()
        tail = "" if stops.stopped else stops.feed(decoder.flush()) + stops.flush()
        if tail:
            yield TextDelta(tail, 0, False)
        if rounds is not None:
            rounds.finish()
            yield from closed_rounds()
        first = t_first if t_first is not None else t_end
        known = tuple(passes) if vlm_rounds is None or vlm_rounds.drafted_known else None
        alternatives: tuple[Alternative, ...] | None = None
        if known and reason in ("stop", "length"):
            answer = [*ids, *([ended_on] if ended_on is not None else [])]
            try:
                alternatives = self._alternatives(state, prompt, answer, budget, sampling, known)
            except Exception:  # a prediction never costs the answer
                log.warning("the predictions of this answer failed", exc_info=True)
        yield Finished(
            reason=reason,
            prompt_tokens=len(prompt),
            completion_tokens=n_tokens,
            prompt_ms=(first - t0) * 1000.0,
            decode_ms=(t_end - first) * 1000.0,
            drafted_total=drafted_total,
            accepted_total=rounds.accepted_total if rounds is not None else 0,
            rounds=n_rounds,
            token_ids=ids,
            drafted_known=vlm_rounds is None or vlm_rounds.drafted_known,
            candidates=candidates,
            # rounds of unknown draft counts cannot be priced by their depth
            passes=known,
            alternatives=alternatives,
        )

    # --- what every configuration would have done -------------------------------------------------

    def _view_of(self, label: str) -> Loaded:
        """The loaded state a request choosing ``label`` runs (MLX thread)."""
        return self._state_for(None if label == per_request.running(self.spec_kind).name else label)

    def _alternatives(
        self,
        state: Loaded,
        prompt: list[int],
        answer: list[int],
        budget: int,
        sampling: Sampling,
        passes: tuple[Pass, ...],
    ) -> tuple[Alternative, ...] | None:
        """On the MLX thread, after a complete answer: what each configuration this engine offers
        would have done on it. The model-free methods are replayed from their caches as they are
        now (:mod:`app.core.engines.mlx.replay`; an estimate when the answer was sampled or their
        drafts go through the cost gate): prompt lookup always, suffix decoding once it answered a
        request (its stored corpus is read when it first runs, not for a prediction). The loaded
        drafter is estimated from its acceptance by position, and all are priced by what this
        engine's passes were measured to cost (:mod:`app.core.speculative.predict`). Then the
        answer's passes are learned from. None when nothing can be priced yet."""
        label = per_request.running(state.plan.kind).name
        replays: dict[str, ModelFreeReplay] = {}
        for method in _MODEL_FREE:
            if method == label:
                continue
            stored = method == "suffix" and method != per_request.running(self.spec_kind).name
            if stored and method not in self._views:
                continue  # not read yet (see above)
            view = self._view_of(method)
            if view.suffix is None:
                continue
            gate = (view.cost or VerifyCost()) if self.cost_gate else None
            replays[method] = replay_model_free(
                method,
                view.suffix,
                prompt,
                answer,
                max_draft=view.plan.draft_tokens or 1,
                budget=budget,
                cost=gate,
            )
        self.last_replays = replays
        steps = self.plain_steps
        drafter = self.spec_kind if self.spec_kind not in (None, *_MODEL_FREE) else None
        step = own_plain_step(passes) or steps.plain_step_of(label, passes)
        alternatives: tuple[Alternative, ...] | None = None
        if step is not None:
            loaded = self._state
            estimated: dict[str, tuple[int | None, Estimate]] = {}
            expected = self.acceptance.estimate(drafter) if drafter is not None else None
            if drafter is not None and expected is not None and loaded is not None:
                estimated[drafter] = (loaded.plan.draft_tokens, expected)
            alternatives = (
                tuple(
                    predict(
                        steps,
                        step,
                        len(answer),
                        (label, state.plan.draft_tokens if state.plan.kind else None, passes),
                        {m: (self._view_of(m).plan.draft_tokens, list(r.rounds)) for m, r in replays.items()},
                        _MODEL_FREE,
                        estimated,
                        sampled=sampling.temperature > 0,
                    )
                )
                or None
            )
            if alternatives is not None and self.cost_gate:
                # the gate cuts drafts by the costs it measures as the method runs: a replay from
                # its costs as they stand is an estimate
                alternatives = tuple(
                    replace(a, basis="estimated") if a.speculation in replays else a for a in alternatives
                )
        steps.observe(label, passes)  # after the predictions: their error is honest
        if label == drafter:
            self.acceptance.observe(label, "", passes)
        return alternatives

    # --- shutdown -----------------------------------------------------------------------------

    def close(self) -> None:
        """Stop any running generation and release target and drafter; returns within a second.

        A prefill that cannot be interrupted ends in the background, then the thread frees.
        """
        self._worker.close()

    def _release(self) -> None:
        """The worker's free step, on the MLX thread as it ends."""
        self._state = None
        self._views.clear()
        try:
            import mlx.core as mx

            mx.clear_cache()
        except Exception:  # releasing must not fail a close
            log.debug("mx.clear_cache failed", exc_info=True)
        _clear_thread_streams()

    def __enter__(self) -> MLXEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
