"""Auto on the real MLX engine (CPU here, ``mlx[cpu]``): suffix decoding and prompt lookup are
measured as candidates, and the calibration's fixed prompts stay out of what suffix decoding
learns from the user's conversations (its stored corpus is untouched, byte for byte)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from app.core.cancel import CancelToken
from app.core.engines.base import Finished, LoadRequest, Sampling
from app.core.engines.blocking import generate
from app.core.launch import auto
from app.core.launch.auto import runner
from app.core.launch.plan import load_engine
from app.core.speculative import SpeculationOptions
from app.core.speculative import suffix as sx
from app.devtools import mlx_models as fx
from tests.mlx_required import require_mlx

pytestmark = pytest.mark.mlx


@pytest.fixture(scope="module")
def tiny_llama(real_models: None, tmp_path_factory: pytest.TempPathFactory) -> Path:
    require_mlx("mlx.core", "mlx_lm")
    return fx.write_llama_target(tmp_path_factory.mktemp("auto-mlx") / "llama")


def _mlx_threads() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith("tandem-mlx") and t.is_alive()]


def _answer(engine: Any, text: str, max_tokens: int = 24) -> Finished:
    events = list(
        generate(
            engine, [{"role": "user", "content": text}], Sampling(temperature=0.0, max_tokens=max_tokens)
        )
    )
    fin = events[-1]
    assert isinstance(fin, Finished)
    return fin


def test_auto_on_mlx_measures_model_free_candidates_and_learns_nothing_from_them(tiny_llama: Path) -> None:
    # The user's own history: one answer suffix decoding learned and stored in an earlier chat.
    user = load_engine(
        "mlx", LoadRequest(str(tiny_llama), SpeculationOptions.build(enabled=True, method="suffix"))
    )
    try:
        _answer(user, "Tell me about the sea.")
    finally:
        user.close()
    corpora = sorted(sx.store_dir().glob("*.jsonl"))
    assert len(corpora) == 1
    before = corpora[0].read_bytes()
    assert before  # the earlier chat's answer is stored

    base = LoadRequest(str(tiny_llama), SpeculationOptions())
    cands = auto.candidates("mlx", None, auto.auto_model_free("mlx"))
    assert [c.method for c in cands] == ["off", "suffix", "prompt-lookup"]
    steps: list[auto.Step] = []
    result = auto.calibrate(
        auto.CalibrationKey.for_launch("mlx", base, None),
        base,
        None,
        cands,
        lambda req: load_engine("mlx", req),
        CancelToken(),
        lambda _f, step: steps.append(step),
        max_tokens=24,
    )

    measured = {m.candidate.method: m for m in result.measurements}
    assert set(measured) == {"off", "suffix", "prompt-lookup"}
    for method in ("suffix", "prompt-lookup"):
        m = measured[method]
        assert "error" not in m.details, m.details
        assert all(m.ratios[w] is not None and m.ratios[w] > 0 for w in auto.WORKLOADS), m.ratios
        assert m.details["repeat"]["on_tps"] is not None  # the repeat was answered, not copied
    # suffix decoding remembered the first code edit's answer in its private corpus, and drafted
    # the repeat from it (greedy: the same answer again)
    assert measured["suffix"].details["repeat"]["acceptance"] is not None
    assert auto.Step("repeat", "suffix") in steps and steps[-1] == auto.Step("done")
    assert result.choice.candidate in cands
    routes = auto.routes(result.measurements)
    assert all(routes[k] in cands for k in auto.RequestKind)

    # Nothing from the calibration reached the user's corpus: the file is unchanged and no other
    # corpus appeared; an engine loaded for the user afterwards sees exactly their history.
    assert sorted(sx.store_dir().glob("*.jsonl")) == corpora
    assert corpora[0].read_bytes() == before
    records = sx.SuffixStore(corpora[0].stem).records()
    assert len(records) == 1
    assert not _mlx_threads()


def test_measuring_options_give_suffix_decoding_a_private_corpus(tiny_llama: Path) -> None:
    """Only the measurement is private: the configuration Auto then runs for the user learns."""
    from app.core.engines.mlx.pair import plan_pair

    suffix, lookup = auto.Candidate("suffix"), auto.Candidate("prompt-lookup")
    assert plan_pair(str(tiny_llama), runner.measuring_options(suffix, None)).private_corpus
    assert not plan_pair(str(tiny_llama), suffix.options(None)).private_corpus
    assert not plan_pair(str(tiny_llama), runner.measuring_options(lookup, None)).private_corpus
    assert runner.measuring_options(auto.OFF, None) == SpeculationOptions()
