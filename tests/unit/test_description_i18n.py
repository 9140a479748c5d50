"""A family's description in the app's other languages (``description_i18n``): what registration
accepts and refuses, the English fallback, and the builtin families all translated."""

from __future__ import annotations

import importlib.util
import json
from importlib import resources
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from app.core.registry import DESCRIPTION_LOCALES, Registry, RegistryError

ROOT = Path(__file__).resolve().parents[2]


def family(**extra: Any) -> dict[str, Any]:
    return {
        "name": "mine",
        "description": "My own model, registered by hand.",
        "specs": [
            {
                "format": "gguf",
                "size_in_billions": 1,
                "quantizations": ["Q4_K_M"],
                "model_file_name_template": "mine-{quantization}.gguf",
                "sources": {"huggingface": {"model_id": "me/mine-GGUF"}},
            }
        ],
        **extra,
    }


def test_a_good_map_is_registered_written_and_read_back(tmp_path: Path) -> None:
    translations = {"zh_CN": "我自己的模型。", "ja": "自分のモデル。", "ko": "내 모델."}
    reg = Registry.load(tmp_path)
    fam = reg.register(family(description_i18n=translations), tmp_path)
    assert fam.description_i18n == translations
    saved = json.loads((tmp_path / "mine.json").read_text("utf-8"))
    assert saved["description_i18n"] == translations
    again = Registry.load(tmp_path).get("mine")
    assert [again.description_in(code) for code in ("en", "zh_CN", "ja", "ko")] == [
        "My own model, registered by hand.",
        "我自己的模型。",
        "自分のモデル。",
        "내 모델.",
    ]


def test_a_partial_map_and_no_map_fall_back_to_english(tmp_path: Path) -> None:
    reg = Registry.load(tmp_path)
    partial = reg.register(family(description_i18n={"ja": "自分のモデル。"}), tmp_path)
    assert partial.description_in("ja") == "自分のモデル。"
    assert partial.description_in("ko") == "My own model, registered by hand."
    plain = reg.register(family(name="plain"), tmp_path)
    assert plain.description_i18n is None
    assert "description_i18n" not in json.loads((tmp_path / "plain.json").read_text("utf-8"))
    for code in ("en", *DESCRIPTION_LOCALES):
        assert plain.description_in(code) == "My own model, registered by hand."


@pytest.mark.parametrize(
    ("value", "message"),
    [
        pytest.param({"de": "Mein Modell."}, "unknown language 'de'; use one of zh_CN, ja, ko", id="unknown"),
        pytest.param({"zh-CN": "我的模型。"}, "unknown language 'zh-CN' (use 'zh_CN')", id="zh-spelling"),
        pytest.param({"en": "My model."}, "the English text is 'description'", id="english"),
        pytest.param({"ja": 5}, "description_i18n.ja: must be text (a JSON string), not int", id="number"),
        pytest.param(
            {"ko": ["내 모델"]}, "description_i18n.ko: must be text (a JSON string), not list", id="list"
        ),
        pytest.param(
            {"ja": None}, "description_i18n.ja: must be text (a JSON string), not NoneType", id="null"
        ),
        pytest.param({"ja": "  "}, "description_i18n.ja: is blank", id="blank"),
        pytest.param(
            "自分のモデル", "must be an object mapping a language to the description", id="not-a-map"
        ),
    ],
)
def test_a_bad_map_is_refused_at_registration_with_the_fix(tmp_path: Path, value: Any, message: str) -> None:
    reg = Registry.load(tmp_path)
    with pytest.raises(RegistryError) as err:
        reg.register(family(description_i18n=value), tmp_path)
    assert message in str(err.value)
    assert "family 'mine'" in str(err.value)
    assert not list(tmp_path.glob("*.json"))  # nothing written
    assert "mine" not in reg.families


def test_translations_without_the_english_description_are_refused(tmp_path: Path) -> None:
    with pytest.raises(RegistryError, match="given without the English 'description'"):
        Registry.load(tmp_path).register(family(description="", description_i18n={"ja": "x"}), tmp_path)


def test_a_hand_written_file_with_a_bad_map_is_listed_as_invalid_not_crashing(tmp_path: Path) -> None:
    (tmp_path / "mine.json").write_text(json.dumps(family(description_i18n={"fr": "Mon modèle."})), "utf-8")
    (tmp_path / "other.json").write_text(json.dumps(family(name="other")), "utf-8")
    reg = Registry.load(tmp_path)
    assert "other" in reg.families and "mine" not in reg.families
    assert [e.name for e in reg.invalid] == ["mine"]
    assert "unknown language 'fr'" in reg.invalid[0].reason
    assert len(reg.builtin_names) >= 30  # the builtin listing is whole


def test_every_builtin_family_is_described_in_every_language() -> None:
    reg = Registry.load()
    for name in reg.builtin_names:
        fam = reg.get(name)
        assert fam.description, name
        assert fam.description_i18n is not None, name
        assert set(fam.description_i18n) == set(DESCRIPTION_LOCALES), name
        for code, text in fam.description_i18n.items():
            assert text != fam.description, (name, code)
    gemma = reg.get("gemma-4")
    assert gemma.description_in("ja").startswith("Google Gemma 4 ")
    assert "*-it-assistant" in gemma.description_in("zh_CN")


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "build_builtin_registry", ROOT / "scripts" / "build_builtin_registry.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_generator_refuses_a_description_changed_without_its_translations() -> None:
    module = _script()
    translations = json.loads(module.DESCRIPTIONS.read_text("utf-8"))
    families = [{"name": "qwen3", "description": "Qwen3, described anew.", "specs": []}]
    with pytest.raises(SystemExit, match="qwen3: its description changed"):
        module.apply_translations(families, {"qwen3": translations["qwen3"]})
    with pytest.raises(SystemExit, match="qwen3: no translations"):
        module.apply_translations(families, {})


def test_the_committed_registry_carries_the_generators_translations() -> None:
    """Translations are edited in scripts/registry_descriptions_i18n.json and the script rerun."""
    module = _script()
    translations = json.loads(module.DESCRIPTIONS.read_text("utf-8"))
    committed = json.loads(
        resources.files("app.resources").joinpath("builtin_families.json").read_text("utf-8")
    )
    assert module.apply_translations(committed, translations) == committed
    assert set(translations) == {f["name"] for f in committed}


def test_models_json_carries_the_descriptions(capsys: pytest.CaptureFixture[str]) -> None:
    from app.cli import main

    assert main(["models", "--json"]) == 0
    data = {f["name"]: f for f in json.loads(capsys.readouterr().out)}
    gemma = Registry.load().get("gemma-4")
    entry = data["gemma-4"]
    assert entry["description"] == gemma.description
    assert entry["description_i18n"] == gemma.description_i18n
    assert entry["specs"] and "abilities" in entry["specs"][0]  # the listing's own fields stay
