"""Capabilities as data: ``tandem models --json`` lists what every spec can do, and the local
server's ``/v1/models`` carries the same for the model it serves."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from app.cli.commands import main
from app.core.registry import Registry
from app.core.registry.abilities import spec_abilities
from app.core.serving import ServedModel
from tests.integration.scripted_engine import GEMMA_ANSWER, Script
from tests.integration.served import KEY, Served


def _listing(capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    assert main(["models", "--json"]) == 0
    data: list[dict[str, Any]] = json.loads(capsys.readouterr().out)
    return data


def test_models_json_lists_abilities_for_every_spec(capsys: pytest.CaptureFixture[str]) -> None:
    data = _listing(capsys)
    specs = [(f["name"], s) for f in data for s in f["specs"]]
    assert specs and all("abilities" in s and "context_length" in s for _n, s in specs)
    reg = Registry.load()
    assert len(specs) == sum(len(f.specs) for f in reg.families.values())  # every spec is listed
    # every spec says what it is for: a chat model, a base model that continues text, or both
    purpose = {"chat", "generate"}
    assert not [(n, s["format"], s["size"]) for n, s in specs if not purpose & set(s["abilities"])]
    # the listed abilities are exactly the family's listable tags (plus what the spec itself adds)
    for n, s in specs:
        fam = reg.families[n]
        tagged = {a for a in ("chat", "generate", "reasoning") if a in fam.abilities}
        assert tagged <= set(s["abilities"]), (n, s["abilities"], fam.abilities)
    base = next(s for n, s in specs if n == "gemma-3-270m")
    assert base["abilities"] == ["generate"]
    # a listing never claims chat for a family the registry does not mark as a chat model
    assert all(("chat" in s["abilities"]) == ("chat" in reg.families[n].abilities) for n, s in specs)
    gguf_vision = [s for _n, s in specs if "vision" in s["abilities"] and s["format"] == "gguf"]
    assert len(gguf_vision) >= 3
    assert all(s["projector"] and s["projector"].startswith("mmproj") for s in gguf_vision)
    kinds = {s["drafter_kind"] for _n, s in specs}
    assert {"classic", "assistant-mtp", "eagle-3", "dflash", None} <= kinds
    assert any("mtp-heads" in s["abilities"] for _n, s in specs)
    gemma = next(f for f in data if f["name"] == "gemma-4-ggml")
    fam = reg.families["gemma-4-ggml"]
    assert gemma["specs"][0]["context_length"] == fam.context_length
    assert gemma["specs"][0]["abilities"] == spec_abilities(fam, fam.specs[0])["abilities"]


class _SeeingScript(Script):
    supports_images = True


def test_v1_models_carries_the_same_abilities() -> None:
    fam = Registry.load().families["gemma-4"]
    want = {a for spec in fam.specs for a in spec_abilities(fam, spec)["abilities"]}
    for engine, vision in ((Script(GEMMA_ANSWER), False), (_SeeingScript(GEMMA_ANSWER), True)):
        with Served(ServedModel(engine, "gemma-4", "gemma4")) as s:
            got = httpx.get(s.url + "/models", headers={"Authorization": f"Bearer {KEY}"}).json()["data"][0]
        assert got["id"] == "gemma-4" and got["context_length"] == fam.context_length
        assert ("vision" in got["abilities"]) is vision  # what the loaded engine can do
        assert set(got["abilities"]) - {"vision"} == want - {"vision"}
