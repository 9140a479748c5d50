"""What an engine pool learns from its answers, and what it predicts on each of them.

Every answer of the pool is priced and replayed here (:mod:`app.core.speculative.speedup`,
:mod:`app.core.speculative.replay`, :mod:`app.core.speculative.predict`):

* its speedup against plain decoding of its own tokens (``tandem.speedup``);
* what every configuration of the pool would have done on it (``tandem.alternatives``): the
  model-free ones replayed over its tokens, each with its own state (as if it had answered every
  request of the pool), a drafter that did not run estimated from its acceptance by draft
  position, a chain by the priority rule llama.cpp applies; an estimate is scaled by how far the
  same estimate was from the measured speed on that configuration's earlier answers;
* then the answer's passes are learned from (after the predictions, so their error is honest),
  and the prediction for the configuration that ran is kept against its measured speed.

A prediction that fails never costs the answer: it is logged and left out.
"""

from __future__ import annotations

import asyncio
import logging
import statistics
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from app.core import gguf_tools
from app.core.engines.base import (
    ChatMessage,
    Engine,
    EngineError,
    Finished,
    GenerateRequest,
    LoadRequest,
    has_images,
)
from app.core.engines.capability import model_free_methods
from app.core.engines.llamacpp import translate
from app.core.speculative import SpeculationError
from app.core.speculative.acceptance import AcceptanceByPosition, Estimate
from app.core.speculative.options import DRAFTER_METHODS, SpeculationOptions
from app.core.speculative.predict import Alternative, Chain, EstimateBias, chain_tps, drafter_tps, predict
from app.core.speculative.replay import ReplayRound, ReplayState, replay
from app.core.speculative.replay_params import ReplayParams
from app.core.speculative.speedup import PlainSteps

log = logging.getLogger(__name__)

#: tokens per round of a model-free n-gram configuration started for a request (llama.cpp's own
#: ngram-mod default; the same depth Auto measures)
MODEL_FREE_DEPTH = 64
#: answers per configuration whose prediction error is kept
PREDICTION_ERRORS_KEPT = 64


@runtime_checkable
class TokenReplay(Protocol):
    """An engine whose answers can be replayed token by token (llama.cpp): it gives a request's
    prompt and an answer's text as the token ids its child saw."""

    @property
    def n_ctx(self) -> int: ...

    @property
    def n_threads(self) -> int: ...

    async def replay_token_ids(
        self, messages: Sequence[ChatMessage], tools: Sequence[Mapping[str, Any]] | None, text: str
    ) -> tuple[list[int], list[int]]: ...


class PoolLearning:
    """What one pool learned: plain steps and pass prices per thread count, the model-free
    configurations' replay states, the drafters' acceptance by position and kind of request, and
    each configuration's prediction errors. ``configurations`` is the pool's (read, never
    changed); ``kind_of`` gives the kind Auto gave a request ("" without Auto's router)."""

    def __init__(
        self,
        base_request: LoadRequest,
        configurations: Mapping[str, SpeculationOptions],
        kind_of: Callable[[GenerateRequest], str],
    ) -> None:
        self.base_request = base_request
        self._configurations = configurations
        self._kind_of = kind_of
        #: per thread count, the target's recent plain steps and what each pass costs in them
        self._steps: dict[int, PlainSteps] = {}
        #: per model-free configuration, its replayed state (as if it had answered every request)
        self._replay_states: dict[str, ReplayState] = {}
        self._replay_params: dict[str, ReplayParams] = {}
        #: per configuration, predicted / measured - 1 of its recent answers
        self._errors: dict[str, deque[float]] = {}
        #: per drafter and chain, how far its estimate was from what it measured where it ran
        self._estimate_bias = EstimateBias()
        #: per drafter configuration and kind of request, its acceptance by draft position
        self.acceptance = AcceptanceByPosition()
        #: per configuration, the methods it runs (:meth:`_methods_of`)
        self._methods: dict[str, list[str]] = {}
        self._eos: int | None = None

    async def finished(
        self, engine: Engine, label: str, request: GenerateRequest, done: Finished, text: str
    ) -> Finished:
        """``done`` (the answer of configuration ``label`` on ``engine``, its text ``text``) with
        its speedup and, when it is complete, every configuration's prediction; then learned from."""
        if not done.passes:
            return done
        steps = self.steps_for(engine)
        speedup = steps.speedup(label, done.passes, done.drafted_total)
        complete = done.reason in ("stop", "length")
        alternatives = await self._predicted(engine, label, request, done, text) if complete else None
        steps.observe(label, done.passes)  # after the predictions: their error is honest
        if self._drafter(label):
            self.acceptance.observe(label, self._kind_of(request), done.passes)
        return replace(done, speedup=speedup, alternatives=alternatives)

    async def _predicted(
        self, engine: Engine, label: str, request: GenerateRequest, done: Finished, text: str
    ) -> tuple[Alternative, ...] | None:
        """:meth:`_alternatives`, which never costs the answer: a prediction that fails is logged
        and left out (the answer itself is complete)."""
        try:
            return await self._alternatives(engine, label, request, done, text)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.warning("the predictions of this answer failed", exc_info=True)
            return None

    async def _alternatives(
        self, engine: Engine, label: str, request: GenerateRequest, done: Finished, text: str
    ) -> tuple[Alternative, ...] | None:
        """What every configuration of the pool would have done on this answer: the model-free
        ones replayed over its tokens (each with its own state, as if it had answered every request
        of the pool), all priced by the cost model; the prediction for the one that ran is kept
        against its measured speed (:meth:`prediction_errors`). None when the answer cannot be
        replayed (its text does not tokenize back to its token count) or nothing is priced yet."""
        passes = done.passes or ()
        if not isinstance(engine, TokenReplay) or not passes or has_images(request.messages):
            return None  # (a prompt with pictures holds tokens its text does not: no exact replay)
        steps = self.steps_for(engine)
        step = steps.plain_step_of(label, passes)
        if step is None:
            return None
        try:
            tools = [dict(t) for t in request.tools] if request.tools else None
            prompt_ids, ids = await engine.replay_token_ids(request.messages, tools, text)
        except EngineError as exc:
            log.info("no replay of this answer: %s", exc)
            return None
        ended = done.completion_tokens == len(ids) + 1
        if not ended and done.completion_tokens != len(ids):
            log.debug(
                "no replay: the answer's text tokenizes to %d tokens, it had %d",
                len(ids),
                done.completion_tokens,
            )
            return None
        end_token = self._end_token() if ended else None
        free = [lab for lab in self._configurations if self._model_free_only(lab)]

        def replayed_rounds(lab: str, method: str) -> list[ReplayRound] | None:
            try:
                result = replay(
                    method,
                    self._replay_params_of(lab),
                    prompt_ids,
                    ids,
                    self._replay_states.get(lab),
                    end_token=end_token,
                    max_tokens=request.sampling.max_tokens,
                    n_ctx=engine.n_ctx or None,
                )
            except (ValueError, SpeculationError) as exc:
                log.debug("no replay of %s: %s", lab, exc)
                return None
            self._replay_states[lab] = result.state
            return result.rounds

        replayed: dict[str, tuple[int | None, list[ReplayRound]]] = {}
        for lab in free:
            rounds = replayed_rounds(lab, self._configurations[lab].method)
            if rounds is not None:
                replayed[lab] = (self._configurations[lab].num_speculative_tokens or MODEL_FREE_DEPTH, rounds)
        options = self._configurations.get(label)
        depth = options.num_speculative_tokens if options is not None and options.enabled else None
        kind = self._kind_of(request)
        estimated: dict[str, tuple[int | None, Estimate]] = {}
        for lab in self._configurations:
            expected = self.acceptance.estimate(lab, kind) if self._drafter(lab) else None
            if expected is not None:
                estimated[lab] = (self._configurations[lab].num_speculative_tokens, expected)
        chains: dict[str, Chain] = {}
        for lab, (drafter, n_grams) in self._chains().items():
            rounds = replayed_rounds(lab, "+".join(n_grams))  # its state follows every answer
            found = estimated.get(drafter)  # (its drafter's acceptance from the rounds it ran alone)
            if rounds is not None and found is not None:
                chain_depth = self._configurations[lab].num_speculative_tokens
                chains[lab] = Chain(chain_depth, rounds, drafter, found[1])
        alternatives = predict(
            steps,
            step,
            done.completion_tokens,
            (label, depth, passes),
            replayed,
            free,
            estimated,
            chains,
            sampled=request.sampling.temperature > 0,
        )
        alternatives = self._estimate_bias.corrected(alternatives)  # (from earlier answers only)
        measured = done.decode_tps
        ran = next((a for a in alternatives if a.ran), None)
        if ran is not None and measured:
            errors = self._errors.setdefault(label, deque(maxlen=PREDICTION_ERRORS_KEPT))
            errors.append(ran.decode_tokens_per_second / measured - 1.0)
        # what the estimate would have said of the configuration that ran, against what it measured
        own: float | None = None
        if label in chains:
            own = chain_tps(steps, step, label, chains[label], done.completion_tokens)
        elif label in estimated:  # (a drafter alone: never replayed)
            own = drafter_tps(steps, step, label, estimated[label][1])
        if own is not None and measured:
            self._estimate_bias.observe(label, own, measured)
            log.debug(
                "%s's estimate on its own answer %.1f tok/s, measured %.1f: its estimates scale by %s",
                label,
                own,
                measured,
                self._estimate_bias.factor(label),
            )
        return tuple(alternatives)

    def _replay_params_of(self, label: str) -> ReplayParams:
        """The settings ``label``'s model-free methods run with, as llama.cpp reads them (worked out
        once per configuration)."""
        found = self._replay_params.get(label)
        if found is None:
            base = self.base_request
            plan = translate.plan(self._configurations[label], base.family_name, base.size_in_billions)
            found = self._replay_params[label] = ReplayParams.from_settings(plan.settings)
        return found

    def _methods_of(self, label: str) -> list[str]:
        """The methods configuration ``label`` runs, in llama.cpp's order of priority (its
        engine-native ``speculative.types`` when it names them, as Auto's chains do); none when it
        is off or cannot be planned."""
        found = self._methods.get(label)
        if found is None:
            options = self._configurations.get(label)
            found = []
            if options is not None and options.enabled:
                try:
                    types = translate.plan(options).types
                except SpeculationError:
                    types = []
                found = [translate.METHOD_BY_TYPE[t] for t in types if t in translate.METHOD_BY_TYPE]
                found = found or options.method.split("+")
                free = model_free_methods("llama.cpp")
                found = [m for m in free if m in found] + [m for m in found if m not in free]
            self._methods[label] = found
        return found

    def _chains(self) -> dict[str, tuple[str, list[str]]]:
        """The chains among the configurations (one drafter and model-free methods): label -> the
        configuration running that drafter alone (with the same drafter file), and the chain's
        model-free methods (llama.cpp tries every one of them before the drafter)."""
        free = model_free_methods("llama.cpp")
        out: dict[str, tuple[str, list[str]]] = {}
        for lab, options in self._configurations.items():
            methods = self._methods_of(lab)
            drafters = [m for m in methods if m not in free]
            if len(drafters) != 1 or len(methods) < 2:
                continue
            alone = next(
                (
                    other
                    for other, o in self._configurations.items()
                    if self._drafter(other)
                    and self._methods_of(other) == drafters
                    and o.draft_model_path == options.draft_model_path
                ),
                None,
            )
            if alone is not None:
                out[lab] = (alone, [m for m in methods if m in free])
        return out

    def _drafter(self, label: str) -> bool:
        """Configuration ``label`` drafts with a drafter model alone (no chain): its acceptance on an
        answer it did not draft is estimated from the rounds it drafted."""
        options = self._configurations.get(label)
        methods = self._methods_of(label)
        return bool(options is not None and options.draft_model_path) and (
            len(methods) == 1 and methods[0] in DRAFTER_METHODS
        )

    def _model_free_only(self, label: str) -> bool:
        """Configuration ``label`` runs model-free methods only (so its drafts can be replayed)."""
        options = self._configurations.get(label)
        if options is None or not options.enabled or options.draft_model_path:
            return False
        free = model_free_methods("llama.cpp")
        methods = self._methods_of(label)
        return bool(methods) and all(part in free for part in methods)

    def _end_token(self) -> int | None:
        """The model's end-of-generation token (read from the GGUF once)."""
        if self._eos is None:
            try:
                eos = gguf_tools.vocab_info(Path(self.base_request.model_path)).eos
                self._eos = -1 if eos is None else eos
            except (OSError, ValueError) as exc:
                log.info("the model's end token is unknown: %s", exc)
                self._eos = -1
        return self._eos if self._eos >= 0 else None

    def prediction_errors(self) -> dict[str, tuple[float, int]]:
        """Per configuration, the median of |predicted / measured - 1| of its answers' speed (the
        cost model's error, measured on every answer), and how many answers it rests on."""
        return {
            label: (statistics.median(abs(e) for e in errors), len(errors))
            for label, errors in list(self._errors.items())
            if errors
        }

    def steps_for(self, engine: Engine) -> PlainSteps:
        """The plain steps and pass costs of the children computing with ``engine``'s thread count."""
        n = engine.n_threads if isinstance(engine, TokenReplay) else 0
        return self._steps.setdefault(n, PlainSteps())
