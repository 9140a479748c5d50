"""Replay of Tandem's MLX model-free loop (suffix decoding, prompt lookup) over a finished answer.

With greedy decoding every configuration of a model emits the same tokens, and the model-free loop
(:func:`app.core.engines.mlx.modelfree.model_free_steps`) drafts from its suffix cache and the token
history alone. Replaying the loop's proposals over an answer's tokens, from the cache as it is now,
gives the drafts the method would have made on that answer and how many of each the target would
have kept: a drafted token is kept while it equals the token the answer actually has next.

What the replay keeps from the loop, on purpose:

* **Rounds.** The first token comes from the prompt pass. Before every later round the loop
  proposes at most ``min(tokens per round, budget - emitted - 1)`` tokens from the request's own
  text and (suffix decoding) the global corpus, which also holds the growing answer. A round emits
  its kept drafts and the target's own next token.
* **The cost gate.** With a gate the proposal is cut by the same rule
  (:func:`~app.core.engines.mlx.modelfree.gated_draft`), on a copy of the gate's state that follows
  the replayed rounds' acceptance. The gate's timings are not replayed (the copy keeps the costs it
  had), so a gated replay is exact while those costs stay put; without the gate it is exact.
* **Nothing is learned.** The replayed request leaves the cache as it found it: it is released
  without learning, as a stopped request is.

The end of an answer: a token that ended it (end of generation) belongs to the replayed sequence.
When a draft matched every known token and proposed more, the round's acceptance is a lower bound
and :attr:`ModelFreeReplay.exact` is False.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from app.core.engines.mlx.modelfree import VerifyCost, gated_draft
from app.core.speculative.replay import ReplayRound
from app.core.speculative.suffix import SuffixCache

__all__ = ["ModelFreeReplay", "replay_model_free"]

_replay_ids = itertools.count(1)


@dataclass(frozen=True)
class ModelFreeReplay:
    """The rounds one model-free method would have run on an answer."""

    method: str
    rounds: tuple[ReplayRound, ...]
    #: False when a draft matched every known token and proposed more (see the module docstring)
    exact: bool = True

    @property
    def drafted_total(self) -> int:
        return sum(r.drafted for r in self.rounds)

    @property
    def accepted_total(self) -> int:
        return sum(r.accepted for r in self.rounds)

    @property
    def emitted_total(self) -> int:
        return sum(r.emitted for r in self.rounds)


def replay_model_free(
    method: str,
    cache: SuffixCache,
    prompt: Sequence[int],
    tokens: Sequence[int],
    *,
    max_draft: int,
    budget: int,
    cost: VerifyCost | None = None,
) -> ModelFreeReplay:
    """Replay ``method`` ("suffix": with the global corpus; "prompt-lookup": the request's own text
    only) over ``tokens``, the answer to ``prompt`` (its end-of-generation token included when it
    ended on one), drafting at most ``max_draft`` tokens a round within ``budget`` tokens, through
    the gate ``cost`` (None: ungated; it is copied, never changed). ``cache`` is left as it was."""
    if method not in ("suffix", "prompt-lookup"):
        raise ValueError(f"not a model-free method of the MLX loop: {method!r}")
    answer = [int(t) for t in tokens]
    gate = copy.deepcopy(cost)
    use_global = method == "suffix"
    req = ("replay", next(_replay_ids))
    rounds: list[ReplayRound] = []
    exact = True
    cache.start_request(req, prompt)
    try:
        if not answer:
            return ModelFreeReplay(method, ())
        history = [int(t) for t in prompt]
        history.append(answer[0])
        pending = [answer[0]]
        emitted = 1
        rounds.append(ReplayRound(0, 0, 1))
        split = False  # the loop's first round after the prompt pass verifies in one pass
        while emitted < len(answer) and emitted < budget:
            cache.add_active_response(req, pending)
            pending = []
            draft: list[int] = []
            room = min(max_draft, budget - emitted - 1)
            match_len = 0
            if room > 0:
                proposal = cache.speculate(req, history, room, use_global=use_global)
                match_len = proposal.match_len
                draft = gated_draft(proposal, gate, split)
            known = answer[emitted : emitted + len(draft)]
            kept = next((i for i, (d, t) in enumerate(zip(draft, known, strict=False)) if d != t), len(known))
            if kept == len(answer) - emitted and kept < len(draft):
                exact = False  # the tokens after the end are unknown
            if gate is not None and draft:
                gate.observe_round(match_len, len(draft), kept)
            out = min(kept + 1, len(answer) - emitted)
            new = answer[emitted : emitted + out]
            history.extend(new)
            pending.extend(new)
            emitted += out
            rounds.append(ReplayRound(len(draft), kept, out, method if draft else ""))
            split = not draft  # after a plain step the loop has the next pass queued already
        return ModelFreeReplay(method, tuple(rounds), exact)
    finally:
        cache.stop_request(req, learn=False)
