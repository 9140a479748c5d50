"""Exact counterfactual replay of llama.cpp's model-free speculative methods.

With greedy decoding every speculative configuration emits the same tokens, and a model-free method
(``ngram-simple``, ``ngram-map-k``, ``ngram-map-k4v``, ``ngram-mod``, ``ngram-cache``) is a function
of the token history. Replaying one over an answer's prompt and completion token ids therefore gives
exactly the drafts it would have proposed and how many of each the target would have kept: a draft
token is accepted while it equals the token the target actually emitted next, and the round then
emits the accepted tokens plus the target's own next token.

The algorithms are reimplemented from the llama.cpp that xllamacpp 2026.10.11549 vendors
(:data:`LLAMA_CPP_BUILD`): ``common/ngram-mod.*``, ``common/ngram-map.*``, ``common/ngram-cache.*``,
the implementations and the chaining rule of ``common/speculative.cpp``, and the server's drafting
loop (``tools/server/server-context.cpp``). What the replay keeps from that source, on purpose:

* **Rounds.** The first token comes from the prompt pass (a round with no draft). Before each later
  token the slot drafts from its history (the prompt and the tokens emitted so far, the last one as
  ``id_last``), limited to ``min(n_ctx - history - 2, max_tokens - emitted - 1)`` tokens; no room, or
  no draft, is a plain one-token step. A target that cannot drop rejected tokens from its memory
  (recurrent, hybrid) restores a checkpoint after a partial acceptance and verifies again
  (``rollback_limit``). Rounds are split as Tandem reads llama-server's counters
  (:class:`~app.core.speculative.rounds.RoundAccountant`): a round emits at most its accepted tokens
  and one of the target's; a further token of the same pass is a round of its own.
* **Chaining.** Several model-free types try in llama.cpp's fixed priority (:data:`PRIORITY`), not
  in the order they were given; the first non-empty draft wins and the later ones are not asked.
  Only the winner hears how many of its tokens were accepted.
* **State.** Each type keeps what llama.cpp keeps, as long as llama.cpp keeps it: ``ngram-mod``'s
  pool per child, the maps' and ``ngram-cache``'s tables per slot, across requests; ``ngram-simple``
  keeps nothing. :class:`ReplayState` carries all of it from one answer to the next answer of the
  same child.

Each type is replayed by the module that follows its llama.cpp source, with its rules: ``ngram-mod`` in
:mod:`~app.core.speculative.replay_mod`, ``ngram-simple`` and the n-gram maps in
:mod:`~app.core.speculative.replay_map`, ``ngram-cache`` in :mod:`~app.core.speculative.replay_cache`,
over the token sequence and llama.cpp's hashes of :mod:`~app.core.speculative.replay_history`;
their settings are :class:`~app.core.speculative.replay_params.ReplayParams`.

Not replayed: ``ngram-cache``'s optional static and dynamic lookup files (llama.cpp loads them only
when their paths are set), drafter models, and synthetic acceptance.

The end of an answer: the token that ended it (end of generation) counts as an emitted token and
belongs to the replayed sequence (llama-server streams no logprobs entry for it, so callers append
it as ``end_token``). Tokens the target would have produced after the end are unknown: when a draft
matched every known token and proposed more, the round's acceptance is a lower bound and
:attr:`ReplayResult.exact` is False. With a ``max_tokens`` limit the server never drafts past it, so
an answer cut by the limit replays exactly.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field

from app.core.speculative.replay_cache import CacheSlot, NgramCache
from app.core.speculative.replay_history import TokenSequence
from app.core.speculative.replay_map import MapSlot, NgramMap, NgramSimple
from app.core.speculative.replay_mod import ModPool, ModSlot, NgramMod
from app.core.speculative.replay_params import UINT16_MASK, ReplayParams

__all__ = [
    "LLAMA_CPP_BUILD",
    "PRIORITY",
    "XLLAMACPP_VERSION",
    "ReplayResult",
    "ReplayRound",
    "ReplayState",
    "replay",
]

#: The llama.cpp build vendored by xllamacpp 2026.10.11549 (its version's last part), whose sources
#: the replay follows.
LLAMA_CPP_BUILD = "b11549"
XLLAMACPP_VERSION = "2026.10.11549"

#: llama.cpp's order of preference among the model-free types (``common_speculative_init``).
PRIORITY: tuple[str, ...] = ("ngram-simple", "ngram-map-k", "ngram-map-k4v", "ngram-mod", "ngram-cache")


# --- results ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ReplayRound:
    """One pass of the target: ``drafted`` tokens proposed by ``method`` ("" for a plain step),
    ``accepted`` of them kept (as llama.cpp counts them), ``emitted`` tokens streamed."""

    drafted: int
    accepted: int
    emitted: int
    method: str = ""


@dataclass
class ReplayResult:
    """The rounds of one replayed answer, their totals, and the state to replay the next answer of
    the same child with."""

    rounds: list[ReplayRound]
    state: ReplayState
    #: False when a draft matched every known token and proposed more (its acceptance, and the
    #: totals, are then lower bounds: the target's tokens after the end are unknown)
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

    @property
    def round_count(self) -> int:
        return len(self.rounds)

    @property
    def drafting_rounds(self) -> int:
        return sum(1 for r in self.rounds if r.drafted)


#: one model-free type's replayer, bound to a slot's state
_Drafter = NgramSimple | NgramMap | NgramMod | NgramCache


# --- state --------------------------------------------------------------------------------------
@dataclass
class _SlotState:
    mod: ModSlot = field(default_factory=ModSlot)
    maps: dict[str, MapSlot] = field(default_factory=dict)
    cache: CacheSlot = field(default_factory=CacheSlot)


class ReplayState:
    """What one llama.cpp child keeps between requests for one configuration of model-free types:
    ``ngram-mod``'s pool (shared by its slots) and each slot's own state. Updated in place by
    :func:`replay`; :meth:`copy` branches it."""

    def __init__(self, methods: Sequence[str], params: ReplayParams) -> None:
        self.methods = _methods(methods)
        self.params = params
        self.pool = ModPool(params.ngram_mod.n_match & UINT16_MASK)
        self.slots: dict[int, _SlotState] = {}

    def copy(self) -> ReplayState:
        return copy.deepcopy(self)

    def _impls(self, slot: int) -> list[_Drafter]:
        st = self.slots.setdefault(slot, _SlotState())
        p = self.params
        impls: list[_Drafter] = []
        for name in self.methods:
            if name == "ngram-simple":
                impls.append(NgramSimple(p.ngram_simple))
            elif name == "ngram-map-k":
                impls.append(NgramMap(p.ngram_map_k, True, st.maps.setdefault(name, MapSlot())))
            elif name == "ngram-map-k4v":
                impls.append(NgramMap(p.ngram_map_k4v, False, st.maps.setdefault(name, MapSlot())))
            elif name == "ngram-mod":
                impls.append(NgramMod(p.ngram_mod, self.pool, st.mod))
            else:
                impls.append(NgramCache(st.cache))
        return impls


def _check(methods: tuple[str, ...], params: ReplayParams) -> None:
    sizes = {
        "ngram-mod": params.ngram_mod.n_match,
        "ngram-simple": params.ngram_simple.size_n,
        "ngram-map-k": params.ngram_map_k.size_n,
        "ngram-map-k4v": params.ngram_map_k4v.size_n,
    }
    small = [m for m in methods if sizes.get(m, 1) < 1]
    if small:
        raise ValueError(
            f"replay: the n-gram size of {', '.join(small)} must be at least 1 (llama.cpp refuses 0)"
        )


def _methods(methods: Sequence[str] | str) -> tuple[str, ...]:
    names = [m.strip() for m in (methods.split("+") if isinstance(methods, str) else methods)]
    names = [m for m in names if m]
    unknown = [m for m in names if m not in PRIORITY]
    if unknown or not names:
        raise ValueError(
            f"replay: {', '.join(unknown) or 'no method'} is not a llama.cpp model-free method "
            f"({', '.join(PRIORITY)})"
        )
    return tuple(m for m in PRIORITY if m in names)


# --- the server loop ----------------------------------------------------------------------------
_NO_LIMIT = 1 << 30


def replay(
    method: str | Sequence[str],
    params: ReplayParams | None,
    prompt_ids: Sequence[int],
    completion_ids: Sequence[int],
    state: ReplayState | None = None,
    *,
    end_token: int | None = None,
    max_tokens: int | None = None,
    n_ctx: int | None = None,
    slot: int = 0,
    rollback_limit: int | None = None,
) -> ReplayResult:
    """Replay what llama.cpp's ``method`` (one model-free type, or several joined with ``+``) drafts
    and gets accepted over one answer.

    ``prompt_ids`` are the prompt's tokens as the server saw them (chat template applied, special
    tokens added); ``completion_ids`` the emitted tokens, and ``end_token`` the end-of-generation
    token that ended the answer when it is not among them. ``max_tokens`` is the request's limit and
    ``n_ctx`` the slot's context (None: no limit), both of which cap a draft as the server does.
    ``state`` is the child's state after its earlier answers (None: a fresh child); it is updated
    in place and returned in the result. ``slot`` is the server slot that answered.

    ``rollback_limit`` is how many rejected draft tokens the target's memory drops in place: None
    for any number (a KV cache), 0 for none (a recurrent or hybrid target), n for a bounded
    recurrent state. Past it, llama.cpp restores a checkpoint after a partial acceptance and
    verifies the kept tokens again, which emits one more token of the target's without a draft and
    tells the drafter one more accepted token.
    """
    params = params or ReplayParams()
    methods = _methods(method)
    _check(methods, params)
    if state is None:
        state = ReplayState(methods, params)
    elif state.methods != methods or state.params != params:
        raise ValueError("replay: the state belongs to another configuration")
    generated = list(completion_ids) + ([end_token] if end_token is not None else [])
    prompt_len = len(prompt_ids)
    seq = TokenSequence([*prompt_ids, *generated])
    total = len(generated)
    rounds: list[ReplayRound] = []
    exact = True
    if total == 0:
        return ReplayResult(rounds, state, exact)
    impls = state._impls(slot)
    for impl in impls:
        impl.begin(seq, prompt_len)
    tokens = seq.tokens
    rounds.append(ReplayRound(0, 0, 1))
    k = 1  # tokens emitted so far; the last one is id_last
    while k < total:
        cur_len = prompt_len + k - 1
        room = n_ctx - cur_len - 2 if n_ctx is not None and n_ctx > 0 else _NO_LIMIT
        if max_tokens is not None and max_tokens > 0 and max_tokens - k > 0:
            room = min(room, max_tokens - k - 1)
        draft: list[int] = []
        winner = None
        if room > 0:
            for impl in impls:
                draft = impl.draft(seq, cur_len)
                if draft:
                    winner = impl
                    break
        if winner is None or not draft:
            rounds.append(ReplayRound(0, 0, 1))
            k += 1
            continue
        draft = draft[:room]
        start = cur_len + 1
        known = total - k
        a = 0
        limit = min(len(draft), known)
        while a < limit and draft[a] == tokens[start + a]:
            a += 1
        if a == known and a < len(draft):
            exact = False
        rollback = len(draft) - a
        if rollback > 0 and rollback_limit is not None and rollback > rollback_limit:
            # the second pass verifies the a tokens and the target's own again, and adds one
            winner.accept(a + 1)
            emitted = min(a + 2, known)
            rounds.append(ReplayRound(len(draft), a, min(a + 1, emitted), winner.name))
            if emitted == a + 2:
                rounds.append(ReplayRound(0, 0, 1))
        else:
            winner.accept(a)
            emitted = min(a + 1, known)
            rounds.append(ReplayRound(len(draft), a, emitted, winner.name))
        k += emitted
    if any(isinstance(impl, NgramMap) and impl.undefined for impl in impls):
        exact = False
    return ReplayResult(rounds, state, exact)
