"""The context a launch gets when none is asked (Auto): the model's trained length where the memory
estimate allows, else the largest power-of-two fraction that fits, said in one line."""

from __future__ import annotations

from pathlib import Path

from app.core.catalog import fit
from app.core.launch.plan import LaunchChoice, auto_context, plan_launch
from app.core.registry import Registry
from app.core.speculative import SpeculationOptions


def test_the_trained_context_when_it_fits_else_the_largest_fraction_that_does(smollm2_q4: Path) -> None:
    assert fit.trained_context(smollm2_q4) == 8192
    assert fit.fitted_context(smollm2_q4, available=64 * 2**30) == (8192, "")
    weights = fit.weights_bytes(smollm2_q4)
    at_4096 = fit.estimate_files(smollm2_q4, ctx=4096, available=1).total_bytes
    assert at_4096 is not None
    # memory for the model at 4,096 tokens but not at 8,192: Auto halves and says so
    squeezed, note = fit.fitted_context(smollm2_q4, available=int(at_4096 / fit.TIGHT_FRACTION) + 1)
    assert squeezed == 4096 and "trained for 8192" in note and "--ctx" in note
    # not even the smallest Auto context fits: Auto still asks for it (the load says what failed)
    assert fit.fitted_context(smollm2_q4, available=weights)[0] == fit.MIN_AUTO_CONTEXT


def test_a_launch_without_a_context_gets_auto(smollm2_q4: Path, tmp_path: Path) -> None:
    ctx, note = auto_context("llama.cpp", None, smollm2_q4, None)
    assert (ctx, note) == (8192, "")
    registry = Registry.load()
    family, spec, quant = registry.match("smollm2-135m-instruct", "gguf", None, None)
    choice = LaunchChoice(family, spec, quant, "llama.cpp", SpeculationOptions(), 0, None)
    plan = plan_launch(choice, lambda *_: smollm2_q4)
    assert plan.request.n_ctx == min(8192, family.context_length)
    asked = LaunchChoice(family, spec, quant, "llama.cpp", SpeculationOptions(), 2048, None)
    assert plan_launch(asked, lambda *_: smollm2_q4).request.n_ctx == 2048
    assert auto_context("mlx", family, tmp_path, None) == (family.context_length, "")
