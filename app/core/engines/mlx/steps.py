"""The tokens of one MLX generation, from the library that runs the pair.

:func:`token_steps` yields each new token (with the log-probabilities it was chosen from, when the
library exposes them) and the speculation round that started at it: mlx-vlm's own loop (with its
drafter, rounds read by :class:`VlmRoundReader`), mlx-lm's plain loop, Tandem's classic drafter
loop (:mod:`app.core.engines.mlx.drafted`) or its model-free loop
(:mod:`app.core.engines.mlx.modelfree`). The engine turns the steps into events.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Generator
from typing import Any, Protocol

from app.core.engines.base import Sampling
from app.core.engines.mlx.loading import Loaded
from app.core.engines.mlx.stream import TokenStep
from app.core.engines.mlx.vision import VisionPrompt
from app.core.speculative.depth import DepthControl
from app.core.speculative.options import SUFFIX_METHODS
from app.core.speculative.suffix import Record

log = logging.getLogger(__name__)

#: How many recent tokens the repeat penalty looks at: llama.cpp's default ``repeat_last_n``, so
#: both engines penalise the same window (mlx-lm and mlx-vlm default to 20).
REPEAT_PENALTY_WINDOW = 64
#: (token id, the log-probabilities it was chosen from when the library exposes them, else None)
Token = tuple[int, Any]


class LoopSettings(Protocol):
    """What Tandem's own loops keep across requests (the engine holds it)."""

    #: model-free methods: cut drafts where verifying costs more than it is expected to save
    cost_gate: bool

    def depth(self, ceiling: int) -> DepthControl:
        """The classic drafter's depth control for tokens per round up to ``ceiling``."""
        ...

    def new_draft_stats(self) -> dict[str, float]:
        """A fresh record of the model-free loop's draft proposals for this request."""
        ...


def _lifetime_drafted(drafter: Any) -> int | None:
    value = getattr(drafter, "speculative_total_drafted", None)
    return int(value) if isinstance(value, int | float) else None


class VlmRoundReader:
    """(drafted, accepted) of each new mlx-vlm round, read from the drafter's own counters.

    mlx-vlm appends to ``accept_lens`` once per round; most drafters also keep ``draft_lens``, and
    recent mlx-vlm keeps lifetime totals (``speculative_total_drafted``) for every drafter. The
    draft count comes from ``draft_lens``, else from the lifetime total's step; when neither is
    there it is unknown and :attr:`drafted_known` turns False (a draft count is never assumed equal
    to the accepted count: that reported a false 100% acceptance).
    """

    def __init__(self, drafter: Any) -> None:
        self.drafter = drafter
        self.drafted_known = True
        #: whether the round returned by the last :meth:`poll` has a known draft count
        self.last_round_known = True
        self._seen = 0
        # mlx-vlm resets these when its rounds start, which is after the first token.
        drafter.accept_lens = []
        if hasattr(drafter, "draft_lens"):
            drafter.draft_lens = []
        self._total = _lifetime_drafted(drafter)

    def poll(self) -> tuple[int, int] | None:
        """The round that starts at the token just produced, or None if no round started."""
        accepts = self.drafter.accept_lens
        if len(accepts) < self._seen:  # mlx-vlm reset the list at its first round
            self._seen = 0
        if len(accepts) <= self._seen:
            return None
        new_rounds = len(accepts) - self._seen
        self._seen = len(accepts)
        accepted = int(accepts[-1])
        drafts = getattr(self.drafter, "draft_lens", None)
        total = _lifetime_drafted(self.drafter)
        drafted: int | None = None
        if isinstance(drafts, list) and len(drafts) == len(accepts):
            drafted = int(drafts[-1])
        elif total is not None and self._total is not None and new_rounds == 1:
            drafted = total - self._total
        self._total = total
        self.last_round_known = drafted is not None and drafted >= max(accepted, 1)  # drafts >= 1
        if not self.last_round_known:
            self.drafted_known = False
            return accepted, accepted  # for the from-draft marks only; reported as unknown
        assert drafted is not None
        return drafted, accepted


def token_steps(
    state: Loaded,
    prompt: list[int],
    sampling: Sampling,
    budget: int,
    vlm_rounds: VlmRoundReader | None,
    loop: LoopSettings,
    conversation: str | None = None,
    vision: VisionPrompt | None = None,
    stopped: Callable[[], bool] | None = None,
) -> Generator[TokenStep[Token], None, None]:
    """Yield ((token, logprobs or None), round started at this token) from the right library.

    ``budget`` is the number of new tokens that fit (max tokens, cut to the context);
    ``loop`` is what Tandem's own loops keep across requests; ``vision`` is the prompt's images
    (mlx-vlm targets only); ``stopped`` is checked between the prefill's chunks where the loop
    allows it (raises ``PrefillStopped``). MLX thread only.
    """
    import mlx.core as mx

    plan = state.plan
    if sampling.seed is not None:
        mx.random.seed(sampling.seed)
    top_p = sampling.top_p if 0.0 < sampling.top_p < 1.0 else None
    penalty = sampling.repeat_penalty if sampling.repeat_penalty != 1.0 else None
    if plan.kind in SUFFIX_METHODS:
        yield from _model_free_steps(state, prompt, sampling, budget, loop, conversation, vision, stopped)
        return
    if plan.backend == "vlm":
        from mlx_vlm.generate.ar import generate_step as vlm_step

        kwargs: dict[str, Any] = {}
        if vlm_rounds is not None:
            kwargs = {
                "draft_model": vlm_rounds.drafter,
                "draft_kind": plan.kind,
                "draft_block_size": plan.vlm_block_size,
            }
        if vision is not None:
            kwargs.update(vision.extra)  # e.g. the token types the vision attention reads
        gen = vlm_step(
            mx.array([prompt]),
            state.target,
            vision.pixel_values if vision is not None else None,
            vision.mask if vision is not None else None,
            max_tokens=budget,
            temperature=sampling.temperature,
            top_p=top_p if top_p is not None else 1.0,
            top_k=sampling.top_k,
            repetition_penalty=penalty,
            repetition_context_size=REPEAT_PENALTY_WINDOW,
            seed=sampling.seed,
            **kwargs,
        )
        try:
            for tok, logprobs in gen:
                rnd = vlm_rounds.poll() if vlm_rounds is not None else None
                value: Any = tok
                yield (int(value[0] if isinstance(value, list) else value), logprobs), rnd
        finally:
            gen.close()
        return

    assert vision is None, "mlx-lm targets read no images (refused in generate)"
    from mlx_lm.generate import generate_step as lm_step
    from mlx_lm.sample_utils import make_logits_processors, make_sampler

    sampler = make_sampler(temp=sampling.temperature, top_p=top_p or 0.0, top_k=sampling.top_k)
    processors = make_logits_processors(
        repetition_penalty=penalty, repetition_context_size=REPEAT_PENALTY_WINDOW
    )
    prompt_arr = mx.array(prompt, dtype=mx.uint32)
    if state.drafter is None:
        from app.core.engines.mlx.modelfree import check_stop, prefill_chunk

        plain = lm_step(
            prompt_arr,
            state.target,
            max_tokens=budget,
            sampler=sampler,
            logits_processors=processors,
            # chunks of the prompt with a stop check between them (mlx-lm's own 2,048 read a
            # long prompt in one uninterruptible pass)
            prefill_step_size=prefill_chunk(),
            prompt_progress_callback=lambda _done, _total: check_stop(stopped),
        )
        try:
            for tok, logprobs in plain:
                yield (int(tok), logprobs), None
        finally:
            plain.close()
        return
    from app.core.engines.mlx.drafted import LmDrafter, drafter_steps
    from app.core.engines.mlx.modelfree import LmTarget

    control = loop.depth(plan.draft_tokens or 1)
    yield from drafter_steps(
        LmTarget(state.target, stopped),
        LmDrafter(state.drafter),
        prompt,
        budget=budget,
        control=control,
        sampler=sampler,
        processors=processors,
    )


def _model_free_steps(
    state: Loaded,
    prompt: list[int],
    sampling: Sampling,
    budget: int,
    loop: LoopSettings,
    conversation: str | None,
    vision: VisionPrompt | None = None,
    stopped: Callable[[], bool] | None = None,
) -> Generator[TokenStep[Token], None, None]:
    """Suffix decoding / prompt lookup in Tandem's own loop; MLX thread only."""
    from mlx_lm.sample_utils import make_logits_processors, make_sampler

    from app.core.engines.mlx.modelfree import LmTarget, VerifyCost, VlmTarget, model_free_steps

    plan = state.plan
    assert state.suffix is not None
    top_p = sampling.top_p if 0.0 < sampling.top_p < 1.0 else None
    penalty = sampling.repeat_penalty if sampling.repeat_penalty != 1.0 else None
    sampler = make_sampler(temp=sampling.temperature, top_p=top_p or 0.0, top_k=sampling.top_k)
    processors = make_logits_processors(
        repetition_penalty=penalty, repetition_context_size=REPEAT_PENALTY_WINDOW
    )
    target = (
        LmTarget(state.target, stopped) if plan.backend == "lm" else VlmTarget(state.target, vision, stopped)
    )
    store = state.store

    def persist(tail: list[int], response: list[int]) -> None:
        if store is not None:
            try:
                store.append(Record(tail, response, conversation))
            except OSError as exc:  # a full disk must not fail the answer
                log.warning("could not store the learned answer: %s", exc)

    stats = loop.new_draft_stats()
    if state.cost is None:
        state.cost = VerifyCost()
    yield from model_free_steps(
        target,
        state.suffix,
        prompt,
        budget=budget,
        max_draft=plan.draft_tokens or 1,
        use_global=plan.kind == "suffix",
        sampler=sampler,
        processors=processors,
        learn=plan.kind == "suffix",
        conversation=conversation,
        on_learned=persist,
        stats=stats,
        cost=state.cost if loop.cost_gate else None,
    )
