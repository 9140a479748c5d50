"""The Verify check's core (app/core/measure/verify.py): which key each server gets, what
the report concludes, and that the check refuses nothing silently (no Qt, no server)."""

from __future__ import annotations

from app.core.engines.remote.endpoints import Endpoint, set_api_key
from app.core.engines.remote.engine import RemoteFinished
from app.core.measure.bench import ParityResult
from app.core.measure.verify import PROMPTS, SideFigures, VerifyReport, VerifyRow, servers_with_keys
from tests.unit.test_remote_acceptance import _MemoryKeyring, ring  # noqa: F401  (the keyring fixture)


def test_the_baseline_never_gets_a_key_meant_for_another_host(ring: _MemoryKeyring) -> None:  # noqa: F811
    gpu = Endpoint.parse("https://gpu-box:8000/v1")
    same_host = Endpoint.parse("https://gpu-box:8001/v1")
    other = Endpoint.parse("https://other-box:8001/v1")
    s = servers_with_keys(gpu, same_host, " m ", "typed")
    assert (s.api_key, s.baseline_key, s.model) == ("typed", "typed", "m")  # same machine: the same key
    s = servers_with_keys(gpu, other, "", "typed")
    assert s.api_key == "typed" and s.baseline_key is None  # never sent to another machine
    set_api_key(other.url, "its-own")
    set_api_key(gpu.url, "stored")
    s = servers_with_keys(gpu, other, "")
    assert (s.api_key, s.baseline_key) == ("stored", "its-own")
    assert "stored" not in repr(s) and "its-own" not in repr(s)


def test_side_figures_keep_unreported_apart_from_zero() -> None:
    side = SideFigures()
    side.add(RemoteFinished("stop", 1, 5, 1.0, 1.0, 0, 0, drafted_known=False))  # reports nothing
    assert side.answers == 1 and not side.reported and not side.drafting
    side.add(
        RemoteFinished(
            "stop", 1, 5, 1.0, 1.0, 8, 6, acceptance_source="llama.cpp timings", drafted=8, accepted=6
        )
    )
    assert side.reported and side.drafting and (side.drafted, side.accepted) == (8, 6)
    assert side.source == "this server does not report acceptance"  # the first answer's source is kept


def test_the_overall_verdict() -> None:
    exact = ParityResult("p", True, "token ids", 4, 4)
    near = ParityResult("p", False, "token ids", 4, 4, 2, verdict="TOP_K_MATCH")
    fail = ParityResult("p", False, "token ids", 4, 4, 2, verdict="FAIL")
    report = VerifyReport("e", "b", "m", 64)
    assert report.verdict == "FAIL"  # nothing compared proves nothing
    report.rows = [VerifyRow("prose", exact), VerifyRow("code", exact)]
    assert report.verdict == "EXACT"
    report.rows.append(VerifyRow("list", near))
    assert report.verdict == "TOP_K_MATCH" and report.count("TOP_K_MATCH") == 1
    report.rows.append(VerifyRow("chinese", fail))
    assert report.verdict == "FAIL"


def test_the_built_in_prompts_are_of_different_kinds() -> None:
    kinds = [k for k, _p in PROMPTS]
    assert kinds == ["prose", "code", "chinese", "list", "arithmetic"]
    assert any("\u4e00" <= ch <= "\u9fff" for ch in dict(PROMPTS)["chinese"])
