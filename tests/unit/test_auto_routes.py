"""Auto's per-request routes: from measurements, before any, and corrected by real answers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.core.launch import auto
from app.core.launch.auto import OFF, Candidate, Measurement, RequestKind, RouteLearner, Routes, routes
from app.core.launch.auto.decide import EXPLORE_EVERY, MIN_ANSWERS
from app.core.launch.auto.learning import speedup
from app.core.launch.auto.routing import choose_routed, routed_launch
from tests.unit.auto_measured import measured

PROSE, CODE, REPEAT, AGENT = RequestKind.PROSE, RequestKind.CODE_EDIT, RequestKind.REPEAT, RequestKind.AGENT
DRAFT8 = Candidate("draft", 8, None, 0.2)
NGRAM = Candidate("ngram-mod", 64)
CHAIN = Candidate("draft+ngram-mod", 8, 64, 0.2)
MTP = Candidate("mtp")
SUFFIX = Candidate("suffix")


m = measured


# Measured on the embedded pair on a quiet machine (one launch per configuration): the drafter pays
# on prose, ngram-mod on repeats, the chain in between. Five pairs per workload.
MEASURED = [
    Measurement(OFF, dict.fromkeys(auto.WORKLOADS, 1.0)),
    m(DRAFT8, 1.29, 1.33, 1.25),
    m(NGRAM, 1.00, 1.40, 4.60),
    m(CHAIN, 1.26, 1.45, 2.37),
]


def test_each_kind_gets_the_configuration_that_pays_for_it() -> None:
    """The launch runs ngram-mod (the best mean, clearly); a kind moves off it only for a gain beyond
    the noise and the cost of a start."""
    assert auto.choose(MEASURED).candidate == NGRAM
    r = routes(MEASURED)
    assert r[PROSE] == DRAFT8  # 1.29x against ngram-mod's 1.00x: worth a start
    assert r[CODE] == NGRAM  # the chain's 1.45x is 4% above ngram-mod's 1.40x: not worth a start
    assert r[REPEAT] == NGRAM  # 4.60x
    assert r[AGENT] == CHAIN  # geometric mean of prose and code edit: 1.35x against ngram-mod's 1.18x
    assert r.configurations == [DRAFT8, NGRAM, CHAIN]
    assert r.route(PROSE).expected == pytest.approx(1.29)
    # the rest follow with their figures, as the learner's prior
    assert [c for c, _ in r.route(PROSE).ranked] == [DRAFT8, CHAIN, OFF, NGRAM]
    assert "draft 8/round: 1.29x [" in r.route(PROSE).why and "beyond the noise" in r.route(PROSE).why
    assert "the launch's configuration" in r.route(CODE).why


def test_a_tie_keeps_the_configuration_that_runs() -> None:
    """One pair each: the same figures are within the noise, so every kind stays on the launch's
    configuration (the cheapest of its tie), and a kind where it is slower than off beyond the
    noise goes to off."""
    single = [m(c.candidate, *(c.ratios[w] for w in auto.WORKLOADS), pairs=1) for c in MEASURED[1:]]
    launched = auto.choose(single).candidate
    assert launched == NGRAM  # ties with the chain (1.86x against 1.63x, one pair each): the cheaper
    r = routes(single)
    assert r[CODE] == r[REPEAT] == r[AGENT] == NGRAM
    assert r[PROSE] == NGRAM  # the drafter's 1.29x on one prose pair is within the noise and a start
    slow = routes([m(DRAFT8, 1.5, 1.5, 1.5), m(NGRAM, 0.98, 1.0, 5.0)])
    assert auto.choose([m(DRAFT8, 1.5, 1.5, 1.5), m(NGRAM, 0.98, 1.0, 5.0)]).candidate == NGRAM
    assert slow[PROSE] == DRAFT8 and slow[REPEAT] == NGRAM


def test_a_kind_slower_than_off_beyond_the_noise_goes_to_off() -> None:
    r = routes([m(DRAFT8, 1.6, 0.8, 0.8)])
    assert auto.choose([m(DRAFT8, 1.6, 0.8, 0.8)]).candidate == OFF  # mean 1.0x: no gain
    drafty = routes([m(DRAFT8, 2.0, 0.85, 2.0)])
    assert auto.choose([m(DRAFT8, 2.0, 0.85, 2.0)]).candidate == DRAFT8
    assert drafty[CODE] == OFF and "slower beyond the noise" in drafty.route(CODE).why
    assert drafty[PROSE] == DRAFT8
    assert r[PROSE] == DRAFT8  # off launched; the drafter's 1.6x on prose is worth a start


def test_prose_floor_only_for_prose_like_kinds() -> None:
    slow_prose = m(NGRAM, 0.90, 1.50, 4.0)
    r = routes([m(DRAFT8, 1.10, 1.05, 1.05), slow_prose])
    assert r[PROSE] == DRAFT8 and r[AGENT] == DRAFT8  # below the floor on prose: never for prose
    assert r[CODE] == NGRAM and r[REPEAT] == NGRAM  # a code edit or repeat is known to copy
    assert "below the prose floor" in r.route(AGENT).why


def test_nothing_that_beats_off_and_demotions() -> None:
    r = routes([m(DRAFT8, 0.95, 0.99, 0.99), m(NGRAM, 0.98, 1.0, None)])
    assert all(r[k] == OFF for k in RequestKind)
    demoted = routes(MEASURED, {NGRAM: 0.8})
    assert demoted[REPEAT] == CHAIN  # the next best on repeats
    assert "ngram-mod 64/round demoted" in demoted.route(REPEAT).why
    assert Routes()[PROSE] == OFF  # a kind with no route runs off


def test_a_calibration_result_gives_its_routes() -> None:
    key = auto.CalibrationKey(None, None, "llama.cpp", "1", 2, {"cpu": "test"})
    result = auto.CalibrationResult(key, MEASURED, 1.0, demoted={NGRAM: 0.9})
    assert result.choice.candidate == CHAIN
    # the chain runs; the drafter's 1.29x on prose is 2% above its 1.26x: the chain keeps prose
    assert result.routes[REPEAT] == CHAIN and result.routes[PROSE] == CHAIN


def test_routes_round_trip_through_json() -> None:
    r = routes(MEASURED)
    back = Routes.from_json(json.loads(json.dumps(r.to_json())))
    assert all(back[k] == r[k] for k in RequestKind)
    assert back.route(REPEAT).ranked == tuple((c, round(x, 3)) for c, x in r.route(REPEAT).ranked)


def test_prior_per_kind() -> None:
    llama = auto.candidates("llama.cpp", "mtp", ["ngram-mod"], 3)
    p = Routes.prior(llama)
    assert (p[PROSE], p[CODE], p[REPEAT], p[AGENT]) == (
        Candidate("mtp", 3),
        NGRAM,
        NGRAM,
        Candidate("mtp", 3),
    )
    classic = Routes.prior(auto.candidates("llama.cpp", "draft", ["ngram-mod"]))
    # a classic drafter can lose to plain decoding on a CPU: it waits for the measurement
    assert (classic[PROSE], classic[REPEAT], classic[AGENT]) == (OFF, NGRAM, NGRAM)
    mlx = Routes.prior(auto.candidates("mlx", None, auto.auto_model_free("mlx")))
    assert (mlx[PROSE], mlx[CODE], mlx[REPEAT]) == (OFF, SUFFIX, SUFFIX)
    assert Routes.prior([OFF])[REPEAT] == OFF
    assert Routes.prior(llama, demoted=[NGRAM])[REPEAT] == OFF


def test_speedup_from_an_answer_and_the_plain_baseline() -> None:
    assert speedup(30.0, 40, 20.0) == pytest.approx(1.5)
    assert speedup(30.0, 8, 20.0) is None  # too short to say
    assert speedup(30.0, 40, None) is None and speedup(None, 40, 20.0) is None


def test_learner_switches_when_real_answers_lose_beyond_the_noise(tmp_path: Path) -> None:
    """The calibration put repeats on ngram-mod (4.6x); the user's repeats come out at plain speed:
    once the answers outweigh the calibration's prior beyond the noise, the route moves to what is
    now clearly best, and the figures and the route survive a restart."""
    path = tmp_path / "routes.json"
    learner = RouteLearner(routes(MEASURED), path, explore_every=0)
    assert learner.route(REPEAT) == NGRAM
    learner.observe_answer(REPEAT, NGRAM, 20.5, 48, 20.0)
    assert learner.route(REPEAT) == NGRAM  # one answer does not outweigh the calibration
    for tps in (19.8, 20.9, 20.2):
        learner.observe_answer(REPEAT, NGRAM, tps, 48, 20.0)
    assert learner.route(REPEAT) == NGRAM  # the others rest on no real answer yet (exploring gives them some)
    for ratio in (2.3, 2.4):
        learner.observe(REPEAT, CHAIN, ratio)
    assert learner.route(REPEAT) == NGRAM  # two answers are too few to take a route
    learner.observe(REPEAT, CHAIN, 2.35)
    assert learner.route(REPEAT) == CHAIN  # 2.3x on three real answers beats ngram-mod's real 1.0x
    decision = learner.explain(REPEAT)
    assert decision.candidate == CHAIN and "beyond the noise" in decision.why and not decision.exploring
    assert learner.route(PROSE) == DRAFT8  # other kinds are untouched
    figure = learner.table(REPEAT)[NGRAM]
    assert figure.answers == 4 and figure.speedup < 1.3
    lo, hi = figure.interval()
    assert lo < figure.speedup < hi
    learner.save()
    again = RouteLearner(routes(MEASURED), path, explore_every=0)
    assert again.route(REPEAT) == CHAIN and again.table(REPEAT)[NGRAM].answers == 4


def test_learner_keeps_a_route_that_loses_within_the_noise_and_never_stays_below_off() -> None:
    learner = RouteLearner(routes([m(DRAFT8, 1.20, 1.1, 1.1), m(NGRAM, 1.0, 1.15, 1.12)]), explore_every=0)
    for _ in range(5):
        learner.observe(PROSE, DRAFT8, 1.02)  # below the 1.20x measured, still above off by a little
    assert learner.route(PROSE) == DRAFT8  # off (1.0x) is not clearly better
    for _ in range(16):
        learner.observe(PROSE, DRAFT8, 0.85)
    assert learner.route(PROSE) == OFF  # now slower than plain beyond the noise


def test_a_configuration_that_is_not_running_must_win_by_more() -> None:
    """A start and a cold prompt cache are paid inside a request: a small clear gain moves the
    route between running configurations, not to one that would have to start."""
    learner = RouteLearner(routes([m(DRAFT8, 1.30, 1.1, 1.1), m(CHAIN, 1.30, 1.1, 1.1)]), explore_every=0)
    for _ in range(40):
        learner.observe(PROSE, DRAFT8, 1.30)
        learner.observe(PROSE, CHAIN, 1.35)  # 4% better, beyond the (small) noise of equal answers
    learner.running = lambda: [DRAFT8, OFF]
    assert learner.route(PROSE) == DRAFT8
    learner.running = lambda: [DRAFT8, CHAIN, OFF]
    assert learner.route(PROSE) == CHAIN


def test_exploration_is_bounded_and_ends() -> None:
    """Two configurations measured alike: one answer in EXPLORE_EVERY at most explores, and once
    the alternative is known to be worse, none does."""
    learner = RouteLearner(routes([m(DRAFT8, 1.30, 1.1, 1.1), m(CHAIN, 1.25, 1.1, 1.1)]))
    chosen = []
    for i in range(200):
        c = learner.route(PROSE)
        chosen.append(c)
        learner.observe(PROSE, c, (1.30 if c == DRAFT8 else 1.05) * (1.04 if i % 2 else 0.96))
    explored = [c for c in chosen if c != DRAFT8]
    assert 0 < len(explored) <= len(chosen) // EXPLORE_EVERY
    assert all(c == DRAFT8 for c in chosen[100:])  # the alternative is settled: exploring stopped


def test_unreadable_or_other_version_files_are_ignored(tmp_path: Path) -> None:
    path = tmp_path / "routes.json"
    path.write_text("{not json", "utf-8")
    assert RouteLearner(routes(MEASURED), path).route(REPEAT) == NGRAM
    path.write_text(json.dumps({"version": 1, "kinds": {}, "conversations": {}}), "utf-8")
    assert RouteLearner(routes(MEASURED), path).route(REPEAT) == NGRAM
    RouteLearner(routes(MEASURED)).save()  # no path: nothing written, no error


def test_the_request_router_learns_from_the_answers_it_routed(tmp_path: Path) -> None:
    """The router the pool asks: each answer it routed, told back with its configuration
    and decode time, corrects its kind's route; answers it did not route, short answers and
    unknown configurations teach nothing; the figures are written once enough have come."""
    from app.core.engines.base import GenerateRequest, Sampling
    from app.core.launch.auto.router import SAVE_EVERY, RequestRouter, label_of, plain_speed

    measured = [
        Measurement(OFF, dict.fromkeys(auto.WORKLOADS, 1.0)),
        Measurement(DRAFT8, {"prose": 1.29, "code": 1.33, "repeat": 1.25}, {"prose": {"off_tps": 20.0}}),
        Measurement(NGRAM, {"prose": 1.0, "code": 1.4, "repeat": 4.6}, {"code": {"off_tps": 22.0}}),
        m(CHAIN, 1.26, 1.8, 2.37),  # clearly the fastest on the code edit: worth a start there
    ]
    assert plain_speed(measured) == pytest.approx(21.0)
    path = tmp_path / "routes.json"
    learner = RouteLearner(routes(measured), path, explore_every=0)
    router = RequestRouter(routes(measured), "drafter.gguf", True, learner, 20.0)
    assert {"draft", "ngram-mod", "draft+ngram-mod"} <= set(router.configurations())
    text = "Here is my function:\n```python\ndef f(x):\n    return x + 1\n```\nRename x to value."
    assert router(GenerateRequest([{"role": "user", "content": "warm up"}], Sampling())) is not None

    def code_edit(i: int) -> GenerateRequest:
        return GenerateRequest([{"role": "user", "content": f"{text} ({i})"}], Sampling())

    first = code_edit(0)
    label = router(first).name
    assert label == label_of(CHAIN)  # the code edit's measured route
    assert router.kind_of(first) == "code-edit" and router.kind_of(code_edit(98)) == ""
    # an answer it did not route, a short answer and an unknown configuration teach nothing
    assert router.observe(code_edit(99), label, 64, 3.2) is None
    assert router.observe(first, "no-such", 64, 3.2) is None
    short = code_edit(1)
    router(short)
    assert router.observe(short, label, 4, 0.2) is None
    # ngram-mod's answers (routed by an exploring turn in real use) run at its measured 1.40x; a
    # chain answer at plain speed (20 tok/s against 20 plain): the route moves to ngram-mod
    assert learner.explain(CODE).candidate == CHAIN
    for _ in range(MIN_ANSWERS):
        learner.observe(CODE, NGRAM, 1.4)
    for i in range(2, 3):
        request = code_edit(i)
        assert router(request).name == label_of(CHAIN)
        assert router.observe(request, label_of(CHAIN), 64, 3.2) == pytest.approx(1.0)
    assert router(code_edit(10)).name == label_of(NGRAM)  # 1.40x measured beats 1.0x real
    assert not path.exists()  # fewer than SAVE_EVERY answers: not written yet
    router.save()
    assert RouteLearner(routes(measured), path).explain(CODE).candidate == NGRAM
    assert SAVE_EVERY > 3


def test_an_agent_turn_fitted_to_a_template_without_tools_is_still_an_agent_turn() -> None:
    """A template that renders no tools gets them folded into the text (requests.shaping.shape):
    the request then shows no tools, yet the router sends it down the agent route."""
    from app.core.engines.base import GenerateRequest, Sampling, TemplateCaps
    from app.core.launch.auto.router import RequestRouter, label_of
    from app.core.requests.request import ChatRequest
    from app.core.requests.shaping import shape

    tools = [{"type": "function", "function": {"name": "motto", "parameters": {"type": "object"}}}]
    req = ChatRequest(
        messages=[{"role": "user", "content": "What is the motto?"}], sampling=Sampling(), tools=tools
    )
    req = shape(req, TemplateCaps(renders_tools=False), None, True)
    assert req.agentic and not req.tools  # folded into the prompt
    measured = routes(MEASURED)
    plain = GenerateRequest(req.messages, Sampling())
    fitted = GenerateRequest(req.messages, Sampling(), agentic=req.agentic)
    assert RequestRouter(measured, None, True)(fitted).name == label_of(measured[AGENT])
    assert auto.classify(req.messages) != AGENT  # without the mark it would not be
    assert RequestRouter(measured, None, True)(plain).name == label_of(measured[auto.classify(req.messages)])


# Measured on the realistic-cost pair (`tandem calibrate`, 2026-12-05): the chain has the best mean
# because its ngram-mod drafts repeats, but ngram-mod alone drafts them faster beyond the noise; on
# prose and code edits the chain and the drafter alone are a tie. Three pairs per workload.
DEEP = [
    Measurement(OFF, dict.fromkeys(auto.WORKLOADS, 1.0)),
    m(DRAFT8, 1.86, 1.92, 1.92, pairs=3),
    m(NGRAM, 1.00, 0.99, 3.57, pairs=3),
    m(CHAIN, 1.87, 1.85, 3.06, pairs=3),
]


def test_a_pool_launch_is_chosen_for_the_kinds_left_to_it() -> None:
    """One configuration for every kind would be the chain; on a pool the repeats go to ngram-mod
    anyway, so the launch is chosen on prose and code edits, where the chain ties with the cheaper
    drafter alone."""
    assert auto.choose(DEEP).candidate == CHAIN
    assert routed_launch(DEEP)[1] == ["prose", "code"]
    routed = choose_routed(DEEP)
    assert routed.candidate == DRAFT8
    assert routed.why.startswith(
        "draft 8/round for prose, code-edit, agent, document (on prose, code), since repeat ->"
    )
    verdicts = dict(routed.verdicts)
    assert verdicts[NGRAM.label].startswith("for repeat; ")
    assert verdicts[CHAIN.label].startswith("tie, costs more")
    r = routes(DEEP)
    assert r[PROSE] == r[CODE] == r[AGENT] == DRAFT8 and r[REPEAT] == NGRAM
    assert "the launch's configuration" in r.route(PROSE).why
    # the launch loads what the routes assume runs: an engine with a pool routes, one without does not
    pooled = auto.CalibrationResult(
        auto.CalibrationKey(None, None, "llama.cpp", "1", 2, {"cpu": "t"}), DEEP, 1.0
    )
    single = auto.CalibrationResult(auto.CalibrationKey(None, None, "mlx", "1", 2, {"cpu": "t"}), DEEP, 1.0)
    assert pooled.choice.candidate == DRAFT8 and single.choice.candidate == CHAIN
    assert pooled.to_json()["chosen"]["label"] == DRAFT8.label


def test_a_pool_launch_stays_when_every_kind_is_left_to_it_or_none_is() -> None:
    # no kind is served faster elsewhere beyond the noise: the whole rule's choice
    close = [m(DRAFT8, 1.86, 1.92, 1.92, pairs=3), m(CHAIN, 1.87, 1.90, 1.97, pairs=3)]
    assert routed_launch(close)[1] == list(auto.WORKLOADS)
    assert choose_routed(close).candidate == auto.choose(close).candidate == DRAFT8  # the cheaper of a tie
    # every kind is served better elsewhere (off beats a drafter that loses everywhere): off
    slow = [m(DRAFT8, 0.80, 0.80, 0.80, pairs=3)]
    assert choose_routed(slow).candidate == OFF


def test_an_answers_predictions_teach_the_other_configurations() -> None:
    """A replayed prediction counts as an answer of its configuration, an estimated one as an
    estimate (it weighs less and cannot take a route alone)."""
    from app.core.engines.base import GenerateRequest, Sampling
    from app.core.launch.auto.router import RequestRouter, label_of
    from app.core.speculative.predict import Alternative
    from app.core.speculative.speedup import Speedup

    measured = [
        Measurement(OFF, dict.fromkeys(auto.WORKLOADS, 1.0)),
        m(DRAFT8, 0.9, 0.9, 0.9),
        m(NGRAM, 0.9, 0.9, 0.9),
    ]
    learner = RouteLearner(routes(measured), explore_every=0)
    router = RequestRouter(routes(measured), "drafter.gguf", True, learner, 20.0)
    request = GenerateRequest([{"role": "user", "content": "Tell me about rivers."}], Sampling())
    assert router(request).name == "off"
    alternatives = [
        Alternative("off", None, 10.0, "replayed", ran=True),
        Alternative(label_of(NGRAM), 64, 12.0, "replayed"),
        Alternative(label_of(DRAFT8), 8, 15.0, "estimated"),
    ]
    router.observe(request, "off", 64, 6.4, None, Speedup(1.0, "nothing-drafted"), alternatives)
    table = learner.table(PROSE)
    assert table[NGRAM].answers == 1 and table[NGRAM].estimates == 0
    assert table[DRAFT8].answers == 0 and table[DRAFT8].estimates == 1
    assert table[OFF].answers == 1


def test_the_prediction_for_the_configuration_that_ran_is_kept_against_its_measured_speed(
    tmp_path: Path,
) -> None:
    """Every answer's prediction for its own configuration is set against the speed it measured;
    the errors are kept with the learned routes (the launch dialog's Auto panel shows them)."""
    from app.core.engines.base import GenerateRequest, Sampling
    from app.core.launch.auto.router import RequestRouter, label_of
    from app.core.speculative.predict import Alternative
    from app.core.speculative.speedup import Speedup

    measured = [Measurement(OFF, dict.fromkeys(auto.WORKLOADS, 1.0)), m(DRAFT8, 1.5, 1.5, 1.5)]
    path = tmp_path / "routes.json"
    learner = RouteLearner(routes(measured), path, explore_every=0)
    router = RequestRouter(routes(measured), "drafter.gguf", True, learner, 20.0)
    for i, predicted in enumerate((11.0, 9.5, 10.0)):
        request = GenerateRequest([{"role": "user", "content": f"Tell me about rivers, {i}."}], Sampling())
        label = router(request).name
        assert label == label_of(DRAFT8)
        ran = Alternative(label, 8, predicted, "replayed", ran=True)
        router.observe(request, label, 64, 6.4, None, Speedup(1.5, "own-steps"), [ran])  # 10 tok/s
    median, answers = learner.prediction_errors()[DRAFT8]
    assert answers == 3 and median == pytest.approx(0.05)
    learner.save()
    again = RouteLearner(routes(measured), path)
    assert again.prediction_errors()[DRAFT8] == (pytest.approx(0.05), 3)
