"""A vision target's projector (``mmproj``): the registry fields and their one-line errors,
the reads-images rule, the cache plan, the listing check and what a launch does with it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.core.cache import make_plan, spec_status
from app.core.cache.listing import NoMatchError, resolve_for
from app.core.engines.base import Sampling
from app.core.launch.plan import LaunchChoice, launch_reads_images, plan_launch
from app.core.registry import Family, Registry, RegistryError, parse_family, reads_images
from app.core.registry.store import describe_validation_error
from app.core.speculative import SpeculationOptions

ROOT = Path(__file__).resolve().parents[2]


def family(**source: Any) -> dict[str, Any]:
    src = {
        "model_id": "org/vision-GGUF",
        "model_file_name_template": "vision-{quantization}.gguf",
        "mmproj_file_name_template": "mmproj-{mmproj_quantization}.gguf",
        "mmproj_quantizations": ["F16", "BF16"],
    }
    src.update(source)
    src = {k: v for k, v in src.items() if v is not None}
    return {
        "name": "vision",
        "abilities": ["chat", "vision"],
        "specs": [
            {
                "format": "gguf",
                "size_in_billions": 4,
                "quantizations": ["Q4_K_M", "Q8_0"],
                "sources": {"huggingface": src},
            }
        ],
    }


def error_of(data: dict[str, Any]) -> str:
    from pydantic import ValidationError

    with pytest.raises(ValidationError) as info:
        parse_family(data)
    return describe_validation_error(info.value)


def test_the_shape_validates_and_names_the_precisions() -> None:
    fam = parse_family(family())
    spec = fam.specs[0]
    assert spec.declares_projector() and spec.declares_projector("huggingface")
    assert not spec.declares_projector("modelscope")
    assert spec.mmproj_quantizations() == ["F16", "BF16"]
    single = parse_family(
        family(mmproj_file_name_template="mmproj-model-f16.gguf", mmproj_quantizations=None)
    )
    assert single.specs[0].declares_projector() and single.specs[0].mmproj_quantizations() == []


@pytest.mark.parametrize(
    ("source", "message"),
    [
        (
            {"mmproj_file_name_template": None},
            "sources.huggingface.mmproj_quantizations: given but no projector is declared; add "
            "mmproj_file_name_template",
        ),
        (
            {"mmproj_quantizations": None},
            "uses {mmproj_quantization} but mmproj_quantizations is missing",
        ),
        (
            {"mmproj_file_name_template": "mmproj-F16.gguf"},
            "2 mmproj_quantizations are listed but 'mmproj-F16.gguf' has no {mmproj_quantization}",
        ),
        (
            {"mmproj_file_name_template": "mmproj-{quantization}.gguf"},
            "unknown placeholder {quantization}",
        ),
        ({"mmproj_file_name_template": "mmproj-*.gguf"}, "must name the projector file exactly"),
        ({"mmproj_file_name_template": "mmproj-{mmproj_quantization}.bin"}, "must name a .gguf file"),
        ({"mmproj_file_name_template": "/abs/mmproj-{mmproj_quantization}.gguf"}, "not an absolute path"),
        ({"mmproj_file_name_template": "../mmproj-{mmproj_quantization}.gguf"}, "must not contain '..'"),
        ({"mmproj_quantizations": []}, "mmproj_quantizations: must not be empty"),
        ({"mmproj_quantizations": ["F16", "F16"]}, "duplicate entry 'F16'"),
        (
            {
                "mmproj_file_name_template": "vision-{mmproj_quantization}.gguf",
                "mmproj_quantizations": ["Q8_0"],
            },
            "the projector 'vision-Q8_0.gguf' is the file of quantization Q8_0",
        ),
    ],
)
def test_a_malformed_projector_is_one_line_naming_the_field(source: dict[str, Any], message: str) -> None:
    text = error_of(family(**source))
    assert message in text and "\n" not in text


def test_mlx_checkpoints_carry_their_projector() -> None:
    data = {
        "name": "vision-mlx",
        "abilities": ["chat", "vision"],
        "specs": [
            {
                "format": "mlx",
                "size_in_billions": 4,
                "quantizations": ["4bit"],
                "sources": {
                    "huggingface": {
                        "model_id": "org/vision-{quantization}",
                        "mmproj_file_name_template": "mmproj-F16.gguf",
                    }
                },
            }
        ],
    }
    assert "mlx checkpoints carry their vision tower" in error_of(data)
    del data["specs"][0]["sources"]["huggingface"]["mmproj_file_name_template"]
    fam = parse_family(data)
    assert reads_images(fam, fam.specs[0])  # the family's vision ability
    text_only = parse_family({**data, "abilities": ["chat"]})
    assert not reads_images(text_only, text_only.specs[0])


def test_reads_images_follows_the_projector_for_gguf() -> None:
    fam = parse_family(family())
    assert reads_images(fam, fam.specs[0]) and reads_images(fam, fam.specs[0], "huggingface")
    assert not reads_images(fam, fam.specs[0], "modelscope")
    plain = parse_family(family(mmproj_file_name_template=None, mmproj_quantizations=None))
    assert not reads_images(plain, plain.specs[0])  # "vision" ability alone: no file, no images


def test_a_bad_user_family_is_refused_at_registration_and_never_breaks_the_listing(tmp_path: Path) -> None:
    user_dir = tmp_path / "families"
    user_dir.mkdir()
    reg = Registry.load(user_dir)
    with pytest.raises(RegistryError, match=r"mmproj_file_name_template.*no \{mmproj_quantization\}"):
        reg.register(family(mmproj_file_name_template="mmproj.gguf"), user_dir)
    assert not list(user_dir.glob("*.json"))
    (user_dir / "vision.json").write_text(json.dumps(family(mmproj_file_name_template="mmproj-*.gguf")))
    again = Registry.load(user_dir)
    assert [bad.name for bad in again.invalid] == ["vision"]
    assert "must name the projector file exactly" in again.invalid[0].reason
    good = again.register({**family(), "name": "vision-ok"}, user_dir)
    assert good.specs[0].declares_projector()


def test_the_plan_of_a_projector() -> None:
    fam = parse_family(family())
    spec = fam.specs[0]
    plan = make_plan(fam, spec, "projector", "Q8_0", "huggingface")
    assert (plan.repo_id, plan.files, plan.revision) == ("org/vision-GGUF", ("mmproj-F16.gguf",), "main")
    assert plan.entry_name == "vision-gguf-4b-Q8_0-mmproj-F16" and plan.role == "projector"
    bf16 = make_plan(fam, spec, "projector", "Q8_0", "huggingface", mmproj_quantization="BF16")
    assert bf16.files == ("mmproj-BF16.gguf",)
    with pytest.raises(ValueError, match=r"mmproj_quantization: 'F32' is not one of \['F16', 'BF16'\]"):
        make_plan(fam, spec, "projector", "Q8_0", "huggingface", mmproj_quantization="F32")
    plain = parse_family(family(mmproj_file_name_template=None, mmproj_quantizations=None))
    with pytest.raises(ValueError, match="declares no mmproj file on 'huggingface'"):
        make_plan(plain, plain.specs[0], "projector", "Q8_0", "huggingface")


def test_the_listing_must_hold_the_projector_by_its_exact_name() -> None:
    names = ["vision-Q8_0.gguf", "mmproj-F16.gguf", "mmproj-F32.gguf"]
    assert resolve_for(["mmproj-F16.gguf"], names, "org/r@main", "projector", "F16") == (
        ("mmproj-F16.gguf",),
        "",
    )
    with pytest.raises(
        NoMatchError, match=r"no projector file mmproj-BF16\.gguf; it has mmproj-F16\.gguf, mmproj-F32"
    ):
        resolve_for(["mmproj-BF16.gguf"], names, "org/r@main", "projector", "BF16")
    with pytest.raises(NoMatchError, match="it has no mmproj files"):
        resolve_for(["mmproj-BF16.gguf"], ["vision-Q8_0.gguf"], "org/r@main", "projector", "BF16")


def test_status_lists_the_projector_marker_offline() -> None:
    fam = parse_family(family())
    out = spec_status(fam, fam.specs[0], "huggingface").to_json()
    assert out["mmproj_quantizations"] == {"F16": "absent", "BF16": "absent"}
    plain = parse_family(family(mmproj_file_name_template=None, mmproj_quantizations=None))
    assert "mmproj_quantizations" not in spec_status(plain, plain.specs[0], "huggingface").to_json()


def _choice(fam: Family, engine: str = "llama.cpp") -> LaunchChoice:
    return LaunchChoice(fam, fam.specs[0], "Q8_0", engine, SpeculationOptions(), 4096, None, Sampling())


def _resolver(fam: Family, spec: Any, role: str, q: str, dq: str | None) -> Path:
    return Path(f"/m/{role}-{q}.gguf")


def test_a_launch_loads_the_projector_it_finds() -> None:
    fam = parse_family(family())
    asked: list[str] = []

    def lookup(f: Family, s: Any, q: str) -> Path:
        asked.append(q)
        return Path("/m/mmproj-F16.gguf")

    plan = plan_launch(_choice(fam), _resolver, lookup)
    assert plan.request.mmproj_path == "/m/mmproj-F16.gguf" and asked == ["Q8_0"]
    assert plan.reads_images and plan.notice == ""


def test_a_launch_without_the_projector_reads_text_and_says_so() -> None:
    fam = parse_family(family())
    plan = plan_launch(_choice(fam), _resolver, lambda f, s, q: None)
    assert plan.request.mmproj_path is None and not plan.reads_images
    assert plan.notice.count("\n") == 0
    assert plan.notice.startswith("the image projector (mmproj) of vision 4B is not downloaded")
    assert "tandem download vision --format gguf --size 4 --quant Q8_0" in plan.notice


def test_no_projector_no_lookup_no_notice() -> None:
    plain = parse_family(family(mmproj_file_name_template=None, mmproj_quantizations=None))

    def lookup(f: Family, s: Any, q: str) -> Path:
        raise AssertionError("nothing to look up")

    plan = plan_launch(_choice(plain), _resolver, lookup)
    assert plan.request.mmproj_path is None and plan.notice == "" and not plan.reads_images


def test_reads_images_per_engine() -> None:
    fam = parse_family(family())
    with_mmproj = plan_launch(_choice(fam), _resolver, lambda f, s, q: Path("/m/p.gguf")).request
    assert launch_reads_images(fam, fam.specs[0], "llama.cpp", with_mmproj)
    assert not launch_reads_images(fam, fam.specs[0], "remote", with_mmproj)


def test_builtin_projectors_carry_evidence_naming_their_files() -> None:
    """Every projector in the committed registry is named by a page recorded on its source."""
    raw = json.loads((ROOT / "resources" / "builtin_families.json").read_text("utf-8"))
    found = 0
    for data in raw:
        fam = parse_family(data)
        for spec in fam.specs:
            for hub in spec.sources.hubs():
                src = spec.source(hub)
                if not src.declares_projector:
                    continue
                found += 1
                assert src.evidence and not src.unverified
                shown = " ".join(e.shows for e in src.evidence)
                template = src.mmproj_file_name_template
                assert template is not None
                for pq in src.mmproj_quantizations or [""]:
                    assert template.format(mmproj_quantization=pq) in shown, (fam.name, spec.size_label)
                assert reads_images(fam, spec, hub)
    assert found >= 11


# --- what the launch dialog says about images --------------------------------------------------


def _form(fam: Family, on_disk: bool) -> Any:
    from app.core.launch.form import LaunchForm

    return LaunchForm(fam, lambda f, s, r, q, /: "cached", projector=lambda f, s, q: on_disk)


def _values(fam: Family, engine: str = "llama.cpp", **kw: Any) -> Any:
    from dataclasses import replace

    from app.core.launch.form_state import FormValues

    base = FormValues(spec=fam.specs[0], quant="Q8_0", engine=engine, n_ctx=4096, max_tokens=256)
    return replace(base, **kw)


def test_the_launch_form_says_whether_and_how_the_launch_reads_images(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from app.core.engines import capability
    from app.core.launch.form_state import NoteCode

    monkeypatch.setattr(capability, "engine_availability", lambda name: capability.Availability(True, "1"))
    fam = parse_family(family())
    note = _form(fam, True).evaluate(_values(fam)).vision_note
    assert note is not None and note.code == NoteCode.READS_IMAGES and note.level == "info"
    assert "mtp" in str(note.params["methods"]) and "eagle3" in str(note.params["refused"])
    missing = _form(fam, False).evaluate(_values(fam)).vision_note
    assert missing is not None and missing.code == NoteCode.PROJECTOR_NOT_CACHED
    # a model-free method that runs with images says so; the launch keeps its projector
    ngram = _form(fam, True).evaluate(_values(fam, model_free="ngram-mod", auto=False)).vision_note
    assert ngram is not None and ngram.code == NoteCode.READS_IMAGES
    plain = parse_family(family(mmproj_file_name_template=None, mmproj_quantizations=None))
    assert _form(plain, True).evaluate(_values(plain)).vision_note is None


def test_a_method_refused_with_images_loads_the_launch_text_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """EAGLE-3 with a projector: this llama.cpp fails every image prompt, so the launch goes
    without the projector and says so in one line."""
    from app.core.engines import capability

    monkeypatch.setattr(capability, "engine_availability", lambda name: capability.Availability(True, "1"))
    fam = parse_family(family())
    options = SpeculationOptions.build(enabled=True, method="eagle3", draft_model_path="/m/eagle3.gguf")
    choice = LaunchChoice(fam, fam.specs[0], "Q8_0", "llama.cpp", options, 4096, None, Sampling())
    plan = plan_launch(choice, _resolver, lambda f, s, q: Path("/m/mmproj-F16.gguf"))
    assert plan.request.mmproj_path is None and not plan.reads_images
    assert plan.notice.startswith("eagle3 cannot run with images on this llama.cpp")
    assert "\n" not in plan.notice
    ngram = SpeculationOptions.build(enabled=True, method="ngram-mod")
    kept = plan_launch(replace_choice(choice, ngram), _resolver, lambda f, s, q: Path("/m/mmproj-F16.gguf"))
    assert kept.request.mmproj_path == "/m/mmproj-F16.gguf" and kept.notice == ""


def replace_choice(choice: LaunchChoice, options: SpeculationOptions) -> LaunchChoice:
    from dataclasses import replace

    return replace(choice, speculation=options)


def test_a_local_source_names_its_projector_file(tmp_path: Path) -> None:
    proj = tmp_path / "mmproj.gguf"
    proj.write_bytes(b"GGUF")
    local = {
        "name": "mine",
        "abilities": ["chat"],
        "specs": [
            {
                "format": "gguf",
                "size_in_billions": 1,
                "quantizations": ["F16"],
                "sources": {"local": {"path": str(tmp_path / "m.gguf"), "mmproj_path": str(proj)}},
            }
        ],
    }
    fam = parse_family(local)
    spec = fam.specs[0]
    assert reads_images(fam, spec) and not spec.declares_projector()  # nothing to download
    choice = LaunchChoice(fam, spec, "F16", "llama.cpp", SpeculationOptions(), 4096, None, Sampling())
    plan = plan_launch(choice, _resolver)
    assert plan.request.mmproj_path == str(proj) and plan.reads_images and plan.notice == ""
    proj.unlink()
    gone = plan_launch(choice, _resolver)
    assert gone.request.mmproj_path is None and "is not there" in gone.notice
    mlx = json.loads(json.dumps(local))
    mlx["specs"][0].update(format="mlx", quantizations=["4bit"])
    mlx["specs"][0]["sources"]["local"]["path"] = str(tmp_path)
    assert "mlx checkpoints carry their vision tower" in error_of(mlx)
    empty = json.loads(json.dumps(local))
    empty["specs"][0]["sources"]["local"]["mmproj_path"] = " "
    assert "sources.local.mmproj_path: must name the projector file" in error_of(empty)
