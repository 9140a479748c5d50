"""Which llama.cpp speculation methods run with a vision projector: the core table the
launch dialog and ``tandem drafters`` read (``app.core.engines.capability``)."""

from __future__ import annotations

import pytest

from app.core.engines import capability
from app.core.engines.capability import VISION_PROBED_WITH, vision_methods, vision_problem, vision_summary


def test_every_llamacpp_method_has_a_verdict() -> None:
    table = vision_methods(VISION_PROBED_WITH)
    assert set(table) == capability.LLAMACPP.drafter_methods | capability.LLAMACPP.model_free_methods
    assert table["eagle3"] is not None and "image prompt" in table["eagle3"]
    for method in ("mtp", "draft", "dflash", "ngram-mod", "ngram-cache", "ngram-simple"):
        assert table[method] is None, method


def test_reasons_are_one_line_and_name_another_release() -> None:
    for reason in vision_methods("2099.1.1").values():
        assert reason is None or ("\n" not in reason and "probed with xllamacpp" in reason)
    assert "probed with" not in (vision_methods(VISION_PROBED_WITH)["eagle3"] or "")


def test_chains_run_when_every_part_does() -> None:
    assert vision_problem("mtp+ngram-mod", VISION_PROBED_WITH) is None
    assert (
        vision_problem("eagle3+ngram-mod", VISION_PROBED_WITH) == vision_methods(VISION_PROBED_WITH)["eagle3"]
    )
    assert vision_problem("suffix", VISION_PROBED_WITH) == "not a llama.cpp speculation method"


def test_a_method_never_probed_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(capability, "LLAMACPP_VISION", capability.LLAMACPP_VISION[1:])  # drop mtp's row
    reason = vision_methods(VISION_PROBED_WITH)["mtp"]
    assert reason is not None and reason.startswith("not probed with a vision projector")


def test_the_summary_is_one_short_line() -> None:
    line = vision_summary(VISION_PROBED_WITH)
    assert (
        line == "with a vision projector (mmproj): dflash, draft, mtp, ngram-* run; eagle3 refused "
        "(fails on image prompts)"
    )
    assert len(line) < 110


def test_auto_leaves_out_what_cannot_run_with_images() -> None:
    """A launch with a projector: Auto never measures a method llama.cpp refuses with images."""
    from app.core.launch import auto

    cands = auto.candidates("llama.cpp", "eagle3", ["ngram-mod"])
    assert any(c.method == "eagle3" for c in cands)
    kept = auto.with_images("llama.cpp", cands)
    assert kept[0] == auto.OFF and not any("eagle3" in c.method for c in kept)
    assert [c.method for c in kept] == ["off", "ngram-mod"]
    mtp = auto.candidates("llama.cpp", "mtp", ["ngram-mod"])
    assert auto.with_images("llama.cpp", mtp) == mtp  # everything here runs with images
    assert auto.with_images("mlx", cands) == cands
