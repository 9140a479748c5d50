"""Depth parsing, option translation to xllamacpp, defaults, round accounting, capability."""

from __future__ import annotations

from typing import Any

import pytest

from app.core.engines.capability import drafter_support, version_at_least
from app.core.engines.llamacpp import translate as tr
from app.core.registry import Registry
from app.core.speculative import (
    RoundAccountant,
    SpeculationError,
    SpeculationOptions,
    default_tokens,
    parse_num_speculative_tokens,
)
from tests.mlx_required import require_mlx


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
    assert default_tokens("mlx", "gemma-4", 2, "mtp").value == 3  # block of 4 incl. the verified token
    # a classic drafter on MLX runs in Tandem's loop: a ceiling, the depth adapts per round
    assert default_tokens("mlx", "qwen", 8, "draft").value == 8
    assert default_tokens("mlx", "qwen", 8, "draft").code == "adaptive-ceiling"
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
    # short drafts allowed (llama.cpp's 48 drafted nothing in an answer's last 48 tokens)
    assert p.settings["speculative.ngram_mod.n_min"] == tr.NGRAM_MOD_MIN_DRAFT == 2


def test_ngram_mod_allows_short_drafts_whichever_way_it_is_chosen() -> None:
    """The same shortest draft for Tandem's method, engine-native types and a combination, unless
    the user sets ``n_min``: chosen by hand or by Auto, ngram-mod does not keep 48 or its depth."""
    native = tr.plan(SpeculationOptions.build(enabled=True, engine_native={"speculative.types": "ngram-mod"}))
    assert native.settings["speculative.ngram_mod.n_min"] == 2
    combo = tr.plan(
        SpeculationOptions.build(
            enabled=True,
            engine_native={
                "speculative.types": ["DRAFT_SIMPLE", "NGRAM_MOD"],
                "speculative.draft.mparams.path": "/d.gguf",
                "speculative.ngram_mod.n_max": 64,
            },
        )
    )
    assert combo.settings["speculative.ngram_mod.n_min"] == 2
    tiny = tr.plan(SpeculationOptions.build(enabled=True, method="ngram-mod", num_speculative_tokens=1))
    assert tiny.settings["speculative.ngram_mod.n_min"] == 1  # never above the depth
    own = tr.plan(
        SpeculationOptions.build(
            enabled=True, method="ngram-mod", engine_native={"speculative.ngram_mod.n_min": "12"}
        )
    )
    assert own.settings["speculative.ngram_mod.n_min"] == 12  # the user's own value wins
    drafter = tr.plan(SpeculationOptions.build(enabled=True, method="draft", draft_model_path="/d.gguf"))
    assert "speculative.ngram_mod.n_min" not in drafter.settings
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

    require_mlx("mlx_vlm")
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


# --- every refused input is the parser's own error ------------------------------------------------
def _odd_strings() -> list[str]:
    """Strings that look numeric to some Python function or other, plus ASCII near-misses."""
    unicode_digits = [
        chr(c)
        for c in range(0x80, 0x110000)
        if (chr(c).isdigit() or chr(c).isnumeric() or chr(c).isdecimal())
    ]
    assert {"²", "٣", "３", "⑦", "Ⅻ", "௫"} <= set(unicode_digits)
    fixed = ["++3", "+-3", "-+3", "3.0", " 3 ", "\t7\n", "1e3", "0x10", "0o7", "0b1", "-0", "+0", "00",
             "3_000", "NaN", "nan", "inf", "-inf", "Infinity", "3 4", "3,0", "", "+", "-", "٣3", "3٣",
             "\u30003\u3000", "9" * 19, "9" * 5000, "+" * 50 + "3", "1" * 18, "256", "257", "1\x00",
             "３２", "𝟑", "3\u200b", "true", "None", "[3]"]  # fmt: skip
    combos = [f"{d}" for d in unicode_digits] + [f"3{d}" for d in unicode_digits[::7]]
    combos += [f"+{d}" for d in unicode_digits[::11]]
    return fixed + combos


def _expected_depth(text: str) -> int | None:
    """Independent oracle: ASCII digits with at most one leading '+', 1..256 after trimming."""
    body = text.strip()
    body = body[1:] if body.startswith("+") else body
    if not body or any(c not in "0123456789" for c in body) or len(body) > 18:
        return None
    number = int(body)
    return number if 1 <= number <= 256 else None


def test_depth_parser_refuses_every_odd_string_with_its_own_error() -> None:
    from app.core.engines.llamacpp import translate as native

    checked = 0
    for text in _odd_strings():
        expected = _expected_depth(text)
        if not text.strip():
            assert parse_num_speculative_tokens(text) is None
            continue
        checked += 1
        try:
            got = parse_num_speculative_tokens(text)
        except SpeculationError as exc:
            assert expected is None, f"{text!r} refused: {exc}"
            assert len(str(exc)) < 200 and "\n" not in str(exc)
        else:  # any other exception type propagates and fails the test
            assert got == expected, text
        # the llama.cpp native keys: depth keys, non-negative knobs, typed knobs
        for key in ("speculative.draft.n_max", "speculative.draft.n_min", "speculative.ngram_mod.n_match"):
            try:
                plan = native.plan(
                    SpeculationOptions.build(enabled=True, draft_model_path="/d", engine_native={key: text})
                )
            except SpeculationError:
                pass
            else:
                assert isinstance(plan.settings[key], int), (key, text)
        for current in (True, 7, 0.5, -1):
            try:
                value = native.coerce_native("speculative.x", current, text)
            except SpeculationError:
                pass
            else:
                assert type(value) is type(current), (current, text, value)
    assert checked > 1000


@pytest.mark.parametrize(
    "value", [float("nan"), float("inf"), float("-inf"), 1e300, -0.0, 10**400, 2.5, b"3", 3j, None]
)
def test_depth_parser_refuses_odd_numbers(value: object) -> None:
    if value is None:
        assert parse_num_speculative_tokens(value) is None
        return
    with pytest.raises(SpeculationError, match="num_speculative_tokens"):
        parse_num_speculative_tokens(value)


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("speculative.draft.n_min", "²", "is not a whole number >= 0"),
        ("speculative.draft.n_min", "++3", "is not a whole number >= 0"),
        ("speculative.ngram_mod.n_match", "-1", "is not a whole number >= 0"),
        ("speculative.draft.p_min", "NaN", "is not a number"),
        ("speculative.draft.p_min", "1.5", "between 0 and 1"),
        ("speculative.draft.p_split", True, "expected a number"),
    ],
)
def test_native_knobs_are_parsed_with_the_same_rules(key: str, value: object, message: str) -> None:
    with pytest.raises(SpeculationError, match=rf"{key}.*{message}"):
        tr.plan(SpeculationOptions.build(engine_native={key: value}))


def test_native_values_take_the_type_of_the_setting() -> None:
    import xllamacpp

    params: Any = xllamacpp.CommonParams()
    native = {"speculative.draft.probabilistic": "yes", "speculative.draft.n_gpu_layers": "-1",
              "speculative.synth_len": "0.5"}  # fmt: skip
    tr.apply(params, tr.plan(SpeculationOptions.build(engine_native=native)))
    assert params.speculative.draft.probabilistic is True
    assert params.speculative.draft.n_gpu_layers == -1 and params.speculative.synth_len == 0.5
    for key, bad in [
        ("speculative.draft.probabilistic", "maybe"),
        ("speculative.draft.n_gpu_layers", "²"),
        ("speculative.synth_len", "inf"),
        ("speculative.draft.devices", 3),
    ]:
        with pytest.raises(SpeculationError, match=key.replace(".", r"\.")):
            tr.apply(xllamacpp.CommonParams(), tr.plan(SpeculationOptions.build(engine_native={key: bad})))


def test_enabled_flag_refuses_words_it_does_not_know() -> None:
    assert SpeculationOptions.build(enabled="on").enabled
    assert not SpeculationOptions.build(enabled="off").enabled
    with pytest.raises(SpeculationError, match="expected true or false"):
        SpeculationOptions.build(enabled="maybe")


def test_per_request_choices_follow_the_one_rule_of_the_api() -> None:
    """The chat's choice and the API's ``tandem.speculation`` share one rule."""
    from app.core.speculative import per_request as pr

    S = pr.Speculation
    auto, off, draft = S("auto"), S("off"), S("draft")
    assert pr.honoured(auto, None) and pr.honoured(off, None) and not pr.honoured(draft, None)
    assert pr.honoured(auto, "draft") and pr.honoured(draft, "draft") and not pr.honoured(off, "draft")
    assert pr.honoured(S("ngram-mod"), None, [S("ngram-mod")])
    assert pr.choices(None) == [pr.Choice(auto, True), pr.Choice(off, True)]
    assert pr.choices("ngram-mod") == [
        pr.Choice(auto, True),
        pr.Choice(off, False),
        pr.Choice(S("ngram-mod"), True),
    ]
    assert pr.choices(None, S("mtp"))[-1] == pr.Choice(S("mtp"), False)  # a stored choice still shown


def test_a_speculation_is_parsed_once_at_the_edge() -> None:
    """What a user or client writes becomes one value: case and blanks do not matter, anything
    that names no choice is refused with the accepted forms."""
    from app.core.speculative.per_request import AUTO_CHOICE, OFF_CHOICE, Speculation

    assert Speculation.parse(" Draft+NGRAM-mod ") == Speculation("draft+ngram-mod")
    assert str(Speculation.parse("ngram-mod")) == "ngram-mod"
    assert Speculation.parse("AUTO") is not AUTO_CHOICE and Speculation.parse("AUTO") == AUTO_CHOICE
    assert AUTO_CHOICE.is_auto and AUTO_CHOICE.method is None and OFF_CHOICE.is_off
    assert Speculation.running(None) == OFF_CHOICE and Speculation.running("mtp").method == "mtp"
    for bad in ("", "   ", "draft 8", "ngram-mod;", "+draft", "draft+", "d\u00e9j\u00e0"):
        with pytest.raises(ValueError, match="expected"):
            Speculation.parse(bad)
