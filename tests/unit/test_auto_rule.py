"""Auto's choice rule on fake measurements, its candidates, and stored results."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from app.core.engines.base import LoadRequest
from app.core.engines.capability import Availability
from app.core.engines.llamacpp import translate
from app.core.launch import auto
from app.core.launch.auto import OFF, Candidate, Measurement, choose, runner, store
from app.devtools.scripted import ScriptedStream
from tests.unit.auto_measured import measured

DRAFT4 = Candidate("draft", 4)
DRAFT8 = Candidate("draft", 8)
NGRAM = Candidate("ngram-mod", 64)
COMBO = Candidate("draft+ngram-mod", 4, 64)


m = measured


def base(*ms: Measurement) -> list[Measurement]:
    return [Measurement(OFF, dict.fromkeys(auto.WORKLOADS, 1.0)), *ms]


RULE_TABLE = [
    # (case, measurements, expected choice)
    (
        "prose below 0.97 excluded even with great repeats",
        base(m(NGRAM, 0.96, 1.0, 5.0), m(DRAFT4, 1.1, 1.2, 1.2)),
        DRAFT4,
    ),
    ("prose exactly at the floor qualifies", base(m(NGRAM, 0.97, 1.0, 3.6)), NGRAM),
    ("best mean wins", base(m(DRAFT4, 1.15, 1.36, 1.36), m(NGRAM, 1.0, 1.0, 3.6)), NGRAM),
    ("best mean wins over best prose", base(m(DRAFT4, 1.3, 1.0, 1.0), m(DRAFT8, 1.1, 1.4, 1.4)), DRAFT8),
    ("all slower: off", base(m(DRAFT4, 0.9, 0.8, 0.8), m(NGRAM, 0.95, 0.99, 3.0)), OFF),
    ("prose fine but mean not above 1: off", base(m(DRAFT4, 1.0, 0.9, 0.9)), OFF),
    ("a mean of exactly 1 is no gain: off", base(m(NGRAM, 1.0, 1.0, 1.0)), OFF),
    (
        "equal: the cheaper configuration (the shallower drafter)",
        base(m(DRAFT8, 1.2, 1.2, 1.2), m(DRAFT4, 1.2, 1.2, 1.2)),
        DRAFT4,
    ),
    (
        "within the noise of one pair each: a tie, and off is the cheapest",
        base(m(DRAFT4, 1.05, 1.1, 1.1, pairs=1)),
        OFF,
    ),
    (
        "one pair each, far apart from off: chosen",
        base(m(DRAFT4, 1.5, 1.6, 1.6, pairs=1)),
        DRAFT4,
    ),
    (
        "a faster drafter depth within the noise of a cheaper one: the cheaper",
        base(m(DRAFT4, 1.30, 1.30, 1.30, pairs=1), m(DRAFT8, 1.36, 1.4, 1.4, pairs=1)),
        DRAFT4,
    ),
    (
        "a model-free method tied with a drafter: the model-free method costs less",
        base(m(DRAFT4, 1.25, 1.3, 1.3, pairs=1), m(NGRAM, 1.0, 1.3, 2.0, pairs=1)),
        NGRAM,
    ),
    (
        "an unmeasured workload is never chosen",
        base(m(COMBO, 1.5, None, 4.0), m(DRAFT4, 1.1, 1.1, 1.1)),
        DRAFT4,
    ),
    ("nothing to try: off", base(), OFF),
]


@pytest.mark.parametrize(("case", "measurements", "expected"), RULE_TABLE, ids=[r[0] for r in RULE_TABLE])
def test_choice_rule(case: str, measurements: list[Measurement], expected: Candidate) -> None:
    assert choose(measurements).candidate == expected, case


def test_why_names_each_config_and_what_was_not_used() -> None:
    choice = choose(base(m(NGRAM, 1.0, 1.02, 3.6), m(DRAFT4, 0.9, 1.1, 1.1)))
    assert choice.candidate == NGRAM
    # each workload with its interval (five alike pairs each: the noise is the prior's, pooled)
    assert (
        "ngram-mod 64/round: 1.00x (0.97-1.03) prose, 1.02x (0.99-1.05) code edit, "
        "3.60x (3.49-3.72) on repeats" in choice.why
    )
    assert "draft 4/round: 0.90x (0.87-0.93) prose" in choice.why and choice.why.endswith("not used")
    verdicts = dict(choice.verdicts)
    assert verdicts["draft 4/round"] == "excluded: 0.90x on prose is below 0.97x"
    assert verdicts["ngram-mod 64/round"].startswith("chosen, mean 1.54x")
    off = choose(base(m(DRAFT4, 0.9, 0.8, 0.8)))
    assert off.why.startswith("off: no configuration was faster") and "draft 4/round: 0.90x (" in off.why


def test_geometric_mean() -> None:
    assert m(NGRAM, 1.0, 1.0, 8.0).mean == pytest.approx(2.0)
    assert m(NGRAM, 1.0, None, 8.0).mean is None


def test_candidates_per_engine() -> None:
    labels = [c.label for c in auto.candidates("llama.cpp", "draft", ["ngram-mod"])]
    assert labels == [
        "off",
        "draft 4/round",
        "draft 8/round",
        "draft 2/round",
        "ngram-mod 64/round",
        "draft + ngram-mod 64/round",
    ]
    assert [c.method for c in auto.candidates("mlx", "draft", [])] == ["off", "draft", "draft", "draft"]
    assert auto.candidates("llama.cpp", "mtp", ["ngram-mod"], mtp_depth=4) == [
        OFF,
        Candidate("mtp", 4),
        NGRAM,
        Candidate("mtp+ngram-mod", None, 64),
    ]
    assert auto.candidates("llama.cpp", None, ["ngram-mod"]) == [OFF, NGRAM]
    assert auto.auto_model_free("llama.cpp") == ["ngram-mod"]
    # MLX: suffix decoding and prompt lookup, at the engine's own ceiling, never combined
    assert auto.auto_model_free("mlx") == ["suffix", "prompt-lookup"]
    mlx = auto.candidates("mlx", "mtp", auto.auto_model_free("mlx"))
    assert mlx == [OFF, Candidate("mtp"), Candidate("suffix"), Candidate("prompt-lookup")]
    assert auto.prior(mlx) == Candidate("mtp")
    assert auto.prior(auto.candidates("mlx", None, auto.auto_model_free("mlx"))) == Candidate("suffix")


def test_depth_search_and_combination_skips() -> None:
    good4 = m(DRAFT4, 1.1, 1.2, 1.2)
    bad4 = m(DRAFT4, 0.9, 1.2, 1.2)
    assert runner.skip_reason(DRAFT8, base(good4)) is None
    assert runner.skip_reason(Candidate("draft", 2), base(good4))
    assert runner.skip_reason(DRAFT8, base(bad4))
    assert runner.skip_reason(Candidate("draft", 2), base(bad4)) is None
    assert runner.skip_reason(COMBO, base(bad4, m(NGRAM, 1.0, 1.0, 3.0)))
    assert runner.skip_reason(COMBO, base(good4)) is None


def test_combination_is_one_llamacpp_plan_with_two_types() -> None:
    options = replace(COMBO, tokens_per_round=8).options("/models/drafter.gguf")
    p = translate.plan(options)
    assert p.types == ["DRAFT_SIMPLE", "NGRAM_MOD"]
    assert p.draft_path == "/models/drafter.gguf"
    assert p.settings["speculative.draft.n_max"] == 8
    assert p.settings["speculative.ngram_mod.n_max"] == 64
    assert p.settings["speculative.ngram_mod.n_min"] == auto.NGRAM_MIN_DRAFT
    assert translate.plan(DRAFT4.options("/d.gguf")).types == ["DRAFT_SIMPLE"]
    assert translate.plan(NGRAM.options("/d.gguf")).draft_path is None
    assert not OFF.options("/d.gguf").enabled


def test_ngram_candidates_can_draft_within_a_calibration_answer() -> None:
    """llama.cpp drops an ngram-mod draft shorter than ``ngram_mod.n_min``, and drafts nothing
    once the tokens left to generate, minus one, are fewer than it. With llama.cpp's own 48 a
    40-token calibration answer never drafts (the 64-deep candidate would measure no gain on
    repeats) and the last 48 tokens of every repeat are decoded one by one. Every Auto candidate that runs
    ngram-mod, alone or with the drafter, runs 64 deep and may propose short drafts."""
    with_ngram = [c for c in auto.candidates("llama.cpp", "draft", ["ngram-mod"]) if "ngram-mod" in c.method]
    assert [c.method for c in with_ngram] == ["ngram-mod", "draft+ngram-mod"]
    for cand in with_ngram:
        if "+" in cand.method:
            cand = replace(cand, tokens_per_round=4)  # calibrate() sets the best drafter depth
        settings = translate.plan(cand.options("/d.gguf")).settings
        assert settings["speculative.ngram_mod.n_max"] == 64, cand
        n_min = settings["speculative.ngram_mod.n_min"]
        assert n_min == auto.NGRAM_MIN_DRAFT <= 4, cand
        assert n_min < runner.MAX_TOKENS - 1, cand  # drafts while a calibration answer has tokens left


RECHECK_TABLE = [
    # (case, ratios, re-measure prose?)
    ("ngram-mod unlucky on prose, great on repeats", (0.95, 0.99, 4.0), True),
    ("drafter unlucky on prose, good on code", (0.96, 1.2, 1.2), True),
    ("prose at the floor: measured once", (0.97, 1.0, 4.0), False),
    ("prose above the floor", (1.05, 0.9, 0.9), False),
    ("slow everywhere: would not qualify anyway", (0.90, 0.8, 0.8), False),
    ("no gain even at the floor", (0.95, 1.0, 1.03), False),
    ("a workload not measured", (0.95, None, 4.0), False),
    ("prose not measured", (None, 1.2, 4.0), False),
]


@pytest.mark.parametrize(("case", "ratios", "expected"), RECHECK_TABLE, ids=[r[0] for r in RECHECK_TABLE])
def test_prose_recheck_only_when_one_pair_alone_keeps_a_winner_out(
    case: str, ratios: tuple[float | None, float | None, float | None], expected: bool
) -> None:
    assert auto.needs_prose_recheck(dict(zip(auto.WORKLOADS, ratios, strict=True))) is expected, case


def test_prose_recheck_prompt_is_another_first_request() -> None:
    # a model-free method remembers the first prose answer: the same prompt again would be a repeat
    assert runner.PROSE_RECHECK_PROMPT != runner.PROSE_PROMPT
    assert runner.PROSE_RECHECK_PROMPT not in (runner.CODE_PROMPT,)


# --- storage ----------------------------------------------------------------------------------------
@pytest.fixture
def model_files(tmp_path: Path) -> tuple[Path, Path]:
    target, drafter = tmp_path / "target.gguf", tmp_path / "drafter.gguf"
    target.write_bytes(b"GGUF" + b"t" * 100)
    drafter.write_bytes(b"GGUF" + b"d" * 50)
    return target, drafter


def _key(target: Path, drafter: Path, threads: int | None = 2) -> auto.CalibrationKey:
    return auto.CalibrationKey.for_launch(
        "llama.cpp", LoadRequest(str(target), n_threads=threads), str(drafter)
    )


def _result(key: auto.CalibrationKey) -> auto.CalibrationResult:
    return auto.CalibrationResult(key, base(m(DRAFT4, 1.1, 1.3, 1.3), m(NGRAM, 1.0, 1.01, 3.7)), 12.5)


def test_round_trip(model_files: tuple[Path, Path]) -> None:
    key = _key(*model_files)
    assert auto.load_result(key) is None
    result = _result(key)
    path = auto.store_result(result)
    assert path.is_file() and Path(os.environ["TANDEM_HOME"]) in path.parents
    back = auto.load_result(key)
    assert back is not None
    assert back.stored_path == str(path)
    assert back.choice.candidate == NGRAM == result.choice.candidate
    assert back.choice.why == result.choice.why
    assert [x.candidate for x in back.measurements] == [OFF, DRAFT4, NGRAM]
    assert back.measurements[2].ratios == {"prose": 1.0, "code": 1.01, "repeat": 3.7}
    data = back.to_json()
    assert data["chosen"]["method"] == "ngram-mod" and data["chosen"]["tokens_per_round"] == 64
    assert [c["method"] for c in data["candidates"]] == ["draft", "ngram-mod"]
    assert data["key"]["engine"] == "llama.cpp" and data["key"]["threads"] == 2


def test_engine_version_change_invalidates(
    model_files: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.core.engines import capability

    key = _key(*model_files)
    auto.store_result(_result(key))
    assert auto.load_result(_key(*model_files)) is not None
    monkeypatch.setattr(capability, "engine_availability", lambda name: Availability(True, "2099.1.1"))
    newer = _key(*model_files)
    assert newer.engine_version == "2099.1.1" != key.engine_version
    assert auto.load_result(newer) is None


def test_model_file_change_invalidates(model_files: tuple[Path, Path]) -> None:
    target, drafter = model_files
    auto.store_result(_result(_key(target, drafter)))
    with target.open("ab") as f:
        f.write(b"more")
    assert auto.load_result(_key(target, drafter)) is None
    auto.store_result(_result(_key(target, drafter)))
    assert auto.load_result(_key(target, drafter)) is not None
    os.utime(drafter, ns=(1, 1))  # the drafter file changed (same size, other mtime)
    assert auto.load_result(_key(target, drafter)) is None


def test_threads_and_machine_change_invalidate(model_files: tuple[Path, Path]) -> None:
    key = _key(*model_files, threads=2)
    auto.store_result(_result(key))
    assert auto.load_result(_key(*model_files, threads=1)) is None
    assert auto.load_result(replace(key, machine={**key.machine, "cores": 64})) is None
    assert auto.load_result(replace(key, engine="mlx")) is None
    assert auto.load_result(key) is not None


def test_result_of_an_older_format_is_measured_again(model_files: tuple[Path, Path]) -> None:
    """Results stored before the n-gram candidates changed (16 deep, llama.cpp's n_min) are not
    reused: their ratios describe other configurations."""
    key = _key(*model_files)
    assert key.format == auto.FORMAT_VERSION > 1
    auto.store_result(_result(replace(key, format=auto.FORMAT_VERSION - 1)))
    assert auto.load_result(key) is None
    auto.store_result(_result(key))
    assert auto.load_result(key) is not None


def test_unreadable_store_is_not_a_result(model_files: tuple[Path, Path]) -> None:
    key = _key(*model_files)
    store.result_path(key).write_text("{not json", "utf-8")
    assert auto.load_result(key) is None


def test_stored_ratios_choose_exactly_as_measured(model_files: tuple[Path, Path]) -> None:
    """A prose ratio just under the floor stays under it once stored (no rounding on the way)."""
    key = _key(*model_files)
    result = auto.CalibrationResult(key, base(m(NGRAM, 0.96996, 1.0, 3.5), m(DRAFT4, 1.05, 1.1, 1.1)), 1.0)
    assert result.choice.candidate == DRAFT4
    auto.store_result(result)
    back = auto.load_result(key)
    assert back is not None and back.choice.candidate == DRAFT4
    assert back.to_json()["chosen"] == result.to_json()["chosen"]


# --- the prior, demotions, a calibration that resumes -------------------------------------------
def test_prior_is_a_trained_drafter_else_the_model_free_method_else_off() -> None:
    llama = auto.candidates("llama.cpp", None, ["ngram-mod"])
    assert auto.prior(llama) == Candidate("ngram-mod", auto.NGRAM_DEPTH)
    mtp = auto.candidates("llama.cpp", "mtp", ["ngram-mod"], 3)
    assert auto.prior(mtp) == Candidate("mtp", 3)
    # a classic drafter can lose on a CPU: it waits for the measurement, ngram-mod runs meanwhile
    classic = auto.candidates("llama.cpp", "draft", ["ngram-mod"])
    assert auto.prior(classic) == Candidate("ngram-mod", auto.NGRAM_DEPTH)
    assert auto.prior(auto.candidates("mlx", None, [])) == auto.OFF
    # what lost on the user's answers is skipped
    assert auto.prior(mtp, [Candidate("mtp", 3)]) == Candidate("ngram-mod", auto.NGRAM_DEPTH)
    assert auto.prior(llama, [Candidate("ngram-mod", auto.NGRAM_DEPTH)]) == auto.OFF


def test_a_demoted_configuration_is_never_chosen() -> None:
    ngram = Candidate("ngram-mod", auto.NGRAM_DEPTH)
    ms = base(m(Candidate("draft", 4), 1.0, 1.1, 1.1), m(ngram, 1.0, 1.5, 3.0))
    assert auto.choose(ms).candidate == ngram
    choice = auto.choose(ms, {ngram: 0.8})
    assert choice.candidate == Candidate("draft", 4)
    assert ("ngram-mod 64/round", "demoted: 0.80x vs plain on real answers") in choice.verdicts
    assert auto.choose(ms, {ngram: 0.8, Candidate("draft", 4): 0.9}).candidate == auto.OFF


def test_demotions_are_kept_beside_the_calibration(model_files: tuple[Path, Path]) -> None:
    key = _key(*model_files)
    result = _result(key)
    auto.store_result(result)
    best = result.choice.candidate
    assert best != auto.OFF
    assert auto.store_demoted(key, best, 0.7) == {best: 0.7}
    loaded = auto.load_result(key)
    assert loaded is not None and loaded.demoted == {best: 0.7}
    assert loaded.choice.candidate != best
    auto.forget(key)
    assert auto.load_result(key) is None and auto.load_demoted(key) == {}


class _Steady(ScriptedStream):
    """A fake engine: ``tps`` tokens/s, 20 tokens per answer."""

    spec_kind: str | None = None

    def __init__(self, tps: float) -> None:
        self.tps = tps

    def script(self, messages: Any, sampling: Any, cancel: Any = None, **_kw: Any) -> Any:
        from app.core.engines.base import Finished, TextDelta

        for _ in range(20):
            yield TextDelta("x", 1, False)
        yield Finished("stop", 5, 20, 1.0, 20 / self.tps * 1000.0, 0, 0)

    def close(self) -> None:
        pass


def test_a_calibration_resumes_from_what_it_measured(model_files: tuple[Path, Path]) -> None:
    key = _key(*model_files)
    cands = auto.candidates("llama.cpp", None, ["ngram-mod"])
    loads: list[bool] = []

    def load(req: LoadRequest) -> Any:
        loads.append(req.speculation.enabled)
        return _Steady(120.0 if req.speculation.enabled else 100.0)

    partial: dict[Candidate, Measurement] = {}
    first = auto.calibrate(key, LoadRequest(model_path="m"), None, cands, load, partial=partial)
    assert first.choice.candidate == Candidate("ngram-mod", auto.NGRAM_DEPTH)
    # the thread counts measured first (the launch's count is automatic), then the candidate
    assert list(partial) == [runner.THREADS_MEASURED, Candidate("ngram-mod", auto.NGRAM_DEPTH)]
    assert first.measurements[1].details["prose"]["off_tokens"] == 20  # the plain runs' length
    loads.clear()
    again = auto.calibrate(key, LoadRequest(model_path="m"), None, cands, load, partial=partial)
    assert loads == [False]  # only the plain engine: the candidate was not measured again
    assert again.choice.candidate == first.choice.candidate


def test_llamacpp_classic_drafter_candidates_adapt_their_depth_per_round() -> None:
    """llama.cpp's own control (``speculative.draft.p_min``) ends a round at the
    drafter's first unsure token, so the depth follows the text up to the candidate's n_max."""
    cands = auto.candidates("llama.cpp", "draft", ["ngram-mod"])
    drafters = [c for c in cands if c.uses_drafter]
    assert drafters and all(c.p_min == auto.DRAFT_P_MIN for c in drafters)
    p = translate.plan(drafters[0].options("/d.gguf"))
    assert p.settings["speculative.draft.p_min"] == auto.DRAFT_P_MIN
    assert p.settings["speculative.draft.n_max"] == 4  # the most a round drafts
    combo = translate.plan(replace(drafters[-1], tokens_per_round=8).options("/d.gguf"))
    assert combo.types == ["DRAFT_SIMPLE", "NGRAM_MOD"]
    assert combo.settings["speculative.draft.p_min"] == auto.DRAFT_P_MIN
    # stored and read back as the same candidate; MLX and the trained drafters are left as they are
    assert Candidate.from_json(drafters[0].to_json()) == drafters[0]
    assert all(c.p_min is None for c in auto.candidates("mlx", "draft", []))
    assert all(c.p_min is None for c in auto.candidates("llama.cpp", "mtp", ["ngram-mod"], 3))


def test_calibration_steps_carry_a_code_and_a_configuration() -> None:
    step = auto.Step("prose-off", "draft 4/round")
    assert (step.code, step.config, step.text) == (
        "prose-off",
        "draft 4/round",
        "draft 4/round: prose, speculation off",
    )
    assert auto.Step("done").text == "measured"
    with pytest.raises(ValueError, match="unknown calibration step"):
        auto.Step("nonsense")
    assert auto.Step("load", "suffix") == auto.Step("load", "suffix")  # a value, compared as one
