from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from app.core import settings as st


def test_defaults_when_missing_and_round_trip(_isolated_home: Path) -> None:
    s = st.load()
    assert s == st.Settings()
    assert st.settings_path().is_relative_to(_isolated_home)
    s.language = "ja"
    s.sampling.temperature = 0.2
    s.hub = "modelscope"
    st.save(s)
    again = st.load()
    assert again.language == "ja" and again.sampling.temperature == 0.2 and again.hub == "modelscope"
    assert again.model_cache_dir().is_relative_to(_isolated_home)


def test_validation_rejects_bad_values() -> None:
    s = st.Settings()
    with pytest.raises(ValidationError):
        s.language = "fr"
    with pytest.raises(ValidationError):
        s.hf_endpoint = "ftp://mirror"
    s.hf_endpoint = "https://hf-mirror.example/ "
    assert s.hf_endpoint == "https://hf-mirror.example"
    with pytest.raises(ValidationError):
        st.SamplingDefaults(top_p=0)


def test_v1_file_is_migrated(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    v1 = {"version": 1, "hub": "modelscope", "endpoint": "https://ms.example", "language": "zh"}
    path.write_text(json.dumps(v1))
    s = st.load(path)
    assert s.version == st.SCHEMA_VERSION
    assert s.modelscope_endpoint == "https://ms.example" and s.hf_endpoint == ""
    assert s.language == "zh_CN"
    assert s.endpoint() == "https://ms.example"


def test_tokens_are_never_persisted(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"version": 2, "hf_token": "hf_secret", "language": "ko"}))
    s = st.load(path)
    assert s.language == "ko"
    assert "hf_secret" not in path.read_text()  # rewritten without the secret
    st.save(s, path)
    saved = json.loads(path.read_text())
    assert not {k for k in saved if k.endswith("token") or k in ("api_key", "hf_token")}
    assert "hf_secret" not in path.read_text()


@pytest.mark.parametrize("content", ["{not json", "[1, 2]", json.dumps({"version": 2, "context_length": -5})])
def test_broken_file_gives_defaults(tmp_path: Path, content: str) -> None:
    path = tmp_path / "settings.json"
    path.write_text(content)
    assert st.load(path) == st.Settings()


def test_newer_version_is_read_best_effort_and_keeps_its_number(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"version": 99, "language": "ja", "future_key": 1}))
    s = st.load(path)
    assert s.language == "ja"
    st.save(s, path)
    assert json.loads(path.read_text())["version"] == 99


def test_last_launch_round_trips_and_old_records_still_load(tmp_path: Path) -> None:
    """The last launch is stored typed; the older dict of strings still reads,
    and an unreadable record is dropped alone, keeping the other settings."""
    path = tmp_path / "settings.json"
    s = st.Settings(language="ja")
    s.last_model = st.LastLaunch(
        family="gemma-4",
        format="gguf",
        size="2",
        quantization="Q4_K_M",
        engine="llama.cpp",
        speculation_method="mtp",
        draft_quantization="BF16",
        num_speculative_tokens=2,
        n_ctx=4096,
        threads=4,
        sampling=st.SamplingDefaults(temperature=1.0, top_k=64, max_tokens=300, repeat_penalty=1.1),
    )
    st.save(s, path)
    again = st.load(path)
    assert again.last_model == s.last_model

    old = {"family": "smollm2-135m-instruct", "format": "gguf", "size": "0.135", "quantization": "Q4_1",
           "engine": "llama.cpp"}  # fmt: skip
    path.write_text(json.dumps({"version": 2, "language": "ko", "last_model": old}))
    legacy = st.load(path)
    assert legacy.last_model is not None and legacy.last_model.family == "smollm2-135m-instruct"
    assert legacy.last_model.speculation_method is None and legacy.last_model.sampling is None

    for bad in ({}, {"family": "x"}, {"family": "x", "format": "gguf", "size": "1", "quantization": "Q",
                                      "engine": "llama.cpp", "n_ctx": -3}):  # fmt: skip
        path.write_text(json.dumps({"version": 2, "language": "ko", "last_model": bad}))
        kept = st.load(path)
        assert kept.last_model is None and kept.language == "ko", bad


def test_repeat_penalty_setting_is_checked() -> None:
    assert st.SamplingDefaults().repeat_penalty == 1.0
    with pytest.raises(ValidationError):
        st.SamplingDefaults(repeat_penalty=0)
