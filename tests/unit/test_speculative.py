"""Depth parsing, option translation to xllamacpp, defaults, round accounting, capability."""

from __future__ import annotations

from typing import Any

import pytest

from app.core.engines.capability import drafter_support, version_at_least
from app.core.registry import Registry
from app.core.speculative import (
    RoundAccountant,
    SpeculationError,
    SpeculationOptions,
    default_tokens,
    parse_num_speculative_tokens,
)
from app.core.speculative import llamacpp as tr


@pytest.mark.parametrize(
    ("value", "expected"),
    [(None, None), ("", None), ("  ", None), (4, 4), ("6", 6), (" 6 ", 6), ("+3", 3), (4.0, 4), (1, 1)],
)
def test_depth_accepted(value: object, expected: int | None) -> None:
    assert parse_num_speculative_tokens(value) == expected


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (0, "must be at least 1"),
        ("0", "must be at least 1"),
        (-2, "must be at least 1"),
        (1.5, "not a whole number"),
        ("1.5", "not a positive whole number"),
        ("abc", "not a positive whole number"),
        ("-3", "not a positive whole number"),
        (True, "expected a positive whole number"),
        (False, "expected a positive whole number"),
        ([4], "got list"),
    ],
)
def test_depth_rejected(value: object, message: str) -> None:
    with pytest.raises(SpeculationError, match=message):
        parse_num_speculative_tokens(value)


def test_options_build() -> None:
    opts = SpeculationOptions.build(enabled="yes", num_speculative_tokens=" 5 ")
    assert opts.enabled and opts.num_speculative_tokens == 5 and opts.method == "draft"
    assert SpeculationOptions.build(draft_model_path="/x.gguf").enabled  # a drafter implies speculation
    with pytest.raises(SpeculationError, match="unknown 'magic'"):
        SpeculationOptions.build(enabled=True, method="magic")


def test_defaults_with_provenance() -> None:
    assert default_tokens("llama.cpp", "gemma-4", 2).value == 2
    assert default_tokens("llama.cpp", "gemma-4", 31).value == 4
    assert default_tokens("llama.cpp", "gemma-4", 31).source == "Gemma 4 size table"
    assert default_tokens("llama.cpp", "other", 7).value == 3
    assert default_tokens("mlx", "gemma-4", 2).value == 3  # block of 4 incl. the verified token
    assert default_tokens("llama.cpp", "x", 1, "ngram-mod").value == 64


def test_llamacpp_defaults_match_the_installed_xllamacpp() -> None:
    import xllamacpp

    from app.core.speculative import options

    p = xllamacpp.CommonParams()
    assert p.speculative.draft.n_max == options.LLAMACPP_DRAFT_N_MAX_DEFAULT
    assert p.speculative.ngram_mod.n_max == options.LLAMACPP_NGRAM_MOD_N_MAX_DEFAULT
    assert p.speculative.ngram_simple.size_m == options.LLAMACPP_NGRAM_SIZE_M_DEFAULT


def test_plan_neutral_options() -> None:
    p = tr.plan(
        SpeculationOptions.build(enabled=True, method="mtp", draft_model_path="/d.gguf"), "gemma-4", 2
    )
    assert p.types == ["DRAFT_MTP"] and p.draft_path == "/d.gguf"
    assert p.settings == {"speculative.draft.n_max": 2} and p.depth_source == "Gemma 4 size table"
    p = tr.plan(SpeculationOptions.build(enabled=True, method="ngram-mod", num_speculative_tokens=16))
    assert p.types == ["NGRAM_MOD"] and p.settings["speculative.ngram_mod.n_max"] == 16
    assert p.settings["speculative.ngram_mod.n_min"] == 16
    assert not tr.plan(SpeculationOptions()).speculative
    with pytest.raises(SpeculationError, match="needs a drafter"):
        tr.plan(SpeculationOptions.build(enabled=True, method="draft"))


def test_plan_explicit_native_selector_wins() -> None:
    opts = SpeculationOptions.build(
        enabled=True,
        method="draft",
        draft_model_path="/declared.gguf",
        num_speculative_tokens=4,
        engine_native={"speculative.types": ["draft-mtp"], "speculative.draft.mparams.path": "/mine.gguf"},
    )
    p = tr.plan(opts)
    assert p.user_driven and p.types == ["DRAFT_MTP"] and p.draft_path == "/mine.gguf"
    # tuning knobs do not disable the neutral configuration
    opts = SpeculationOptions.build(
        enabled=True,
        draft_model_path="/declared.gguf",
        engine_native={"speculative.draft.n_min": "1", "speculative.draft.p_min": 0.5},
    )
    p = tr.plan(opts)
    assert not p.user_driven and p.types == ["DRAFT_SIMPLE"] and p.draft_path == "/declared.gguf"
    assert p.settings["speculative.draft.n_min"] == 1 and p.settings["speculative.draft.p_min"] == 0.5
    # an engine-native depth key goes through the same parser, and wins over the neutral value
    opts = SpeculationOptions.build(
        enabled=True,
        draft_model_path="/d.gguf",
        num_speculative_tokens=4,
        engine_native={"speculative.draft.n_max": "7"},
    )
    assert tr.plan(opts).settings["speculative.draft.n_max"] == 7
    for bad in ("0", 2.5, True):
        with pytest.raises(SpeculationError, match=r"speculative\.draft\.n_max"):
            tr.plan(
                SpeculationOptions.build(
                    enabled=True, draft_model_path="/d", engine_native={"speculative.draft.n_max": bad}
                )
            )
    with pytest.raises(SpeculationError, match="unknown type 'warp'"):
        tr.plan(SpeculationOptions.build(engine_native={"speculative.types": ["warp"]}))


def test_apply_onto_real_common_params() -> None:
    import xllamacpp

    params: Any = xllamacpp.CommonParams()
    opts = SpeculationOptions.build(enabled=True, method="ngram-mod", num_speculative_tokens=12)
    tr.apply(params, tr.plan(opts))
    assert params.speculative.types == [xllamacpp.common_speculative_type.COMMON_SPECULATIVE_TYPE_NGRAM_MOD]
    assert params.speculative.ngram_mod.n_max == 12
    params = xllamacpp.CommonParams()
    tr.apply(params, tr.plan(SpeculationOptions.build(draft_model_path="/d.gguf", num_speculative_tokens=5)))
    assert params.speculative.draft.mparams.path == "/d.gguf" and params.speculative.draft.n_max == 5
    with pytest.raises(SpeculationError, match="unknown setting 'nope'"):
        tr.apply(
            xllamacpp.CommonParams(), tr.plan(SpeculationOptions.build(engine_native={"speculative.nope": 1}))
        )


def test_round_accounting() -> None:
    acc = RoundAccountant()
    flags = [acc.token()]  # first token, from the prompt pass
    acc.start_round(4, 2)
    flags += [acc.token() for _ in range(3)]
    acc.start_round(3, 3)
    flags += [acc.token() for _ in range(2)]  # stopped inside the round
    acc.finish()
    rounds = acc.pop_closed()
    assert [(r.drafted, r.accepted, r.emitted) for r in rounds] == [(0, 0, 1), (4, 2, 3), (3, 2, 2)]
    assert flags == [False, True, True, False, True, True]
    assert acc.emitted_total == 6 == sum(r.emitted for r in rounds)
    assert acc.drafted_total == 7 and acc.accepted_total == 4
    with pytest.raises(ValueError, match="inconsistent round"):
        acc.start_round(1, 2)


def test_capability_table() -> None:
    reg = Registry.load()
    gemma = reg.get("gemma-4")
    gguf = next(s for s in gemma.specs if s.format == "gguf")
    mlx = next(s for s in gemma.specs if s.format == "mlx")
    assert drafter_support(gemma, gguf, "llama.cpp").method == "mtp"
    assert drafter_support(gemma, gguf, "llama.cpp").ok
    refused = drafter_support(gemma, mlx, "llama.cpp")
    assert not refused.ok and "does not run mlx" in refused.reason
    g3 = reg.get("gemma-3-270m")
    assert "declares no drafter" in drafter_support(g3, g3.specs[0], "llama.cpp").reason
    assert drafter_support(g3, g3.specs[0], "llama.cpp", "ngram-mod").ok  # model-free: any model
    assert not drafter_support(gemma, mlx, "mlx", "ngram-mod").ok
    assert version_at_least("2026.10.11549", "2026.6.9713")
    assert not version_at_least("2026.5.9294", "2026.6.9713")


def test_depth_has_an_upper_bound() -> None:
    from app.core.speculative.options import MAX_SPECULATIVE_TOKENS

    assert parse_num_speculative_tokens(MAX_SPECULATIVE_TOKENS) == MAX_SPECULATIVE_TOKENS
    for too_many in (MAX_SPECULATIVE_TOKENS + 1, 2_147_483_648, "100000"):
        with pytest.raises(SpeculationError, match="tokens per round"):
            parse_num_speculative_tokens(too_many)
    with pytest.raises(SpeculationError, match=r"speculative\.ngram_mod\.n_max"):
        tr.plan(SpeculationOptions.build(engine_native={"speculative.ngram_mod.n_max": 2_147_483_648}))


def test_classic_mlx_pairs_are_gated_on_mlx_lm(monkeypatch: pytest.MonkeyPatch) -> None:
    import dataclasses

    from app.core.engines import capability
    from app.core.registry import load_family

    pytest.importorskip("mlx_vlm")
    hf = {"model_id": "me/llama-{quantization}", "draft_model_id": "me/small"}
    spec_data = {"format": "mlx", "size_in_billions": 1, "quantizations": ["bf16"]}
    spec_data["sources"] = {"huggingface": hf}
    fam = load_family({"name": "llama-pair", "specs": [spec_data]}, "t")
    spec = fam.specs[0]
    support = drafter_support(fam, spec, "mlx")
    assert support.method == "draft" and support.ok  # mlx-lm is installed here
    missing = dataclasses.replace(
        capability.MLX, method_packages=(("draft", "no-such-dist", "no_such_mod", "1"),)
    )
    monkeypatch.setitem(capability.ENGINES, "mlx", missing)
    refused = drafter_support(fam, spec, "mlx")
    assert not refused.ok and "needs no-such-dist" in refused.reason and "not installed" in refused.reason
