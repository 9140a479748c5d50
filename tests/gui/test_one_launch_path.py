"""One launch path: the CLI's resolution and the GUI's load job give the same request.

Both sides run for real: ``tandem``'s argument parser and ``cli.resolve`` against the registry and
cache, and the GUI's ``make_job`` with a real CacheBridge whose loader runs on this thread; the
loader records the request instead of loading (the engine itself is not what is compared).
Both cap the context at the family's length.
"""

from __future__ import annotations

from typing import Any

import pytest

from app.cli import commands as cli
from app.core.engines.base import Engine, LoadRequest, Sampling
from app.core.launch.plan import LaunchChoice, fit_context
from app.core.registry import Registry
from app.core.speculative import SpeculationOptions
from app.gui.cache_bridge import CacheBridge
from app.gui.controllers.engine_loader import make_job


def gui_request(choice: LaunchChoice) -> tuple[str, LoadRequest]:
    seen: list[tuple[str, LoadRequest]] = []

    def record(engine: str, req: LoadRequest, progress: Any) -> Engine:
        seen.append((engine, req))
        raise RuntimeError("recorded")  # nothing to load: the request is what is compared

    job = make_job(choice, CacheBridge(), loader=record)
    with pytest.raises(RuntimeError, match="recorded"):
        job.loader(lambda _msg: None)
    return seen[0]


@pytest.mark.usefixtures("smollm2_f32")
@pytest.mark.parametrize("speculative", [False, True])
def test_cli_and_gui_build_the_same_load_request(qtbot: Any, speculative: bool) -> None:
    family, spec, quant = Registry.load().match("smollm2-135m-instruct", "gguf", None, "F32")
    asked_ctx = family.context_length * 2  # above the family's: both sides cap it the same way
    argv = ["generate", "smollm2-135m-instruct", "--quant", "F32", "--ctx", str(asked_ctx)]
    argv += ["--threads", "2", "--prompt", "hi", "--json", "--engine", "llama.cpp"]
    if speculative:
        argv += ["--spec", "on", "--spec-method", "draft", "--draft-quant", "Q4_1", "--draft-tokens", "5"]
    args = cli.build_parser().parse_args(argv)
    cli_resolved = cli.resolve(args, speculative)

    options = (
        SpeculationOptions.build(
            enabled=True, method="draft", draft_quantization="Q4_1", num_speculative_tokens=5
        )
        if speculative
        else SpeculationOptions()
    )
    choice = LaunchChoice(family, spec, quant, "llama.cpp", options, asked_ctx, 2, Sampling())
    engine, req = gui_request(choice)

    assert engine == cli_resolved.engine == "llama.cpp"
    assert req == cli_resolved.request
    assert req.n_ctx == fit_context(asked_ctx, family) == family.context_length
    assert req.speculation.enabled is speculative
    if speculative:
        assert req.speculation.draft_model_path and req.speculation.draft_model_path.endswith(".gguf")
        assert req.speculation.num_speculative_tokens == 5
