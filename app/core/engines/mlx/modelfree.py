"""Tandem's own MLX decode loop for model-free drafts: suffix decoding and prompt lookup.

Same verify path as classic drafts: each round feeds the last emitted token and the proposed draft
to the target in one forward pass, samples the target's own token at every position (greedy: its
argmax) and accepts drafted tokens while they equal those samples; the first sample that differs
(or the one after the last draft) is the target's own token of the round. With sampling a drafted
token is accepted only where the target's sample equals it, so the output follows the target's
distribution exactly as plain decoding does. The KV cache keeps the accepted positions only.

The draft length is dynamic: the suffix cache proposes only as far as it is confident, bounded by
tokens per round, and capped at ``budget - produced - 1`` (the round always emits one more token
of the target's, so a longer draft would be verified only to be thrown away). ``budget`` is
max tokens cut to the context left, so the cap covers the context too.

Rounds without a draft are pipelined exactly as mlx-lm's plain ``generate_step`` is (the next
one-token pass is queued with ``mx.async_eval`` before the current token is read), so a pass the
tree has nothing for costs what a plain step costs; see :func:`model_free_steps`.

What the corpus learns is decided here: the prompt at the start, each round's tokens once the
consumer has taken them (the draft for the next round sees them), and in ``finally`` the request
is released with exactly the tokens consumed: the tail after the last drafting step, the committed
part of a cancelled or stopped answer, and an end-of-generation token the consumer stopped at.
MLX thread only.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Generator, Iterator, Sequence
from typing import Any

from app.core.engines.mlx.stream import TokenStep
from app.core.engines.mlx.vision import VisionPrompt, prefill_with_images
from app.core.speculative.suffix import SuffixCache
from app.core.speculative.suffix_tree import Draft

#: prompt tokens per prefill forward pass on a GPU (bounded memory for long prompts)
PREFILL_CHUNK = 512
#: ... and on the CPU (``mlx[cpu]``), where a pass costs in proportion to its tokens (a 512-token
#: pass of the F32 135M model took over a minute here): Stop is heard between chunks, so a chunk
#: stays a few seconds at most, and the CPU gains little from longer passes
CPU_PREFILL_CHUNK = 32


def prefill_chunk() -> int:
    """Prompt tokens per prefill pass on MLX's default device (see the two constants)."""
    import mlx.core as mx

    return PREFILL_CHUNK if mx.default_device().type == mx.gpu else CPU_PREFILL_CHUNK


_request_ids = itertools.count(1)
#: weight of the newest measurement in the verify-cost averages
_EMA = 0.3
#: refused proposals of a match-length bucket before it is probed again, at first and at most
_PROBE_EVERY = 8
_PROBE_MAX = 256


class VerifyCost:
    """What verifying one more drafted token costs, relative to a one-token forward pass.

    On Apple silicon a pass over 16 tokens costs about as much as a pass over one, so every draft
    the tree is fairly sure of pays. On a CPU where the matrix products cost in proportion to the
    tokens (mlx[cpu]: the output layer's cost grows with the rows it computes), a drafted token
    pays only if it is accepted more often than that ratio says; a draft cut there keeps a first
    pass at plain speed. Measured on the running engine (kept across requests)."""

    def __init__(self) -> None:
        self.one: float | None = None  # seconds of a one-token pass
        self.extra: float | None = None  # seconds per additional token in a pass
        self._rates: dict[int, float] = {}
        self._skips: dict[int, int] = {}
        self._every: dict[int, int] = {}  # refused proposals between probes, per bucket

    def observe(self, tokens: int, seconds: float) -> None:
        if tokens == 1:
            self.one = seconds if self.one is None else (1 - _EMA) * self.one + _EMA * seconds
        elif self.one is not None:
            per = max(0.0, (seconds - self.one) / (tokens - 1))
            self.extra = per if self.extra is None else (1 - _EMA) * self.extra + _EMA * per

    def ratio(self) -> float:
        """Extra cost of one more verified token over a one-token pass; 0 until measured."""
        if self.one is None or self.extra is None or self.one <= 0:
            return 0.0
        return self.extra / self.one

    # The tree's path probability overstates how often a draft is accepted when its match is short
    # (one earlier occurrence gives probability 1): the acceptance actually seen is kept per
    # match-length bucket and scales the probability before it is compared with the cost ratio.
    _BUCKETS = (2, 4, 8, 16)  # match lengths up to 2, 3-4, 5-8, 9-16, longer

    def _bucket(self, match_len: int) -> int:
        return next((i for i, top in enumerate(self._BUCKETS) if match_len <= top), len(self._BUCKETS))

    def accepted_share(self, match_len: int) -> float:
        """Share of drafted tokens accepted after matches of this length (0.5 until seen)."""
        return self._rates.get(self._bucket(match_len), 0.5)

    def observe_round(self, match_len: int, drafted: int, accepted: int) -> None:
        if drafted > 0:
            b = self._bucket(match_len)
            rate = accepted / drafted
            old = self._rates.get(b)
            self._rates[b] = rate if old is None else (1 - _EMA) * old + _EMA * rate
            every = self._every.get(b, _PROBE_EVERY)
            self._every[b] = _PROBE_EVERY if accepted else min(2 * every, _PROBE_MAX)

    def explore(self, match_len: int) -> bool:
        """The 8th proposal a bucket's gate refuses is drafted anyway (two tokens), so a bucket
        whose acceptance improves is measured again. A probe (or draft) of the bucket with nothing
        accepted doubles the wait for its next probe (up to 256 refusals), one that is accepted
        resets it to 8: a probe costs a pass of its own after a pipelined round, and a bucket that
        keeps failing (a first pass's short matches) must not cost a first pass its speed."""
        b = self._bucket(match_len)
        self._skips[b] = self._skips.get(b, 0) + 1
        if self._skips[b] < self._every.get(b, _PROBE_EVERY):
            return False
        self._skips[b] = 0
        return True


def gated_draft(proposal: Draft, cost: VerifyCost | None, split: bool) -> list[int]:
    """The part of the suffix cache's ``proposal`` that the decode loop verifies: all of it without
    a ``cost`` gate, else the tokens whose expected acceptance pays for verifying them (a ``split``
    round, whose first position is already queued, verifies its draft in a pass of its own and
    must pay for that pass). Shared by the loop and its replay (:mod:`app.core.engines.mlx.replay`),
    so both draft alike from the same cache and gate."""
    if cost is None:
        return list(proposal.token_ids)
    match_len = proposal.match_len
    gate = cost.ratio()
    share = cost.accepted_share(match_len)
    draft: list[int] = []
    expected = 0.0  # drafted tokens expected to be accepted
    for tok, prob in zip(proposal.token_ids, proposal.probs, strict=True):
        if prob * share < gate:
            break
        draft.append(tok)
        expected += prob * share
    if split and draft and expected < 1.0 + (len(draft) - 1) * gate:
        draft = []  # does not pay for the pass of its own
    if not draft and proposal.token_ids and cost.explore(match_len):
        draft = list(proposal.token_ids[:2])
    return draft


class PrefillStopped(Exception):
    """The request was stopped while its prompt was read (between two chunks of the prefill)."""


def check_stop(stopped: Callable[[], bool] | None) -> None:
    """Raise :class:`PrefillStopped` when ``stopped()`` says so: called between prefill chunks, so
    Stop ends a long prompt within one chunk (a 1,100-token prompt read in one pass kept the CPU
    busy for minutes after Stop)."""
    if stopped is not None and stopped():
        raise PrefillStopped()


def read_prompt(
    model: Any, cache: Any, tokens: Sequence[int], stopped: Callable[[], bool] | None, **array: Any
) -> None:
    """Run ``tokens`` through ``model`` into ``cache`` in passes of :func:`prefill_chunk`, with a
    :func:`check_stop` before each (``array``: keyword arguments of the token array, e.g. its
    dtype)."""
    import mlx.core as mx

    size = prefill_chunk()
    for start in range(0, len(tokens), size):
        check_stop(stopped)
        model(mx.array([list(tokens[start : start + size])], **array), cache=cache)
        mx.eval([c.state for c in cache])


class LmTarget:
    """An mlx-lm model with its KV cache: forward passes and rollback by trimming. ``stopped`` is
    checked between the chunks of a prefill (see :func:`check_stop`)."""

    def __init__(self, model: Any, stopped: Callable[[], bool] | None = None) -> None:
        from mlx_lm.models.cache import make_prompt_cache

        self.model = model
        self.cache = make_prompt_cache(model)
        self._fed = 0
        self.stopped = stopped

    def forward(self, tokens: Sequence[int]) -> Any:
        """Logits [len(tokens), vocab] of the positions after each token."""
        import mlx.core as mx

        out = self.model(mx.array([list(tokens)], dtype=mx.uint32), cache=self.cache)
        self._fed = len(tokens)
        return out[0]

    def step(self, token: Any) -> Any:
        """Logits [vocab] after one token given as an (unevaluated) mx array, kept in the cache:
        the graph can be built before ``token`` is known (pipelined decoding)."""
        out = self.model(token.reshape(1, 1), cache=self.cache)
        self._fed = 0
        return out[0, -1]

    def keep(self, n: int) -> None:
        """Keep the first ``n`` positions of the last forward pass in the cache."""
        from mlx_lm.models.cache import trim_prompt_cache

        if self._fed > n:
            trim_prompt_cache(self.cache, self._fed - n)

    def prefill(self, prompt: Sequence[int]) -> Any:
        import mlx.core as mx

        read_prompt(self.model, self.cache, prompt[:-1], self.stopped, dtype=mx.uint32)
        check_stop(self.stopped)
        return self.forward(prompt[-1:])[-1]


class VlmTarget:
    """An mlx-vlm model's language model; rollback through mlx-vlm's cache transactions, which
    keep rotating (sliding-window) caches exact. With ``vision`` (a prompt with images) the
    prefill runs the model's embedding step, vision tower included, as mlx-vlm's own does."""

    def __init__(
        self, model: Any, vision: VisionPrompt | None = None, stopped: Callable[[], bool] | None = None
    ) -> None:
        from mlx_vlm.models.cache import make_prompt_cache

        self.model = model
        self.lm = model.language_model
        self.cache = make_prompt_cache(self.lm)
        self.vision = vision
        self._tx: Any = None
        self.stopped = stopped

    def forward(self, tokens: Sequence[int]) -> Any:
        import mlx.core as mx
        from mlx_vlm.speculative.common import verify_forward

        out, self._tx = verify_forward(self.lm, mx.array([list(tokens)]), self.cache)  # type: ignore[no-untyped-call]  # mlx-vlm is untyped
        return out.logits[0]

    def step(self, token: Any) -> Any:
        """As :meth:`LmTarget.step`: one token, kept (its transaction committed at once)."""
        from mlx_vlm.speculative.common import verify_forward

        out, tx = verify_forward(self.lm, token.reshape(1, 1), self.cache)  # type: ignore[no-untyped-call]  # mlx-vlm is untyped
        tx.commit(1)
        return out.logits[0, -1]

    def keep(self, n: int) -> None:
        if self._tx is not None:
            tx, self._tx = self._tx, None
            tx.commit(n)

    def prefill(self, prompt: Sequence[int]) -> Any:
        if self.vision is not None:
            assert list(prompt) == self.vision.ids, "the prompt is the one the images were laid out in"
            prefill_with_images(self.model, self.vision, self.cache, prefill_chunk())
        else:
            read_prompt(self.lm, self.cache, prompt[:-1], self.stopped)
        check_stop(self.stopped)
        logits = self.forward(prompt[-1:])[-1]
        self.keep(1)
        return logits


def sample_position(
    logits: Any,
    before: list[int],
    sampler: Callable[[Any], Any],
    processors: Sequence[Callable[[Any, Any], Any]],
    last: Any = None,
) -> tuple[Any, Any]:
    """(sample, log-probabilities) of the target at one position, as mlx-lm's plain loop samples:
    the logits processors (repeat penalty) see ``before`` (+ the unevaluated token ``last``), the
    tokens before that position. Shared by Tandem's MLX decode loops."""
    import mlx.core as mx

    row = logits[None]
    if processors:
        seen = mx.array(before, dtype=mx.uint32)
        if last is not None:
            seen = mx.concatenate([seen, last.reshape(-1).astype(mx.uint32)])
        for proc in processors:
            row = proc(seen, row)
    logprobs = row - mx.logsumexp(row, axis=-1, keepdims=True)
    return sampler(logprobs), logprobs[0]


def model_free_steps(
    target: LmTarget | VlmTarget,
    cache: SuffixCache,
    prompt: list[int],
    *,
    budget: int,
    max_draft: int,
    use_global: bool,
    sampler: Callable[[Any], Any],
    processors: Sequence[Callable[[Any, Any], Any]],
    learn: bool,
    conversation: str | None = None,
    on_learned: Callable[[list[int], list[int]], None] | None = None,
    stats: dict[str, float] | None = None,
    cost: VerifyCost | None = None,
) -> Generator[TokenStep[tuple[int, Any]], None, None]:
    """Yield ((token, log-probabilities), round or None) with drafts from ``cache``.

    ``use_global`` False is prompt lookup (the request's own text only). With ``learn`` the answer
    joins the global corpus when the request is released (under ``conversation``), and
    ``on_learned(prompt tail, response)`` is called with what was learned (to persist it).
    ``stats`` (optional) collects the time spent proposing drafts, in seconds. ``cost`` (the
    engine's, kept across requests) cuts each draft where a token's probability no longer pays for
    its verification.

    Rounds without a draft are pipelined as mlx-lm's ``generate_step`` pipelines plain decoding:
    the one-token pass after a token is queued (``mx.async_eval``) before that token is known, so
    building the next graph, proposing the next draft and the consumer's work overlap the pass.
    When the token then yields a draft, the queued pass is its first verified position and the
    draft goes through a second pass on top of it ("split" round: a whole pass more than verifying
    ``[token, *draft]`` at once, which the gate charges); after a drafting round the next token is
    known, so its draft (if any) is verified in one pass.
    """
    import time

    import mlx.core as mx

    async_eval: Callable[..., None] = mx.async_eval  # (mlx's stub lacks the return type)
    req = next(_request_ids)
    cache.start_request(req, prompt)
    history = list(prompt)  # what the processors (repeat penalty) see: prompt + committed tokens
    response: list[int] = []
    pending: list[int] = []  # consumed tokens not yet added to the request's corpus
    try:

        def choose(logits: Any, before: list[int], last: Any = None) -> tuple[Any, Any]:
            return sample_position(logits, before, sampler, processors, last)

        def propose(split: bool) -> tuple[list[int], int]:
            """(draft, match length) for the next round after ``history``; ``split``: its
            first position is already queued, so verifying the draft costs a pass of its own."""
            n = min(max_draft, budget - len(response) - 1)
            if n <= 0:
                return [], 0
            t0 = time.perf_counter()
            proposal = cache.speculate(req, history, n, use_global=use_global)
            match_len = proposal.match_len
            draft = gated_draft(proposal, cost, split)
            if stats is not None:
                stats["draft_s"] = stats.get("draft_s", 0.0) + time.perf_counter() - t0
                stats["proposals"] = stats.get("proposals", 0) + 1
            return draft, match_len

        def commit(tok: int) -> None:
            """A token counts as committed from its yield on: the consumer took it even if it
            stops right there (the generator is then closed at that yield)."""
            response.append(tok)
            history.append(tok)
            pending.append(tok)

        def emit_round(
            picks: list[tuple[Any, Any]], draft: list[int], emitted: list[int]
        ) -> Iterator[TokenStep[tuple[int, Any]]]:
            """The verified round's tokens; the first carries the round (drafted, accepted)."""
            for i, tok in enumerate(emitted):
                commit(tok)
                yield (tok, picks[i][1]), ((len(draft), len(emitted) - 1) if i == 0 else None)

        def verify(picks: list[tuple[Any, Any]], draft: list[int], match_len: int) -> list[int]:
            """Evaluate a round's picks; the accepted prefix of the draft + the target's token."""
            tokens = [int(s.item()) for s, _lp in picks]
            accepted = 0
            while accepted < len(draft) and tokens[accepted] == draft[accepted]:
                accepted += 1
            if cost is not None and draft:
                cost.observe_round(match_len, len(draft), accepted)
            return tokens[: accepted + 1]

        logits = target.prefill(prompt)
        sample, logprobs = choose(logits, history)
        mx.eval(sample, logprobs)
        y = int(sample.item())
        commit(y)
        yield (y, logprobs), (0, 0)
        # (sample, log-probabilities) of the next token, queued but not yet known; None when the
        # last emitted token ``y`` is known and nothing is queued
        queued: tuple[Any, Any] | None = None
        t_step: float | None = None  # when the previous pipelined token became known
        while len(response) < budget:
            if queued is None:
                cache.add_active_response(req, pending)
                pending = []
                draft, match_len = propose(split=False)
                if draft:
                    t_pass = time.perf_counter()
                    rows = target.forward([y, *draft])
                    picks = [choose(rows[i], [*history, *draft[:i]]) for i in range(len(draft) + 1)]
                    mx.eval(picks)
                    if cost is not None:
                        cost.observe(len(draft) + 1, time.perf_counter() - t_pass)
                    emitted = verify(picks, draft, match_len)
                    target.keep(len(emitted))
                    yield from emit_round(picks, draft, emitted)
                    y = emitted[-1]
                    continue
                queued = choose(target.step(mx.array([y], dtype=mx.uint32)), history)
                async_eval(queued)
                t_step = None
            # Pipelined: queue the pass after the queued token before waiting for it.
            nxt: tuple[Any, Any] | None = None
            if len(response) + 1 < budget:
                nxt = choose(target.step(queued[0]), history, queued[0])
                async_eval(nxt)
            y = int(queued[0].item())
            now = time.perf_counter()
            if cost is not None and t_step is not None:
                cost.observe(1, now - t_step)  # a pipelined step: what a one-token pass costs here
            t_step = now
            commit(y)
            yield (y, queued[1]), (0, 0)
            queued = nxt
            if queued is None:
                break
            cache.add_active_response(req, pending)
            pending = []
            draft, match_len = propose(split=True)
            if not draft:
                continue
            # Split round: the queued pass verifies the draft's first token, the draft gets its own.
            rows = target.forward(draft)
            picks = [queued, *(choose(rows[i], [*history, *draft[: i + 1]]) for i in range(len(draft)))]
            mx.eval(queued)
            t_pass = time.perf_counter()
            mx.eval(picks)
            if cost is not None:
                cost.observe(len(draft), time.perf_counter() - t_pass)
            emitted = verify(picks, draft, match_len)
            target.keep(len(emitted) - 1)
            yield from emit_round(picks, draft, emitted)
            y = emitted[-1]
            queued = None
            t_step = None
    finally:
        # ``response`` is the committed answer, up to and including the token the consumer
        # stopped at; the request leaves the active set now, not at the next request.
        cache.add_active_response(req, pending)
        learned = cache.stop_request(req, learn=learn, conversation=conversation)
        if learned is not None and on_learned is not None:
            on_learned(*learned)
