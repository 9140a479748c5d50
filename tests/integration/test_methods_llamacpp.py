"""EAGLE-3, DFlash, chains and built-in MTP on real llama.cpp, with the tiny files of
``scripts/make_tiny_drafters.py`` (a 128-wide llama target, random weights; ``agree``: the EAGLE-3
drafter is always right).

Greedy parity: spec-on must be token-identical to spec-off (compared piece by piece, with the first
differing position in the failure message). Speed is not asserted.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.core.engines.base import DrafterMismatchError, Finished, LoadRequest, Round, Sampling, TextDelta
from app.core.engines.blocking import generate
from app.core.engines.capability import GGUFFacts, llamacpp_abort
from app.core.engines.llamacpp.engine import LlamaCppEngine
from app.core.measure import compare, run_once
from app.core.speculative import SpeculationOptions
from app.devtools.tiny_models import tiny_drafters, tiny_pair

ROOT = Path(__file__).resolve().parents[2]


PROMPTS = ["Tell me a short story about a cat.", "Count from 1 to 15, one number per line."]


def _load(target: Path, **spec: Any) -> LlamaCppEngine:
    return LlamaCppEngine.load(
        LoadRequest(str(target), SpeculationOptions.build(**spec), n_ctx=1024, n_threads=2)
    )


@pytest.fixture(scope="module")
def tiny(real_models: None) -> Any:
    return tiny_drafters()


@pytest.fixture(scope="module")
def agree(real_models: None) -> Any:
    return tiny_drafters(agree=True)


@pytest.fixture(scope="module")
def plain(tiny: Any) -> Iterator[LlamaCppEngine]:
    with _load(tiny.target) as eng:
        yield eng


def _parity(plain: LlamaCppEngine, spec: LlamaCppEngine, prompt: str, max_tokens: int = 32) -> None:
    greedy = Sampling(temperature=0.0, max_tokens=max_tokens)
    off = run_once(plain, prompt, greedy, top_logprobs=3)
    on = run_once(spec, prompt, greedy)
    assert off.completion_tokens == max_tokens
    result = compare(off, on)
    assert result.identical, (
        f"{spec.spec_kind}: spec-on diverged at token {result.first_difference}: off={result.off_token!r} "
        f"on={result.on_text!r}"
    )
    assert off.pieces == on.pieces
    assert on.drafted_total > 0, f"{spec.spec_kind} never drafted"


@pytest.mark.parametrize(
    ("role", "method", "kind"),
    [
        ("eagle3", "eagle3", "eagle3"),
        ("eagle3", None, "eagle3"),  # the drafter's architecture picks the method
        ("dflash", "dflash", "dflash"),
        ("dflash", None, "dflash"),
        ("eagle3", "eagle3+ngram-mod", "eagle3+ngram-mod"),
        ("dflash", "dflash+ngram-mod", "dflash+ngram-mod"),
        ("eagle3", "draft+ngram-mod", "eagle3+ngram-mod"),
    ],
)
def test_greedy_parity_for_each_method(
    tiny: Any, plain: LlamaCppEngine, role: str, method: str | None, kind: str
) -> None:
    drafter = getattr(tiny, role)
    with _load(tiny.target, enabled=True, method=method, draft_model_path=str(drafter)) as eng:
        assert eng.spec_kind == kind
        for prompt in PROMPTS:
            _parity(plain, eng, prompt)


@pytest.mark.parametrize("method", ["mtp", "mtp+ngram-mod"])
def test_greedy_parity_with_builtin_mtp_heads(tiny: Any, method: str) -> None:
    """A qwen35 target whose file carries one MTP block: no drafter file at all."""
    with _load(tiny.mtp_target) as plain, _load(tiny.mtp_target, enabled=True, method=method) as eng:
        assert eng.spec_kind == method and eng.plan.draft_path is None
        for prompt in PROMPTS:
            _parity(plain, eng, prompt)


def _expected_rounds(max_tokens: int, depth: int) -> list[tuple[int, int, int]]:
    out = [(0, 0, 1)]
    left = max_tokens - 1
    while left > 0:
        k = min(depth, left - 1)
        out.append((k, k, k + 1))
        left -= k + 1
    return out


@pytest.mark.parametrize(("max_tokens", "depth"), [(17, 4), (40, 3)])
def test_agreeing_eagle3_drafter_gives_the_known_round_numbers(
    agree: Any, max_tokens: int, depth: int
) -> None:
    with _load(
        agree.target,
        enabled=True,
        method="eagle3",
        draft_model_path=str(agree.eagle3),
        num_speculative_tokens=depth,
    ) as eng:
        events = list(
            generate(eng, [{"role": "user", "content": "Hello"}], Sampling(0.0, max_tokens=max_tokens))
        )
    rounds = [(e.drafted, e.accepted, e.emitted) for e in events if isinstance(e, Round)]
    fin = events[-1]
    expected = _expected_rounds(max_tokens, depth)
    assert rounds == expected
    assert isinstance(fin, Finished)
    assert fin.completion_tokens == max_tokens
    assert fin.drafted_total == fin.accepted_total == sum(r[1] for r in expected)
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == "a" * max_tokens


@pytest.mark.parametrize(("depth", "drafted"), [(2, 2), (3, 3), (4, 3), (8, 3)])
def test_dflash_drafts_at_most_a_block_minus_one(agree: Any, depth: int, drafted: int) -> None:
    """The agree DFlash drafter (random weights, but the target's embeddings and head make it right):
    every draft accepted, and a round drafts at most ``dflash.block_size - 1`` (4 - 1) whatever the depth."""
    with _load(
        agree.target,
        enabled=True,
        method="dflash",
        draft_model_path=str(agree.dflash),
        num_speculative_tokens=depth,
    ) as eng:
        events = list(generate(eng, [{"role": "user", "content": "Hello"}], Sampling(0.0, max_tokens=17)))
    rounds = [(e.drafted, e.accepted, e.emitted) for e in events if isinstance(e, Round)]
    assert rounds == _expected_rounds(17, drafted)


@pytest.mark.parametrize(("max_tokens", "depth"), [(17, 3), (9, 2)])
def test_agreeing_builtin_mtp_heads_give_the_known_round_numbers(
    agree: Any, max_tokens: int, depth: int
) -> None:
    with _load(agree.mtp_target, enabled=True, method="mtp", num_speculative_tokens=depth) as eng:
        events = list(
            generate(eng, [{"role": "user", "content": "Hello"}], Sampling(0.0, max_tokens=max_tokens))
        )
    rounds = [(e.drafted, e.accepted, e.emitted) for e in events if isinstance(e, Round)]
    expected = _expected_rounds(max_tokens, depth)
    assert rounds == expected
    fin = events[-1]
    assert isinstance(fin, Finished) and fin.drafted_total == fin.accepted_total == sum(
        r[1] for r in expected
    )
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == "a" * max_tokens


# --- refusals, before llama.cpp starts ----------------------------------------------------------
def test_eagle3_with_a_plain_drafter_is_refused_in_one_line(tiny: Any) -> None:
    with pytest.raises(DrafterMismatchError) as err:
        _load(tiny.target, enabled=True, method="eagle3", draft_model_path=str(tiny.target))
    text = str(err.value)
    assert "\n" not in text and "plain language model" in text and "general.architecture llama" in text


def test_dflash_method_with_an_eagle3_drafter_is_refused(tiny: Any) -> None:
    with pytest.raises(DrafterMismatchError, match=r"EAGLE-3 drafter.*--spec-method eagle3"):
        _load(tiny.target, enabled=True, method="dflash", draft_model_path=str(tiny.eagle3))


@pytest.mark.parametrize("role", ["eagle3", "dflash"])
def test_a_drafter_made_for_another_target_is_refused_from_metadata(
    tiny: Any, smollm2_q4: Path, role: str
) -> None:
    with pytest.raises(DrafterMismatchError, match="128-wide hidden states and the target's are 576 wide"):
        _load(smollm2_q4, enabled=True, method=role, draft_model_path=str(getattr(tiny, role)))


def test_native_types_with_a_drafter_for_another_target_are_refused(tiny: Any, smollm2_q4: Path) -> None:
    native = {"speculative.types": "draft-eagle3", "speculative.draft.mparams.path": str(tiny.eagle3)}
    with pytest.raises(DrafterMismatchError, match="made for another model"):
        _load(smollm2_q4, enabled=True, engine_native=native)


def test_builtin_mtp_on_a_target_without_heads_is_refused(tiny: Any) -> None:
    with pytest.raises(DrafterMismatchError) as err:
        _load(tiny.target, enabled=True, method="mtp+ngram-mod")
    assert "llama.nextn_predict_layers" in str(err.value) and "\n" not in str(err.value)


def test_native_types_that_cannot_run_the_drafter_are_refused(tiny: Any) -> None:
    """DRAFT_EAGLE3 with a plain drafter: llama.cpp logs 'draft model is not eagle3' and drafts nothing."""
    native = {"speculative.types": "draft-eagle3", "speculative.draft.mparams.path": str(tiny.target)}
    with pytest.raises(DrafterMismatchError, match=r"\(DRAFT_EAGLE3\) cannot use .*plain language model"):
        _load(tiny.target, engine_native=native)
    # llama.cpp runs an EAGLE-3 drafter under DRAFT_SIMPLE by its architecture: allowed
    native = {"speculative.types": "draft-simple", "speculative.draft.mparams.path": str(tiny.eagle3)}
    with _load(tiny.target, engine_native=native) as eng:
        assert run_once(eng, PROMPTS[0], Sampling(0.0, max_tokens=8)).drafted_total > 0


def test_native_drafter_types_without_a_drafter_file_are_refused(tiny: Any) -> None:
    native = {"speculative.types": "draft-mtp,draft-eagle3"}
    with pytest.raises(DrafterMismatchError, match="DRAFT_EAGLE3 needs a drafter file"):
        _load(tiny.mtp_target, engine_native=native)


def test_new_abort_rows_match_what_aborts() -> None:
    target = GGUFFacts("llama", 576)
    eagle3 = GGUFFacts("eagle3", 128, target_hidden_size=128)
    dflash = GGUFFacts("dflash", 128)
    for t in ("DRAFT_EAGLE3", "DRAFT_DFLASH", "DRAFT_SIMPLE"):
        for drafter in (eagle3, dflash):
            row = llamacpp_abort([t], target, drafter)
            assert row is not None
            # DRAFT_DFLASH with an EAGLE-3 drafter is the "not-dflash" row; every other, a shape mismatch
            not_dflash = (t, drafter) == ("DRAFT_DFLASH", eagle3)
            assert ("target_layer_ids" if not_dflash else "can_repeat") in row.llama_message, (t, drafter)
    same = GGUFFacts("llama", 128)
    assert llamacpp_abort(["DRAFT_EAGLE3"], same, eagle3) is None
    assert llamacpp_abort(["DRAFT_DFLASH", "NGRAM_MOD"], same, dflash) is None


_PROBE = """
import sys, xllamacpp as x
p = x.CommonParams(); p.model.path = sys.argv[1]; p.n_ctx = 256; p.warmup = False
p.cpuparams.n_threads = 1
p.speculative.types = [x.common_speculative_type.COMMON_SPECULATIVE_TYPE_DRAFT_EAGLE3]
p.speculative.draft.mparams.path = sys.argv[2]
s = x.Server(p)
s.handle_completions({"prompt": "Hello", "n_predict": 4}, lambda c: False)
"""


def test_the_width_abort_row_is_still_needed(tiny: Any, smollm2_q4: Path) -> None:
    """The row stays true: llama.cpp itself still aborts on this pair (in a child process)."""
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE, str(smollm2_q4), str(tiny.eagle3)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert proc.returncode != 0
    assert "ggml_can_repeat" in proc.stderr, json.dumps(proc.stderr[-2000:])


def test_eagle3_and_dflash_also_draft_for_the_tiny_gemma4_target(tiny: Any) -> None:
    """Same width, layers and vocabulary: nothing refuses the pair, and llama.cpp drafts."""
    g4 = tiny_pair()[0]
    greedy = Sampling(temperature=0.0, max_tokens=16)
    with _load(g4, enabled=True, method="eagle3", draft_model_path=str(tiny.eagle3)) as eng:
        assert run_once(eng, PROMPTS[0], greedy).drafted_total > 0


# --- the CLI --------------------------------------------------------------------------------------
def test_cli_refuses_eagle3_with_a_plain_drafter_in_one_line(
    tiny: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """--spec-method eagle3 with a plain-LM drafter is refused in one line, not run to draft
    nothing."""
    from app.cli import main

    argv = ["generate", "--model-path", str(tiny.target), "--draft-model-path", str(tiny.target)]
    code = main([*argv, "--spec-method", "eagle3", "--prompt", "Hello", "--max-tokens", "4"])
    err = capsys.readouterr().err
    assert code != 0
    refusal = [ln for ln in err.splitlines() if "refused" in ln]
    assert len(refusal) == 1 and "plain language model" in refusal[0] and "--spec-method draft" in refusal[0]
    assert [ln for ln in err.splitlines() if not ln.startswith("…")] == refusal  # no hint line under it


@pytest.mark.parametrize(
    ("role", "method"), [("mtp_target", "mtp"), ("mtp_target", "mtp+ngram-mod"), ("eagle3", "eagle3")]
)
def test_cli_generate_reports_the_method_that_ran(
    tiny: Any, capsys: pytest.CaptureFixture[str], role: str, method: str
) -> None:
    from app.cli import main

    if role == "mtp_target":
        argv = ["generate", "--model-path", str(tiny.mtp_target)]
    else:
        argv = ["generate", "--model-path", str(tiny.target), "--draft-model-path", str(tiny.eagle3)]
    code = main([*argv, "--spec-method", method, "--prompt", "Hello", "--max-tokens", "12", "--json"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["method"] == method and out["completion_tokens"] == 12 and out["drafted_total"] > 0


def test_cli_parity_with_a_chain_exits_zero(tiny: Any, capsys: pytest.CaptureFixture[str]) -> None:
    from app.cli import main

    prompts = ROOT / "benchmarks" / "prompts.txt"
    code = main(
        ["parity", "--model-path", str(tiny.target), "--draft-model-path", str(tiny.dflash),
         "--spec-method", "dflash+ngram-mod", "--prompts", str(prompts), "--max-tokens", "32"]
    )  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0, out
    lines = [ln for ln in prompts.read_text("utf-8").splitlines() if ln.strip() and not ln.startswith("#")]
    assert out.strip().endswith(f"{len(lines)}/{len(lines)} prompts identical")
