"""The calibration: each candidate measured against speculation off on this machine.

:func:`calibrate` measures on fixed prompts (prose, a code edit, the code edit sent again),
alternating off/on, greedy, few tokens (prose twice when one pair alone would keep an otherwise
winning candidate out, see :func:`needs_prose_recheck`). Then, while a decision rests on a tie
(:func:`contested`: configurations whose figures are not apart beyond the noise), it measures the
tied configurations again in turn, a pair per workload in question each time, until their intervals
separate, each workload has :data:`MAX_PAIRS` pairs, or the time budget ends (as long again as the
first pass); a tie left at the end goes to the cheaper configuration (see
:func:`~app.core.launch.auto.policy.choose`). It checks a
:class:`~app.core.cancel.CancelToken` between steps and passes it to every generation, reports
``progress(fraction, step)``, and closes every engine it loaded before returning or raising.
Nothing is stored here (:func:`app.core.launch.auto.store.store_result`).
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from app.core.answer import Answer, collect
from app.core.cancel import CancelToken
from app.core.engines.base import ChatMessage, Engine, EngineError, LoadRequest, Sampling
from app.core.engines.blocking import generate
from app.core.engines.threads import CpuLayout, machine_layout, math_cores
from app.core.launch.auto.candidates import OFF, Candidate
from app.core.launch.auto.decide import START_MARGIN, Figure
from app.core.launch.auto.kinds import RequestKind
from app.core.launch.auto.policy import (
    CAL_Z,
    OFF_FIGURE,
    PROSE_FLOOR,
    WORKLOADS,
    Measurement,
    apart,
    best_drafter,
    cost,
    figure,
    pair_noise,
    qualifies,
    tie_of_fastest,
)
from app.core.launch.auto.progress import Progress, Step
from app.core.launch.auto.routing import WORKLOAD_OF, figures_for, routed_launch
from app.core.launch.auto.store import CalibrationKey, CalibrationResult
from app.core.speculative.options import SUFFIX_METHODS, SpeculationOptions
from app.core.speculative.suffix import PRIVATE_CORPUS

#: New tokens per measured answer: enough for a decode rate, short enough for a < 30 s calibration.
MAX_TOKENS = 40
#: Progress steps per candidate: its load, five measured answers and a possible prose re-check (2).
STEPS_PER_CANDIDATE = 8
#: Unmeasured tokens generated right after each load (see :func:`_warm`).
WARMUP_TOKENS = 4
#: Where a resumable calibration (``partial``) keeps its thread speeds (not a configuration).
THREADS_MEASURED = Candidate("threads", 0)
#: Rounds of plain answers per thread count (each count once a round, the order reversed each round).
THREAD_ROUNDS = 3
#: Thread counts within this share of the fastest count's speed tie; the fewest threads wins a tie.
THREAD_TIE = 0.05
#: Pairs per workload and configuration the re-measuring stops at.
MAX_PAIRS = 6
#: Pairs each side of a decision rests on at least (both configurations of the launch's choice and
#: of each kind's route against its best alternative): one pair can be an outlier.
MIN_PAIRS = 2
#: Share of the progress bar the first pass fills (the re-measuring fills the rest by time).
FIRST_PASS_SHARE = 0.7

PROSE_PROMPT = "Describe a quiet morning in a small fishing village, in one paragraph."
#: The prose re-check's prompt: another first request (a model-free method remembers the first one).
PROSE_RECHECK_PROMPT = "Describe a walk through an old market town on a rainy afternoon, in one paragraph."
#: The prose prompts the re-measuring takes in turn (each candidate is loaded afresh: nothing remembered).
PROSE_PROMPTS = (PROSE_PROMPT, PROSE_RECHECK_PROMPT)
CODE_PROMPT = (
    "Here is a Python function:\n\ndef area(w, h):\n    return w * h\n\n"
    "Rename w to width and h to height, add a docstring, and return the whole function."
)
#: The code edits the re-measuring takes in turn (a drafter and a model-free method each copy one
#: edit better than another: a single prompt would measure that prompt, not code edits).
CODE_PROMPTS = (
    CODE_PROMPT,
    "Here is a Python function:\n\ndef total(prices):\n    s = 0\n    for p in prices:\n        s += p\n"
    "    return s\n\nRename s to subtotal, add type hints and a docstring, and return the whole function.",
)


class CalibrationCancelled(Exception):
    """The calibration was cancelled; nothing was stored and every engine it loaded is closed."""


class CalibrationError(RuntimeError):
    """The calibration could not measure (e.g. an answer too short for a decode rate)."""


def skip_reason(cand: Candidate, done: Sequence[Measurement]) -> str | None:
    """Why ``cand`` is not worth measuring after ``done`` (None: measure it).

    Classic drafter depths: 4 first; 8 only if 4 qualified, 2 only if it did not. A combination
    only when some drafter depth qualified on its own (it runs at that depth).
    """
    if "+" in cand.method:
        return None if best_drafter(done) else "the drafter alone did not qualify"
    if cand.uses_drafter and cand.method != "mtp" and cand.tokens_per_round in (2, 8):
        four = next((m for m in done if m.candidate == replace(cand, tokens_per_round=4)), None)
        if four is None:
            return None
        if cand.tokens_per_round == 8 and not qualifies(four):
            return "4 per round did not qualify, so 2 was tried instead"
        if cand.tokens_per_round == 2 and qualifies(four):
            return "4 per round qualified, so 8 was tried instead"
    return None


# --- measuring ----------------------------------------------------------------------------------
def _warm(engine: Engine, cancel: CancelToken) -> None:
    """A few unmeasured tokens right after a load: the first request pays for page faults and
    buffers, which would otherwise count against whichever workload runs first."""
    _run(engine, "Say hello.", cancel, WARMUP_TOKENS)


def _run(engine: Engine, prompt: str, cancel: CancelToken, max_tokens: int) -> Answer:
    """One greedy measured answer; :class:`CalibrationCancelled` when stopped or not complete."""
    if cancel.cancelled:
        raise CalibrationCancelled()
    messages: list[ChatMessage] = [{"role": "user", "content": prompt}]
    greedy = Sampling(temperature=0.0, max_tokens=max_tokens)
    answer = collect(generate(engine, messages, greedy, cancel), cancel)
    if cancel.cancelled or answer.cancelled:
        raise CalibrationCancelled()
    return answer


def _detail(off: Answer, on: Answer) -> dict[str, Any]:
    drafting = [r for r in on.rounds if r.drafted > 0]
    off_tps, on_tps = off.decode_tps, on.decode_tps
    return {
        "off_tps": None if off_tps is None else round(off_tps, 2),
        "off_tokens": off.completion_tokens,
        "on_tps": None if on_tps is None else round(on_tps, 2),
        "tokens": on.completion_tokens,
        "acceptance": round(on.accepted_total / on.drafted_total, 3) if on.drafted_total else None,
        "tokens_per_drafting_round": round(sum(r.emitted for r in drafting) / len(drafting), 2)
        if drafting
        else None,
    }


def _ratio(off: Answer, on: Answer) -> float | None:
    off_tps, on_tps = off.decode_tps, on.decode_tps
    return on_tps / off_tps if off_tps and on_tps is not None else None


def _mean_ratio(ratios: Sequence[float | None]) -> float | None:
    """Geometric mean of measured pair ratios (None if any pair has none)."""
    if not ratios or any(r is None or r <= 0 for r in ratios):
        return None
    return math.exp(sum(math.log(r) for r in ratios if r) / len(ratios))


def needs_prose_recheck(ratios: dict[str, float | None]) -> bool:
    """Whether one prose pair below :data:`PROSE_FLOOR` is all that keeps a configuration out.

    A single 40-token pair swings by several percent on a busy machine, and a method that does
    nothing on a first request (ngram-mod) measures about 1.0x there: one unlucky pair would
    exclude the configuration that pays most on repeats. Such a configuration (its other
    workloads would give a mean above 1.0 even at the floor) gets a second prose pair, on another
    prompt (:data:`PROSE_RECHECK_PROMPT`: the candidate remembers the first one, so that would be
    a repeat), and the rule then reads the geometric mean of both pairs. A prose pair above the floor, or a
    configuration that would not qualify anyway, is measured once.
    """
    prose = ratios.get("prose")
    if prose is None or prose >= PROSE_FLOOR:
        return False
    rest = [ratios.get(w) for w in WORKLOADS if w != "prose"]
    if any(r is None or r <= 0 for r in rest):
        return False
    return PROSE_FLOOR * math.prod(r for r in rest if r) > 1.0


def contested(measurements: Sequence[Measurement]) -> dict[Candidate, set[str]]:
    """The configurations a decision rests on a tie between, with the workloads in question (only
    those with fewer than :data:`MAX_PAIRS` pairs; empty when every decision is settled).

    * The launch's choice: every qualifying configuration not apart from the fastest, on all
      workloads (their mean decides).
    * A configuration kept out only by the prose floor whose prose interval reaches it and whose
      mean would lead: its prose.
    * Each kind's route (:func:`~app.core.launch.auto.routing.routes`): a configuration that might
      beat the launch's by more than a start's margin but is not apart from it yet, and one that
      might be slower than off: both sides on the kind's workloads.
    * Every decision's two sides (the two fastest for the launch; the launch's configuration and the
      best other on each kind) with fewer than :data:`MIN_PAIRS` pairs.
    """
    noise = pair_noise(measurements)
    by_candidate = {m.candidate: m for m in measurements if m.candidate != OFF and "error" not in m.details}
    out: dict[Candidate, set[str]] = {}

    def need(c: Candidate, workloads: Sequence[str], below: int = MAX_PAIRS) -> None:
        m = by_candidate.get(c)
        if m is not None:
            more = {m.source(w) for w in workloads if len(m.pairs(w)) < below}
            if more:
                out.setdefault(c, set()).update(more)

    def confirm(figures: Sequence[Figure], workloads: Sequence[str]) -> None:
        """A decision's two sides rest on :data:`MIN_PAIRS` pairs each (one pair can be an outlier)."""
        for f in figures:
            need(f.candidate, workloads, MIN_PAIRS)

    off = OFF_FIGURE

    def launch_decision(workloads: Sequence[str]) -> list[Figure]:
        """The launch rule's decision on ``workloads``: its tie measured again, its two sides
        confirmed; the tie returned."""
        eligible = [off]
        for m in by_candidate.values():
            f = figure(m, workloads, noise)
            if f is not None and qualifies(m):
                eligible.append(f)
        tie = tie_of_fastest(eligible)
        if len(tie) > 1:
            for f in tie:
                need(f.candidate, workloads)
        confirm(sorted(eligible, key=lambda f: -f.mean)[:2], workloads)
        return tie

    fastest = max(launch_decision(WORKLOADS), key=lambda f: f.mean)
    whole = {c: figure(m, WORKLOADS, noise) for c, m in by_candidate.items()}
    for c, whole_figure in whole.items():
        prose = by_candidate[c].ratios.get("prose")
        prose_figure = figure(by_candidate[c], ("prose",), noise)
        if whole_figure is None or prose_figure is None or prose is None or prose >= PROSE_FLOOR:
            continue
        if prose_figure.interval(CAL_Z)[1] >= PROSE_FLOOR and whole_figure.mean >= fastest.mean:
            need(c, ("prose",))
    launch, narrowed = routed_launch(measurements)
    if narrowed != list(WORKLOADS):  # a pool's launch is chosen again on the kinds left to it
        launch_decision(narrowed)
    launched = launch.candidate
    for kind in RequestKind:
        workloads = WORKLOAD_OF[kind]
        usable = figures_for(kind, measurements, noise).usable
        here = usable.get(launched, off)
        if here.mean < 0 and not apart(off, here):
            need(here.candidate, workloads)
        confirm(
            [here, *sorted((f for f in usable.values() if f is not here), key=lambda f: -f.mean)[:1]],
            workloads,
        )
        for f in usable.values():
            if f is not here and f.mean > here.mean + START_MARGIN and not apart(f, here, START_MARGIN):
                need(f.candidate, workloads)
                need(here.candidate, workloads)
    return out


def _measure_again(
    m: Measurement,
    workloads: set[str],
    off_engine: Engine,
    load_on: Callable[[Candidate], Engine],
    cancel: CancelToken,
    max_tokens: int,
    step: Callable[[Step], None],
) -> None:
    """One more pair on each of ``workloads`` for ``m``'s configuration, loaded afresh (so a
    model-free method remembers nothing from before, as in the first pass)."""
    cand = m.candidate
    step(Step("load", cand.label))
    on_engine = load_on(cand)
    try:
        _warm(on_engine, cancel)
        if "prose" in workloads:
            prompt = PROSE_PROMPTS[len(m.pairs("prose")) % len(PROSE_PROMPTS)]
            step(Step("prose-again-off", cand.label))
            off = _run(off_engine, prompt, cancel, max_tokens)
            step(Step("prose-again", cand.label))
            m.add("prose", _ratio(off, _run(on_engine, prompt, cancel, max_tokens)))
        if "code" in workloads or "repeat" in workloads:
            code = CODE_PROMPTS[len(m.pairs("code")) % len(CODE_PROMPTS)]
            step(Step("code-off", cand.label))
            off = _run(off_engine, code, cancel, max_tokens)
            step(Step("code", cand.label))
            m.add("code", _ratio(off, _run(on_engine, code, cancel, max_tokens)))
            if m.source("repeat") == "repeat" and "repeat" in workloads:
                step(Step("repeat", cand.label))
                m.add("repeat", _ratio(off, _run(on_engine, code, cancel, max_tokens)))
    finally:
        on_engine.close()


Loader = Callable[[LoadRequest], Engine]


def measuring_options(cand: Candidate, drafter_path: str | None) -> SpeculationOptions:
    """The options ``cand`` is measured with: its own, except that suffix decoding gets a private
    corpus (it starts empty and keeps nothing past the engine). The corpus is shared with the
    user's chats otherwise: the calibration would measure on their history and teach its fixed
    prompts to every later answer, which would then draft fishing villages. The repeat workload
    still sees the code edit's first answer, kept in the engine's memory."""
    options = cand.options(drafter_path)
    if options.enabled and options.method in SUFFIX_METHODS:
        return replace(options, engine_native={**options.engine_native, PRIVATE_CORPUS: True})
    return options


def calibrate(
    key: CalibrationKey,
    base: LoadRequest,
    drafter_path: str | None,
    cands: Sequence[Candidate],
    load: Loader,
    cancel: CancelToken | None = None,
    progress: Progress | None = None,
    max_tokens: int | None = None,
    partial: dict[Candidate, Measurement] | None = None,
    refine_seconds: float | None = None,
) -> CalibrationResult:
    """Measure the candidates against off; nothing is stored here (see :func:`store_result`).

    ``partial`` lets a cancelled calibration resume (Auto measures while the user is
    idle and stops for each message): every candidate measured is put there as soon as it is, and
    one already there is not measured again (its off/on pairs were measured together, so they
    stay comparable).

    ``base`` is the launch's request (model, context, threads, template); each candidate's request
    is ``base`` with that candidate's speculation. ``load`` builds an engine from a request (the
    public :func:`app.core.launch.plan.load_engine` bound to the engine name). One spec-off engine stays
    loaded; each candidate is loaded in turn (llama.cpp fixes method and depth at load) and closed
    before the next. Per candidate, alternating: off prose, on prose, off code edit, on code edit,
    and, for a candidate with a model-free method, the same code edit again on the candidate
    ("repeat", against the same off run). A drafter keeps nothing between requests, so a
    drafter-only candidate's repeat ratio is its code-edit ratio (said in its details). A prose
    pair just below the floor of an otherwise winning candidate is measured a second time (see
    :func:`needs_prose_recheck`).

    Then the ties (:func:`contested`) are measured again, the tied configurations in turn, each
    loaded afresh, until none is left or ``refine_seconds`` (default: as long as the first pass
    took) have passed. Every pair is kept (:attr:`Measurement.samples`): the figures and their
    intervals are read from them.
    """
    cancel = cancel or CancelToken()
    say = progress or (lambda _f, _m: None)
    max_tokens = max_tokens or MAX_TOKENS
    started = time.perf_counter()
    todo = [c for c in cands if c.method != "off"]
    steps = max(1, len(todo) * STEPS_PER_CANDIDATE + 1)
    done = 0

    def step(message: Step) -> None:
        nonlocal done
        if cancel.cancelled:
            raise CalibrationCancelled()
        say(min(FIRST_PASS_SHARE * done / steps, 0.99), message)
        done += 1

    def load_on(c: Candidate) -> Engine:
        return load(replace(base, speculation=measuring_options(c, drafter_path)))

    thread_speeds: dict[int, float] = {}
    counts = thread_counts(machine_layout()) if key.threads is not None and base.n_threads is None else []
    steps += len(counts) if len(counts) > 1 else 0
    if len(counts) > 1:
        known = partial.get(THREADS_MEASURED) if partial is not None else None
        if known is not None:  # measured before a cancel: the configurations resume at that count
            thread_speeds = {int(n): float(v) for n, v in known.details["speeds"].items()}
            done += len(counts)
        else:
            thread_speeds = measure_threads(base, counts, load, cancel, max_tokens, step)
            if partial is not None:
                partial[THREADS_MEASURED] = Measurement(THREADS_MEASURED, {}, {"speeds": thread_speeds})
        base = replace(base, n_threads=fastest_threads(thread_speeds))
    measurements = [Measurement(OFF, dict.fromkeys(WORKLOADS, 1.0))]
    drafter_kind: str | None = None  # what the engine runs the drafter as (a Gemma 4 assistant: mtp)
    step(Step("load-off"))
    off_engine = load(replace(base, speculation=SpeculationOptions()))
    try:
        _warm(off_engine, cancel)
        for cand in todo:
            skip = skip_reason(cand, measurements)
            if skip:
                done += STEPS_PER_CANDIDATE
                continue
            known = partial.get(cand) if partial is not None else None
            if known is not None:  # measured before a cancel: reused
                measurements.append(known)
                if cand.uses_drafter and "+" not in cand.method:
                    drafter_kind = known.details.get("engine_kind") or drafter_kind
                done += STEPS_PER_CANDIDATE
                continue
            asked = cand
            if "+" in cand.method:  # the combination runs the best drafter depth
                best = best_drafter(measurements)
                assert best is not None
                first, second = cand.method.split("+")
                cand = replace(
                    cand,
                    method=f"{drafter_kind or first}+{second}",
                    tokens_per_round=best.candidate.tokens_per_round,
                )
            step(Step("load", cand.label))
            measuring_since = time.perf_counter()
            try:
                on_engine = load_on(cand)
            except EngineError as exc:  # this configuration cannot run here: say so, try the rest
                if cancel.cancelled:
                    raise CalibrationCancelled() from exc
                failed = Measurement(cand, dict.fromkeys(WORKLOADS), {"error": str(exc)})
                measurements.append(failed)
                if partial is not None:
                    partial[asked] = failed
                done += STEPS_PER_CANDIDATE - 1
                continue
            try:
                if cand.uses_drafter and "+" not in cand.method:
                    drafter_kind = on_engine.spec_kind or drafter_kind
                _warm(on_engine, cancel)
                step(Step("prose-off", cand.label))
                off_prose = _run(off_engine, PROSE_PROMPT, cancel, max_tokens)
                step(Step("prose", cand.label))
                on_prose = _run(on_engine, PROSE_PROMPT, cancel, max_tokens)
                step(Step("code-off", cand.label))
                off_code = _run(off_engine, CODE_PROMPT, cancel, max_tokens)
                step(Step("code", cand.label))
                on_code = _run(on_engine, CODE_PROMPT, cancel, max_tokens)
                remembers = not cand.uses_drafter or "+" in cand.method
                step(Step("repeat", cand.label))
                on_again = _run(on_engine, CODE_PROMPT, cancel, max_tokens) if remembers else None
                ratios = {
                    "prose": _ratio(off_prose, on_prose),
                    "code": _ratio(off_code, on_code),
                    "repeat": _ratio(off_code, on_again or on_code),
                }
                prose_pairs = [ratios["prose"]]
                prose_again: dict[str, Any] | None = None
                if needs_prose_recheck(ratios):
                    step(Step("prose-again-off", cand.label))
                    off_prose2 = _run(off_engine, PROSE_RECHECK_PROMPT, cancel, max_tokens)
                    step(Step("prose-again", cand.label))
                    on_prose2 = _run(on_engine, PROSE_RECHECK_PROMPT, cancel, max_tokens)
                    prose_pairs.append(_ratio(off_prose2, on_prose2))
                    prose_again = _detail(off_prose2, on_prose2)
                    ratios["prose"] = _mean_ratio(prose_pairs)
                else:
                    done += 2
            finally:
                on_engine.close()
            repeat_detail = (
                _detail(off_code, on_again)
                if on_again is not None
                else {"same_as": "code", "why": "a drafter keeps nothing between requests"}
            )
            prose_detail = _detail(off_prose, on_prose)
            if prose_again is not None:
                prose_detail["pairs"] = [None if r is None else round(r, 3) for r in prose_pairs]
                prose_detail["again"] = prose_again
            details: dict[str, Any] = {
                "prose": prose_detail,
                "code": _detail(off_code, on_code),
                "repeat": repeat_detail,
            }
            if cand.uses_drafter and "+" not in cand.method and drafter_kind:
                details["engine_kind"] = drafter_kind
            details["seconds"] = round(time.perf_counter() - measuring_since, 2)
            samples = {"prose": [r for r in prose_pairs if r is not None]}
            for w in ("code", "repeat"):
                r = ratios[w]
                if r is not None and not (w == "repeat" and on_again is None):
                    samples[w] = [r]
            measured = Measurement(cand, ratios, details, samples)
            measurements.append(measured)
            if partial is not None:
                partial[asked] = measured
        # as long again as the first pass took, also when most of it was measured before a cancel
        # (``partial``): the candidates' own times, and this call's plain load
        measured_before = sum(m.details.get("seconds", 0.0) for m in measurements if m.candidate != OFF)
        first_pass = max(time.perf_counter() - started, measured_before)
        budget = first_pass if refine_seconds is None else refine_seconds
        deadline = time.perf_counter() + budget

        def again_step(message: Step) -> None:
            if cancel.cancelled:
                raise CalibrationCancelled()
            left = max(0.0, deadline - time.perf_counter())
            share = 1.0 - left / budget if budget > 0 else 1.0
            say(min(FIRST_PASS_SHARE + (1 - FIRST_PASS_SHARE) * share, 0.99), message)

        by_candidate = {m.candidate: m for m in measurements}
        while time.perf_counter() < deadline:
            ties = contested(measurements)
            if not ties:
                break
            for c in sorted(ties, key=cost):  # each tied configuration in turn, one more pair each
                if time.perf_counter() >= deadline:
                    break
                _measure_again(by_candidate[c], ties[c], off_engine, load_on, cancel, max_tokens, again_step)
    finally:
        off_engine.close()
    if cancel.cancelled:
        raise CalibrationCancelled()
    say(1.0, Step("done"))
    result = CalibrationResult(key, measurements, time.perf_counter() - started)
    result.thread_speeds = thread_speeds
    result.threads = base.n_threads if thread_speeds else None
    return result


def thread_counts(layout: CpuLayout) -> list[int]:
    """The thread counts that can win on ``layout``: one, the cores that do math, every CPU this
    process may use (hyper-threads and efficiency cores included)."""
    return sorted({1, math_cores(layout), layout.allowed or layout.logical})


def fastest_threads(speeds: Mapping[int, float]) -> int:
    """The fewest threads within :data:`THREAD_TIE` of the fastest count (fewer threads leave
    cores to other programs and lose less when one of them wakes up)."""
    best = max(speeds.values())
    return min(n for n, v in speeds.items() if v >= best * (1 - THREAD_TIE))


def measure_threads(
    base: LoadRequest,
    counts: Sequence[int],
    load: Loader,
    cancel: CancelToken,
    max_tokens: int,
    step: Callable[[Step], None],
) -> dict[int, float]:
    """Plain decode tokens/s of each thread count on prose: one engine per count loaded at once
    (they take turns, as a model's engines do), asked in turn :data:`THREAD_ROUNDS` times with the
    order reversed each round; the median per count."""
    engines: dict[int, Engine] = {}
    speeds: dict[int, list[float]] = {n: [] for n in counts}
    try:
        for n in counts:
            step(Step("threads", f"{n} thread{'s' if n != 1 else ''}"))
            engines[n] = load(replace(base, speculation=SpeculationOptions(), n_threads=n))
            _warm(engines[n], cancel)
        for r in range(THREAD_ROUNDS):
            for n in counts if r % 2 == 0 else list(reversed(counts)):
                tps = _run(engines[n], PROSE_PROMPT, cancel, max_tokens).decode_tps
                if tps:
                    speeds[n].append(tps)
    finally:
        for engine in engines.values():
            engine.close()
    return {n: statistics.median(v) for n, v in speeds.items() if v}
