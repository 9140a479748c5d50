"""The launch form as one state: the speculation switches' transitions, what the launch runs,
the request the state carries, the drafter's cache state, and Auto's figures in plain words."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from app.core.launch.auto.certainty import Certainty, read
from app.core.launch.form import LaunchForm
from app.core.launch.form_state import FormValues, set_auto, set_drafter, set_model_free
from tests.unit.test_launch_form import installed, pick, statuses, values  # noqa: F401

SETTERS = {
    "auto-on": lambda v: set_auto(v, True),
    "auto-off": lambda v: set_auto(v, False),
    "drafter-on": lambda v: set_drafter(v, True),
    "drafter-off": lambda v: set_drafter(v, False),
    "ngram": lambda v: set_model_free(v, "ngram-mod"),
    "no-ngram": lambda v: set_model_free(v, None),
}


def test_the_switches_keep_one_choice_and_withdrawing_one_brings_auto_back(
    installed: dict[str, bool],  # noqa: F811
) -> None:
    fam, spec, quant = pick("smollm2-135m-instruct", "gguf")
    form = LaunchForm(fam, statuses({("target", quant), ("drafter", "Q4_1")}))
    start = values(spec, quant, "llama.cpp", draft_quant="Q4_1")
    assert form.evaluate(start).speculation.kind == "auto"
    # the user's report: Auto on, drafter on, drafter off -> Auto again, and the request says so
    v = set_drafter(start, True)
    st = form.evaluate(v)
    assert st.speculation.kind == "drafter" and st.speculation.replaces_auto and not st.auto_on
    v = set_drafter(v, False)
    st = form.evaluate(v)
    assert st.auto_on and st.request is not None and st.request.auto
    # Auto switched off stays off when a manual choice is withdrawn
    v = set_drafter(set_auto(start, False), True)
    assert not form.evaluate(v).speculation.replaces_auto
    st = form.evaluate(set_drafter(v, False))
    assert st.speculation.kind == "off" and st.request is not None
    assert not st.request.auto and not st.request.speculation.enabled

    # every sequence of three: at most one choice applies, and the request is the one described
    for steps in itertools.product(SETTERS, repeat=3):
        v = start
        for step in steps:
            v = SETTERS[step](v)
        st = form.evaluate(v)
        kind = st.speculation.kind
        assert st.request is not None and st.request == form.choice(v), steps
        assert st.request.auto is (kind == "auto") is st.auto_on, steps
        assert st.request.speculation.enabled is (kind in ("drafter", "model-free")), steps
        assert (kind == "drafter") is st.drafter_on, steps
        assert (kind == "model-free") is (st.model_free is not None and not st.drafter_on), steps
        if kind != "auto" and kind != "off":
            assert st.request.speculation.method == st.speculation.method, steps


def test_what_the_launch_runs_names_the_method_and_its_depth(installed: dict[str, bool]) -> None:  # noqa: F811
    fam, spec, quant = pick("smollm2-135m-instruct", "gguf")
    form = LaunchForm(fam, statuses({("target", quant), ("drafter", "Q4_1")}))
    v = values(spec, quant, "llama.cpp", draft_quant="Q4_1")
    sp = form.evaluate(replace(set_drafter(v, True), depth="5")).speculation
    assert (sp.kind, sp.method, sp.depth, sp.source) == ("drafter", "draft", 5, "declared")
    sp = form.evaluate(set_model_free(v, "ngram-mod")).speculation
    assert (sp.kind, sp.method, sp.depth) == ("model-free", "ngram-mod", None)
    # a tokens-per-round that does not parse makes no request, and choice says why
    st = form.evaluate(replace(set_drafter(v, True), depth="many"))
    assert st.request is None and st.request_error and not st.launch_enabled


def test_the_drafter_on_disk_follows_the_chosen_quantization(installed: dict[str, bool]) -> None:  # noqa: F811
    fam, spec, quant = pick("gemma-4", "gguf", "2")
    dquants = [q.value for q in LaunchForm(fam, statuses()).draft_quants(spec)]
    assert len(dquants) > 1
    form = LaunchForm(fam, statuses({("target", quant), ("drafter", dquants[1])}))
    st = form.evaluate(values(spec, quant, "llama.cpp", draft_quant=dquants[0]))
    assert (st.drafter_source, st.drafter_on_disk, st.drafter_quant) == ("declared", False, dquants[0])
    st = form.evaluate(values(spec, quant, "llama.cpp", draft_quant=dquants[1]))
    assert st.drafter_on_disk and st.drafter_quant == dquants[1]
    # a model with built-in MTP heads has nothing to download
    fam, spec, quant = pick("qwen3.6", "gguf")
    st = LaunchForm(fam, statuses()).evaluate(values(spec, quant, "llama.cpp"))
    assert st.drafter_source == "builtin" and st.drafter_on_disk


@pytest.mark.parametrize(
    ("speedup", "low", "high", "certainty"),
    [
        (2.69, 0.37, 19.5, Certainty.UNKNOWN),  # an interval that says nothing yet
        (3.6, 3.07, 4.22, Certainty.FASTER),
        (1.2, 1.02, 1.41, Certainty.FASTER),
        (1.01, 0.86, 1.19, Certainty.SAME),
        (0.8, 0.7, 0.9, Certainty.SLOWER),
        (1.3, 0.6, 2.8, Certainty.UNKNOWN),
    ],
)
def test_a_figure_in_plain_words(speedup: float, low: float, high: float, certainty: Certainty) -> None:
    reading = read(speedup, low, high)
    assert reading.certainty == certainty and reading.low == low


def test_form_values_are_replaced_not_changed() -> None:
    _fam, spec, quant = pick("smollm2-135m-instruct", "gguf")
    v = FormValues(spec=spec, quant=quant)
    assert set_drafter(v, True) is not v and not v.drafter_on
