"""Speculation method detection from GGUF metadata, method chains, and the one-line refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.engines.llamacpp import translate
from app.core.speculative import SpeculationError, SpeculationOptions
from app.core.speculative.detect import (
    builtin_mtp_problem,
    facts_from_fields,
    method_for_drafter,
    method_mismatch,
    pair_problem,
)

VOCAB = [f"t{i}" for i in range(100)]


def lm(arch: str = "llama", width: int = 64, layers: int = 4, **extra: object) -> dict[str, object]:
    return {
        "general.architecture": arch,
        f"{arch}.embedding_length": width,
        f"{arch}.block_count": layers,
        "tokenizer.ggml.tokens": VOCAB,
        **extra,
    }


def eagle3(width: int = 64, layers: tuple[int, ...] = (0, 1, 2), reads: int = 64) -> dict[str, object]:
    return {
        "general.architecture": "eagle3",
        "eagle3.embedding_length": width,
        "eagle3.block_count": 1,
        "eagle3.target_layers": list(layers),
        "eagle3.target_hidden_size": reads,
        "tokenizer.ggml.tokens": VOCAB,
    }


def dflash(width: int = 64, layers: tuple[int, ...] = (1, 3)) -> dict[str, object]:
    return {
        "general.architecture": "dflash",
        "dflash.embedding_length": width,
        "dflash.block_count": 2,
        "dflash.target_layers": list(layers),
        "tokenizer.ggml.tokens": VOCAB,
    }


@pytest.mark.parametrize(
    ("fields", "method"),
    [
        (lm(), "draft"),
        (lm("gemma3"), "draft"),
        (eagle3(), "eagle3"),
        (dflash(), "dflash"),
        ({"general.architecture": "gemma4-assistant"}, "mtp"),
        ({"general.architecture": "someday-assistant"}, "mtp"),
    ],
)
def test_the_drafter_architecture_picks_the_method(fields: dict[str, object], method: str) -> None:
    assert method_for_drafter(facts_from_fields(fields)) == method


def test_a_plain_drafter_with_eagle3_is_refused_in_one_line_naming_what_it_is() -> None:
    problem = method_mismatch("eagle3", facts_from_fields(lm("llama")), "smol-q4_1.gguf")
    assert problem is not None and "\n" not in problem
    assert "smol-q4_1.gguf" in problem and "plain language model" in problem
    assert "general.architecture llama" in problem and "--spec-method draft" in problem


def test_a_matching_method_and_a_model_free_one_pass() -> None:
    assert method_mismatch("eagle3", facts_from_fields(eagle3())) is None
    assert method_mismatch("dflash+ngram-mod", facts_from_fields(dflash())) is None
    assert method_mismatch("ngram-mod", facts_from_fields(lm())) is None
    problem = method_mismatch("dflash+ngram-mod", facts_from_fields(eagle3()))
    assert problem is not None and "--spec-method eagle3" in problem


def test_builtin_mtp_is_offered_from_nextn_predict_layers() -> None:
    with_heads = facts_from_fields(lm("qwen35", **{"qwen35.nextn_predict_layers": 1}))
    assert with_heads.has_builtin_mtp and builtin_mtp_problem(with_heads) is None
    plain = facts_from_fields(lm("llama"))
    problem = builtin_mtp_problem(plain, "smol.gguf")
    assert problem is not None and "\n" not in problem and "llama.nextn_predict_layers" in problem
    zero = facts_from_fields(lm("glm4", **{"glm4.nextn_predict_layers": 0}))
    assert not zero.has_builtin_mtp


def test_eagle3_for_another_target_is_explained_from_metadata() -> None:
    target = facts_from_fields(lm(width=64, layers=4))
    assert pair_problem(target, facts_from_fields(eagle3())) is None
    wide = pair_problem(target, facts_from_fields(eagle3(reads=128)), "t.gguf", "e.gguf")
    assert wide is not None and "128-wide" in wide and "64 wide" in wide and "\n" not in wide
    deep = pair_problem(target, facts_from_fields(eagle3(layers=(2, 10, 20))), "t.gguf", "e.gguf")
    assert deep is not None and "[2, 10, 20]" in deep and "4 layers" in deep
    two = pair_problem(target, facts_from_fields(eagle3(layers=(0, 1))))
    assert two is not None and "exactly 3" in two
    vocab = facts_from_fields({**eagle3(), "tokenizer.ggml.tokens": VOCAB[:50]})
    problem = pair_problem(target, vocab)
    assert problem is not None and "50 tokens" in problem and "100" in problem


def test_dflash_for_another_target_is_explained_from_metadata() -> None:
    target = facts_from_fields(lm(width=64, layers=4))
    assert pair_problem(target, facts_from_fields(dflash())) is None
    wide = pair_problem(target, facts_from_fields(dflash(width=32)))
    assert wide is not None and "32-wide" in wide
    missing = facts_from_fields({**dflash(), "dflash.target_layers": None})
    problem = pair_problem(target, missing)
    assert problem is not None and "dflash.target_layers" in problem
    assert pair_problem(target, facts_from_fields(lm())) is None  # plain drafters: vocab check elsewhere


@pytest.mark.parametrize(
    ("method", "types"),
    [
        ("mtp+ngram-mod", ["DRAFT_MTP", "NGRAM_MOD"]),
        ("draft+ngram-mod", ["DRAFT_SIMPLE", "NGRAM_MOD"]),
        ("eagle3", ["DRAFT_EAGLE3"]),
        ("dflash", ["DRAFT_DFLASH"]),
    ],
)
def test_methods_and_chains_become_llamacpp_types(method: str, types: list[str]) -> None:
    opts = SpeculationOptions.build(enabled=True, method=method, draft_model_path="d.gguf")
    p = translate.plan(opts)
    assert p.types == types and p.draft_path == "d.gguf"
    assert p.settings["speculative.draft.n_max"] == 3
    if "NGRAM_MOD" in types:
        assert p.settings["speculative.ngram_mod.n_min"] == translate.NGRAM_MOD_MIN_DRAFT


def test_builtin_mtp_needs_no_drafter_file_but_other_drafter_methods_do() -> None:
    p = translate.plan(SpeculationOptions.build(enabled=True, method="mtp"))
    assert p.types == ["DRAFT_MTP"] and p.draft_path is None and p.speculative
    with pytest.raises(SpeculationError, match="needs a drafter"):
        translate.plan(SpeculationOptions.build(enabled=True, method="eagle3"))


@pytest.mark.parametrize(
    "method", ["ngram-mod+ngram-simple", "mtp+eagle3", "mtp+ngram-mod+ngram-cache", "mtp+suffix"]
)
def test_bad_chains_are_refused(method: str) -> None:
    with pytest.raises(SpeculationError, match="chain"):
        SpeculationOptions.build(enabled=True, method=method)


def test_unknown_parts_are_refused() -> None:
    with pytest.raises(SpeculationError, match="unknown"):
        SpeculationOptions.build(enabled=True, method="mtp+bogus")


def test_auto_measures_the_drafter_files_own_method_or_builtin_heads(tmp_path: Path) -> None:
    import gguf

    from app.core.launch import auto
    from app.core.speculative.detect import auto_drafter_method

    def write(name: str, arch: str, **kv: int) -> str:
        path = tmp_path / name
        w = gguf.GGUFWriter(str(path), arch)
        for key, value in kv.items():
            w.add_uint32(f"{arch}.{key}", value)
        w.write_header_to_file()
        w.write_kv_data_to_file()
        w.write_tensors_to_file()
        w.close()
        return str(path)

    heads = write("heads.gguf", "qwen35", nextn_predict_layers=1, embedding_length=64)
    plain = write("plain.gguf", "llama", embedding_length=64)
    eagle = write("eagle.gguf", "eagle3", embedding_length=64)
    assert auto_drafter_method(heads, None, None) == "mtp"
    assert auto_drafter_method(plain, None, None) is None
    assert auto_drafter_method(plain, eagle, "draft") == "eagle3"
    assert auto_drafter_method(plain, plain, "draft") == "draft"
    assert auto_drafter_method(plain, str(tmp_path / "missing.gguf"), "mtp") == "mtp"
    methods = [c.method for c in auto.candidates("llama.cpp", "eagle3", ["ngram-mod"])]
    assert methods == ["off", "eagle3", "eagle3", "eagle3", "ngram-mod", "eagle3+ngram-mod"]
    assert auto.Candidate("eagle3", 4).uses_drafter and auto.Candidate("dflash+ngram-mod").uses_drafter
    opts = auto.Candidate("mtp+ngram-mod", None, 16).options(None)  # built-in heads: no drafter file
    assert opts.engine_native["speculative.types"] == ["DRAFT_MTP", "NGRAM_MOD"]
    assert "speculative.draft.mparams.path" not in opts.engine_native


def test_the_tiny_files_read_as_what_they_are(tmp_path: Path) -> None:
    """app.devtools.tiny_drafters: each file's metadata says its role, and the pairs fit."""
    from app.core.speculative.detect import file_facts
    from app.devtools import tiny_drafters as b

    made = b.build(tmp_path / "a")
    again = b.build(tmp_path / "b")
    for one, two in zip(
        (made.target, made.eagle3, made.dflash, made.mtp_target),
        (again.target, again.eagle3, again.dflash, again.mtp_target),
        strict=True,
    ):
        assert one.read_bytes() == two.read_bytes()  # seeded: byte-identical
    target, eagle3, dflash, heads = (
        file_facts(p) for p in (made.target, made.eagle3, made.dflash, made.mtp_target)
    )
    assert target is not None and eagle3 is not None and dflash is not None and heads is not None
    assert (target.role, eagle3.role, dflash.role, heads.role) == ("lm", "eagle3", "dflash", "lm")
    assert eagle3.target_layers == b.EAGLE3_LAYERS and eagle3.target_hidden_size == b.HIDDEN
    assert dflash.target_layers == b.DFLASH_LAYERS
    assert heads.has_builtin_mtp and not target.has_builtin_mtp
    assert pair_problem(target, eagle3) is None and pair_problem(target, dflash) is None
    assert method_mismatch("eagle3", target) is not None
