"""Tandem's own MLX decode loop for a classic drafter, with a draft length chosen per round.

A classic drafter is a smaller language model with the target's vocabulary (mlx-lm models both).
Each round the drafter proposes ``k`` tokens greedily, one pass each; the target then runs the last
emitted token and the ``k`` drafts in one forward pass, samples its own token at every position
(greedy: its argmax) and keeps the drafts while they equal those samples; the first sample that
differs (or the one after the last draft) is the round's own token. Every emitted token is the
target's own sample, so greedy output is plain decoding's and sampled output follows the target's
distribution. Both KV caches keep only the accepted positions.

``k`` comes from :class:`~app.core.speculative.depth.DepthControl` (kept by the engine across
requests): the loop times each drafting and each verification and reports them, the controller
picks the depth with the most tokens per second, ``0`` being a plain target step. The drafter
reads the prompt only when a round first drafts (lazily: a request that never drafts costs the
drafter nothing, and the first token comes as fast as without one). Where drafting does not pay,
the controller settles on plain decoding (for the rest of a request, or for whole requests with
a re-measuring one now and then) and the loop hands over to mlx-lm's pipelined ``generate_step``
on the same KV cache, so such a request runs at plain speed. mlx-lm's own
``speculative_generate_step`` drafts a fixed number every round; on a machine where a drafter
barely pays, a fixed depth loses to plain decoding (docs/benchmarks.md "MLX").

MLX thread only.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Iterator, Sequence
from typing import Any

from app.core.engines.mlx.modelfree import LmTarget, sample_position
from app.core.engines.mlx.stream import TokenStep
from app.core.speculative.depth import DepthControl


class LmDrafter(LmTarget):
    """The drafter's model and KV cache; ``fed`` counts the committed tokens it has seen."""

    def __init__(self, model: Any) -> None:
        super().__init__(model)
        self.fed = 0

    def trim(self, n: int) -> None:
        """Drop the last ``n`` positions of the cache."""
        from mlx_lm.models.cache import trim_prompt_cache

        if n > 0:
            trim_prompt_cache(self.cache, n)


def drafter_steps(
    target: LmTarget,
    drafter: LmDrafter,
    prompt: list[int],
    *,
    budget: int,
    control: DepthControl,
    sampler: Callable[[Any], Any],
    processors: Sequence[Callable[[Any, Any], Any]],
) -> Generator[TokenStep[tuple[int, Any]], None, None]:
    """Yield ((token, log-probabilities), round or None): ``(drafted, accepted)`` on each round's
    first token, ``(0, 0)`` on a plain step's token."""
    import mlx.core as mx

    history = list(prompt)  # prompt + committed tokens (what the processors see)

    def choose(logits: Any, before: list[int]) -> tuple[Any, Any]:
        return sample_position(logits, before, sampler, processors)

    def draft(k: int) -> tuple[list[int], float]:
        """``k`` greedy drafts after ``history``, and the seconds the drafter spent catching up
        on committed tokens it had not seen beyond the usual one or two (the prompt at the first
        drafting round, the tokens of plain steps): not part of what a drafted token costs."""
        missing = history[drafter.fed :]
        catch_up = 0.0
        if len(missing) > 2:
            # the prefill evaluates all but the last token in chunks; the last one's pass stays
            # lazy, evaluated with the drafts
            t0 = time.perf_counter()
            logits = drafter.prefill(missing)
            catch_up = time.perf_counter() - t0
        else:
            logits = drafter.forward(missing)[-1]
        drafter.fed = len(history)
        toks: list[Any] = []
        for i in range(k):
            nxt = mx.argmax(logits, axis=-1).astype(mx.uint32)
            toks.append(nxt)
            if i + 1 < k:
                logits = drafter.step(nxt.reshape(1))
        mx.eval(toks)
        return [int(t.item()) for t in toks], catch_up

    def plain_rest(first: list[int], left: int) -> Iterator[TokenStep[tuple[int, Any]]]:
        """The library's own pipelined plain decoding from ``first`` (tokens the target has not
        seen) on, in the target's cache: a request where drafting does not pay runs at plain speed."""
        from mlx_lm.generate import generate_step

        steps = generate_step(
            mx.array(first, dtype=mx.uint32),
            target.model,
            max_tokens=left,
            sampler=sampler,
            logits_processors=list(processors) or None,
            prompt_cache=target.cache,
        )
        try:
            for tok, logprobs in steps:
                yield (int(tok), logprobs), (0, 0)
        finally:
            steps.close()

    if not control.start_request():
        yield from plain_rest(prompt, budget)
        return
    logits = target.prefill(prompt)
    sample, logprobs = choose(logits, history)
    mx.eval(sample, logprobs)
    y = int(sample.item())
    history.append(y)
    yield (y, logprobs), (0, 0)
    produced = 1
    while produced < budget:
        if control.settled_plain and not processors:
            # (a repeat penalty reads the whole history, which the library's loop would not see)
            yield from plain_rest([y], budget - produced)
            return
        k = control.next_depth(budget - produced)
        if k == 0:
            t0 = time.perf_counter()
            sample, logprobs = choose(target.step(mx.array([y], dtype=mx.uint32)), history)
            mx.eval(sample, logprobs)
            control.observe_plain(time.perf_counter() - t0)
            y = int(sample.item())
            history.append(y)
            produced += 1
            yield (y, logprobs), (0, 0)
            continue
        t0 = time.perf_counter()
        drafts, catch_up = draft(k)
        t1 = time.perf_counter()
        rows = target.forward([y, *drafts])
        picks = [choose(rows[i], [*history, *drafts[:i]]) for i in range(k + 1)]
        mx.eval(picks)
        t2 = time.perf_counter()
        tokens = [int(s.item()) for s, _lp in picks]
        accepted = 0
        while accepted < k and tokens[accepted] == drafts[accepted]:
            accepted += 1
        control.observe_round(k, accepted, t1 - t0 - catch_up, t2 - t1)
        target.keep(accepted + 1)
        # The drafter saw history + drafts[:k-1]; keep what was accepted of them.
        drafter.trim((k - 1) - min(accepted, k - 1))
        drafter.fed = len(history) + min(accepted, k - 1)
        emitted = tokens[: accepted + 1]
        for i, tok in enumerate(emitted):
            history.append(tok)
            produced += 1
            yield (tok, picks[i][1]), ((k, accepted) if i == 0 else None)
        y = emitted[-1]
