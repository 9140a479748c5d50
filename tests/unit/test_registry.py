"""Registry validation: a table of good and bad specs, each bad one with the message users see."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from app.core.registry import Registry, RegistryError, format_template, load_family


def gguf_family(**source_overrides: Any) -> dict[str, Any]:
    src: dict[str, Any] = {
        "model_id": "org/model-GGUF",
        "draft_model_id": "org/model-GGUF",
        "draft_quantizations": ["BF16", "Q8_0"],
        "draft_model_file_name_template": "MTP/mtp-{draft_quantization}.gguf",
    }
    src.update(source_overrides)
    src = {k: v for k, v in src.items() if v is not None}
    return {
        "name": "demo",
        "specs": [
            {
                "format": "gguf",
                "size_in_billions": 2,
                "quantizations": ["Q4_K_M", "Q8_0"],
                "model_file_name_template": "model-{quantization}.gguf",
                "sources": {"huggingface": src},
            }
        ],
    }


def mlx_family(**source_overrides: Any) -> dict[str, Any]:
    src: dict[str, Any] = {
        "model_id": "mlx-community/m-{quantization}",
        "draft_model_id": "mlx-community/m-assistant-{draft_quantization}",
        "draft_quantizations": ["bf16"],
    }
    src.update(source_overrides)
    src = {k: v for k, v in src.items() if v is not None}
    return {
        "name": "demo-mlx",
        "specs": [
            {
                "format": "mlx",
                "size_in_billions": 4,
                "quantizations": ["bf16", "4bit"],
                "sources": {"modelscope": src},
            }
        ],
    }


GOOD = [
    pytest.param(gguf_family(), id="gguf-with-drafter"),
    pytest.param(gguf_family(draft_model_id=None), id="gguf-drafter-in-target-repo"),
    pytest.param(
        gguf_family(draft_model_id=None, draft_quantizations=None, draft_model_file_name_template="mtp.gguf"),
        id="gguf-unquantized-drafter",
    ),
    pytest.param(
        gguf_family(draft_model_id=None, draft_quantizations=None, draft_model_file_name_template=None),
        id="gguf-no-drafter",
    ),
    pytest.param(mlx_family(), id="mlx-with-drafter"),
    pytest.param(mlx_family(draft_model_revision="abc123"), id="mlx-drafter-revision"),
]

BAD = [
    pytest.param(
        gguf_family(draft_model_file_name_template="MTP/mtp-{quantization}.gguf"),
        "draft_model_file_name_template: unknown placeholder {quantization}",
        id="target-placeholder-in-drafter",
    ),
    pytest.param(
        gguf_family(draft_model_file_name_template="MTP/mtp-{}.gguf"),
        "positional placeholder",
        id="positional-placeholder",
    ),
    pytest.param(
        gguf_family(draft_model_file_name_template="MTP/mtp-{draft_quantization.gguf"),
        "malformed template",
        id="unbalanced-brace",
    ),
    pytest.param(
        gguf_family(draft_quantizations=None),
        "drafter fields use {draft_quantization} but draft_quantizations is missing",
        id="placeholder-without-quantizations",
    ),
    pytest.param(
        gguf_family(draft_quantizations=[]),
        "draft_quantizations: must not be empty",
        id="empty-draft-quantizations",
    ),
    pytest.param(
        gguf_family(draft_quantizations=["BF16", "BF16"]),
        "duplicate entry 'BF16'",
        id="duplicate-draft-quantization",
    ),
    pytest.param(
        gguf_family(draft_model_file_name_template=None),
        "draft_model_file_name_template: required for a gguf drafter",
        id="gguf-drafter-without-template",
    ),
    pytest.param(
        gguf_family(draft_model_id=None, draft_model_file_name_template=None),
        "draft_quantizations: given but no drafter is declared",
        id="draft-quantizations-without-drafter",
    ),
    pytest.param(
        gguf_family(draft_model_id="not a repo"),
        "draft_model_id: 'not a repo' is not an 'org/name' repo id",
        id="bad-drafter-repo",
    ),
    pytest.param(
        gguf_family(draft_model_revision="{quantization}"),
        "draft_model_revision: unknown placeholder {quantization}",
        id="placeholder-in-revision",
    ),
    pytest.param(
        mlx_family(draft_model_file_name_template="x-{draft_quantization}"),
        "mlx drafters are repo snapshots",
        id="mlx-drafter-template",
    ),
    pytest.param(
        mlx_family(draft_model_id="mlx-community/m-assistant-{quantization}"),
        "draft_model_id: unknown placeholder {quantization}",
        id="mlx-drafter-target-placeholder",
    ),
    pytest.param(
        mlx_family(model_id="mlx-community/m-{quant}"),
        "model_id: unknown placeholder {quant}",
        id="mlx-unknown-target-placeholder",
    ),
    pytest.param(mlx_family(unknown_field=1), "Extra inputs are not permitted", id="unknown-field"),
]


def _with_spec(data: dict[str, Any], **spec_fields: Any) -> dict[str, Any]:
    out = copy.deepcopy(data)
    for key, value in spec_fields.items():
        if value is None:
            out["specs"][0].pop(key, None)
        else:
            out["specs"][0][key] = value
    return out


def _local(path: str, **extra: Any) -> dict[str, Any]:
    data = gguf_family()
    data["specs"][0]["sources"] = {"local": {"path": path, **extra}}
    return data


# A name that does not vary by quantization makes every quantization the same model.
SAME_FILE_BAD = [
    pytest.param(
        _with_spec(gguf_family(), model_file_name_template="model.gguf"),
        "quantizations Q4_K_M and Q8_0 both resolve to 'model.gguf'",
        id="gguf-template-without-quantization",
    ),
    pytest.param(
        gguf_family(model_file_name_template="model.gguf"),
        "sources.huggingface.model_file_name_template: quantizations Q4_K_M and Q8_0 both resolve",
        id="gguf-hub-template-without-quantization",
    ),
    pytest.param(
        gguf_family(draft_model_file_name_template="MTP/mtp.gguf"),
        "2 draft_quantizations are listed but no drafter field uses {draft_quantization}",
        id="gguf-drafter-template-without-draft-quantization",
    ),
    pytest.param(
        mlx_family(draft_model_id="mlx-community/m-assistant", draft_quantizations=["bf16", "4bit"]),
        "2 draft_quantizations are listed but no drafter field uses {draft_quantization}",
        id="mlx-drafter-id-without-draft-quantization",
    ),
    pytest.param(
        mlx_family(model_id="mlx-community/m-bf16"),
        "sources.modelscope.model_id: 'mlx-community/m-bf16' has no {quantization}, so all 2 quantizations",
        id="mlx-model-id-without-quantization",
    ),
    pytest.param(
        _with_spec(
            gguf_family(),
            quantization_parts={
                "Q4_K_M": ["00001-of-00002", "00002-of-00002"],
                "Q8_0": ["00001-of-00002", "00002-of-00002"],
            },
            model_file_name_split_template="split/model-{part}.gguf",
        ),
        "model_file_name_split_template: quantizations Q4_K_M and Q8_0 both resolve to 'split/model-00001",
        id="split-template-without-quantization",
    ),
    pytest.param(
        _with_spec(
            gguf_family(),
            quantization_parts={"Q8_0": ["Q4_K_M"]},
            model_file_name_split_template="model-{part}.gguf",
        ),
        "quantizations Q4_K_M and Q8_0 both resolve to 'model-Q4_K_M.gguf'",
        id="split-part-collides-with-single-file",
    ),
    pytest.param(
        _with_spec(
            gguf_family(),
            quantization_parts={"Q8_0": ["a", "a"]},
            model_file_name_split_template="{quantization}/m-{part}.gguf",
        ),
        "quantization_parts: Q8_0 lists a part twice",
        id="split-part-listed-twice",
    ),
    pytest.param(
        _local("/models/model.gguf"),
        "sources.local.path: '/models/model.gguf' has no {quantization}, so all 2 quantizations",
        id="local-path-without-quantization",
    ),
    pytest.param(
        _local("/m/{quantization}.gguf", draft_path="/m/d.gguf", draft_quantizations=["a", "b"]),
        "sources.local.draft_path: '/m/d.gguf' has no {draft_quantization}",
        id="local-draft-path-without-draft-quantization",
    ),
]

SAME_FILE_GOOD = [
    pytest.param(
        _with_spec(gguf_family(), quantizations=["Q8_0"], model_file_name_template="model.gguf"),
        id="one-quantization-fixed-name",
    ),
    pytest.param(
        gguf_family(draft_quantizations=["Q8_0"], draft_model_file_name_template="MTP/mtp.gguf"),
        id="one-draft-quantization-fixed-name",
    ),
    pytest.param(
        gguf_family(
            draft_model_id="org/drafter-{draft_quantization}", draft_model_file_name_template="d.gguf"
        ),
        id="drafter-varies-by-repo",
    ),
    pytest.param(
        _with_spec(
            gguf_family(),
            quantization_parts={"Q8_0": ["00001-of-00002", "00002-of-00002"]},
            model_file_name_split_template="{quantization}/model-{quantization}-{part}.gguf",
        ),
        id="split-and-single-files",
    ),
    pytest.param(_local("/m/{quantization}.gguf"), id="local-with-placeholder"),
]


@pytest.mark.parametrize(("data", "message"), SAME_FILE_BAD)
def test_quantizations_that_resolve_to_the_same_model_are_refused(data: dict[str, Any], message: str) -> None:
    with pytest.raises(RegistryError) as info:
        load_family(data, "test")
    assert message in str(info.value)


@pytest.mark.parametrize("data", SAME_FILE_GOOD)
def test_names_that_vary_by_quantization_are_accepted(data: dict[str, Any]) -> None:
    assert load_family(data, "test").specs


def test_registering_a_same_file_spec_is_refused_with_the_reason(tmp_path: Path) -> None:
    reg = Registry.load(tmp_path)
    with pytest.raises(RegistryError, match=r"no \{quantization\}|both resolve"):
        reg.register(_with_spec(gguf_family(), model_file_name_template="model.gguf"), tmp_path)
    assert not list(tmp_path.glob("*.json"))


@pytest.mark.parametrize("data", GOOD)
def test_good_specs_validate(data: dict[str, Any]) -> None:
    fam = load_family(data, "test")
    assert fam.specs


@pytest.mark.parametrize(("data", "message"), BAD)
def test_bad_specs_are_rejected_with_message(data: dict[str, Any], message: str) -> None:
    with pytest.raises(RegistryError) as info:
        load_family(data, "test")
    assert message in str(info.value)


def test_spec_level_rules() -> None:
    data = gguf_family()
    data["specs"][0]["quantizations"] = []
    with pytest.raises(RegistryError, match="quantizations: must not be empty"):
        load_family(data, "t")
    data = gguf_family()
    data["specs"][0]["model_file_name_template"] = "model-{quant}.gguf"
    with pytest.raises(RegistryError, match=r"unknown placeholder \{quant\}"):
        load_family(data, "t")
    data = gguf_family()
    del data["specs"][0]["model_file_name_template"]
    with pytest.raises(RegistryError, match="gguf needs model_file_name_template"):
        load_family(data, "t")
    data = gguf_family()
    data["specs"][0]["activated_size_in_billions"] = 3
    with pytest.raises(RegistryError, match="activated_size_in_billions"):
        load_family(data, "t")
    data = gguf_family()
    data["specs"].append(copy.deepcopy(data["specs"][0]))
    with pytest.raises(RegistryError, match="two gguf specs of size 2B"):
        load_family(data, "t")
    data = gguf_family()
    data["name"] = "bad/name"
    with pytest.raises(RegistryError, match="name: 'bad/name'"):
        load_family(data, "t")


def test_missing_draft_model_id_means_target_repo() -> None:
    fam = load_family(gguf_family(draft_model_id=None), "t")
    spec = fam.specs[0]
    assert spec.declares_drafter("huggingface")
    assert spec.draft_quantizations("huggingface") == ["BF16", "Q8_0"]


def test_format_template_names_the_field() -> None:
    assert format_template("a-{quantization}.gguf", "f", quantization="Q4") == "a-Q4.gguf"
    with pytest.raises(ValueError, match=r"^draft_model_id: unknown placeholder \{x\}"):
        format_template("a-{x}", "draft_model_id", quantization="Q4")


def test_builtin_registry_has_gemma4_with_drafters() -> None:
    reg = Registry.load()
    gemma = reg.get("gemma-4")
    formats = {(s.format, s.size_label) for s in gemma.specs}
    assert ("gguf", "E2B") in formats and ("mlx", "26B-A4B") in formats
    for spec in gemma.specs:
        assert spec.declares_drafter()
        for hub in spec.sources.hubs():
            src = spec.source(hub)
            if spec.format == "mlx":
                assert src.draft_model_id and "assistant" in src.draft_model_id
                assert "{quantization}" not in src.draft_model_id
            else:
                assert src.draft_model_file_name_template and src.draft_model_file_name_template.startswith(
                    "MTP/"
                )
    mlx12 = reg.match("gemma-4", "mlx", "12")[1]
    assert mlx12.draft_quantizations()[0] == "bf16" and len(mlx12.draft_quantizations()) > 1
    moe = reg.match("gemma-4", "gguf", "26B-A4B")[1]
    assert moe.activated_size_in_billions == 4
    assert "smollm2-135m-instruct" in reg.families


def test_user_registration_roundtrip_and_broken_files(tmp_path: Path) -> None:
    user_dir = tmp_path / "families"
    user_dir.mkdir()
    reg = Registry.load(user_dir)
    fam = reg.register(gguf_family(), user_dir)
    assert (user_dir / "demo.json").exists()
    with pytest.raises(RegistryError, match="already registered"):
        reg.register(gguf_family(), user_dir)
    with pytest.raises(RegistryError, match="taken by a builtin family"):
        reg.register({**gguf_family(), "name": "gemma-4"}, user_dir)
    # broken files: not JSON, and a spec that fails validation; neither breaks the listing
    (user_dir / "junk.json").write_text("{not json")
    bad = gguf_family(draft_model_file_name_template=None)
    bad["name"] = "broken"
    (user_dir / "broken.json").write_text(json.dumps(bad))
    reg2 = Registry.load(user_dir)
    assert fam.name in reg2.families and "gemma-4" in reg2.families
    reasons = {e.name: e.reason for e in reg2.invalid}
    assert "not valid JSON" in reasons["junk"]
    assert "draft_model_file_name_template: required for a gguf drafter" in reasons["broken"]
    reg2.unregister("demo", user_dir)
    reg2.unregister("broken", user_dir)
    assert not (user_dir / "demo.json").exists() and not (user_dir / "broken.json").exists()
    with pytest.raises(RegistryError, match="builtin family and cannot be unregistered"):
        reg2.unregister("gemma-4", user_dir)


def test_match_reports_available_specs() -> None:
    reg = Registry.load()
    with pytest.raises(RegistryError, match="available: gguf/E2B"):
        reg.match("gemma-4", "gguf", "7")
    with pytest.raises(RegistryError, match="unknown model 'nope'"):
        reg.match("nope")


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda s: s.update(size_in_billions=float("nan")), "size_in_billions"),
        (lambda s: s.update(size_in_billions=float("inf")), "size_in_billions"),
        (lambda s: s.update(model_file_name_template="/home/me/{quantization}.gguf"), "not an absolute path"),
        (lambda s: s.update(model_file_name_template="../{quantization}.gguf"), "must not contain '..'"),
        (
            lambda s: s["sources"]["huggingface"].update(draft_model_file_name_template="../../d.gguf"),
            "must not contain '..'",
        ),
        (
            lambda s: s.update(
                model_file_name_template="m-{quantization}-{part}.gguf",
                quantization_parts={"Q8_0": ["1", "2"]},
            ),
            "no parts listed for ['Q4_K_M']",
        ),
        (
            lambda s: s.update(quantization_parts={"Q4_K_M": ["1"], "Q8_0": ["1"]}),
            "add model_file_name_split_template",
        ),
    ],
)
def test_specs_that_would_break_later_are_rejected(mutate: Any, message: str) -> None:
    data = gguf_family()
    mutate(data["specs"][0])
    with pytest.raises(RegistryError) as info:
        load_family(data, "t")
    assert message in str(info.value)


def test_local_drafter_rules_are_the_same_for_mlx() -> None:
    local = {"path": "/m/target", "draft_path": "/m/drafter-{draft_quantization}"}
    spec = {"format": "mlx", "size_in_billions": 1, "quantizations": ["bf16"], "sources": {"local": local}}
    data = {"name": "local-mlx", "specs": [spec]}
    with pytest.raises(RegistryError, match="draft_quantizations is missing"):
        load_family(data, "t")


def test_unregister_by_family_name_and_never_outside_the_folder(tmp_path: Path) -> None:
    user_dir = tmp_path / "families"
    user_dir.mkdir()
    fam = gguf_family()
    fam["name"] = "stem-demo"
    (user_dir / "my-models.json").write_text(json.dumps(fam))  # file name differs from family name
    victim = tmp_path / "victim.json"
    victim.write_text("{}")
    reg = Registry.load(user_dir)
    assert "stem-demo" in reg.families
    with pytest.raises(RegistryError, match="not a registered user family"):
        reg.unregister("../victim", user_dir)
    assert victim.exists()
    reg.unregister("stem-demo", user_dir)
    assert not (user_dir / "my-models.json").exists()
    assert "stem-demo" not in Registry.load(user_dir).families


def test_split_and_single_file_quantizations_in_one_spec() -> None:
    from app.core.cache.plan import make_plan as plan_for

    data = gguf_family()
    data["specs"][0].update(
        quantizations=["Q4_K_M", "BF16"],
        quantization_parts={"BF16": ["00001-of-00002", "00002-of-00002"]},
        model_file_name_split_template="BF16/model-{quantization}-{part}.gguf",
    )
    fam = load_family(data, "t")
    spec = fam.specs[0]
    assert plan_for(fam, spec, "target", "Q4_K_M", "huggingface").files == ("model-Q4_K_M.gguf",)
    assert plan_for(fam, spec, "target", "BF16", "huggingface").files == (
        "BF16/model-BF16-00001-of-00002.gguf",
        "BF16/model-BF16-00002-of-00002.gguf",
    )
    bad = gguf_family()
    bad["specs"][0].update(
        model_file_name_split_template="split-{quantization}.gguf", quantization_parts={"Q8_0": ["1"]}
    )
    with pytest.raises(RegistryError, match=r"model_file_name_split_template: must use \{part\}"):
        load_family(bad, "t")
    bad["specs"][0].update(model_file_name_split_template="s-{part}.gguf", quantization_parts=None)
    with pytest.raises(RegistryError, match="quantization_parts is missing"):
        load_family(bad, "t")
