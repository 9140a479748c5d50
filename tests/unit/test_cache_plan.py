"""Plans, entry names, offline statuses and secrets: no network, real files."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import keyring
import pytest
from keyring.backend import KeyringBackend

from app.core import secrets
from app.core.cache import CacheManager, HubError, SpecResolutionError, make_plan, registry_status
from app.core.cache.hubs import scrub, translate_error
from app.core.registry import Family, Registry, parse_family


def family(**src: object) -> Family:
    hf: dict[str, object] = {
        "model_id": "org/repo-GGUF",
        "draft_model_file_name_template": "draft/d-{draft_quantization}.gguf",
        "draft_quantizations": ["Q8_0"],
    }
    hf.update(src)
    return parse_family(
        {
            "name": "fam",
            "specs": [
                {
                    "format": "gguf",
                    "size_in_billions": 2,
                    "label": "E2B",
                    "quantizations": ["Q4_K_M", "BF16"],
                    "model_file_name_template": "m-{quantization}.gguf",
                    "sources": {"huggingface": hf},
                },
                {
                    "format": "mlx",
                    "size_in_billions": 0.5,
                    "quantizations": ["4bit"],
                    "sources": {
                        "modelscope": {
                            "model_id": "org/m-{quantization}",
                            "draft_model_id": "org/d-{draft_quantization}",
                            "draft_quantizations": ["bf16"],
                        }
                    },
                },
            ],
        }
    )


def test_entry_names_and_files() -> None:
    fam = family()
    gguf, mlx = fam.specs
    p = make_plan(fam, gguf, "target", "Q4_K_M")
    assert (p.hub, p.kind, p.entry_name, p.repo_id, p.revision, p.files) == (
        "huggingface",
        "files",
        "fam-gguf-2b-Q4_K_M",
        "org/repo-GGUF",
        "main",
        ("m-Q4_K_M.gguf",),
    )
    d = make_plan(fam, gguf, "drafter", "Q4_K_M", draft_quantization="Q8_0")
    assert d.entry_name == "fam-gguf-2b-Q4_K_M-draft-Q8_0"
    assert d.repo_id == "org/repo-GGUF" and d.files == ("draft/d-Q8_0.gguf",)
    m = make_plan(fam, mlx, "target", "4bit")
    assert (m.hub, m.kind, m.repo_id, m.revision, m.entry_name) == (
        "modelscope",
        "snapshot",
        "org/m-4bit",
        "master",
        "fam-mlx-0.5b-4bit",
    )
    md = make_plan(fam, mlx, "drafter", "4bit")
    assert md.repo_id == "org/d-bf16" and md.entry_name == "fam-mlx-0.5b-4bit-draft-bf16"


def test_drafter_without_quantizations_is_named_draft() -> None:
    fam = family(draft_model_file_name_template="draft.gguf", draft_quantizations=None)
    d = make_plan(fam, fam.specs[0], "drafter", "Q4_K_M")
    assert d.entry_name == "fam-gguf-2b-Q4_K_M-draft" and d.files == ("draft.gguf",)


def test_template_errors_name_the_field() -> None:
    fam = family()
    # an unknown quantization is named as such
    with pytest.raises(ValueError, match="quantization"):
        make_plan(fam, fam.specs[0], "target", "Q5_K_M")
    # a template that cannot name the split parts is refused when the registry is read
    data = fam.model_dump(mode="json", exclude_none=True)
    data["specs"][0]["quantization_parts"] = {"Q4_K_M": ["a"], "BF16": ["00001", "00002"]}
    with pytest.raises(ValueError, match="model_file_name_template"):
        parse_family(data)
    # ...and at plan time when a spec slipped past validation
    fam2 = _unvalidated_split(fam, {"Q4_K_M": ["a"]})
    with pytest.raises(ValueError, match="model_file_name_template"):
        make_plan(fam2, fam2.specs[0], "target", "BF16")


def _unvalidated_split(fam: Family, parts: dict[str, list[str]]) -> Family:
    """``fam`` with a split-part template and ``parts`` that registry validation would refuse
    (how a spec written by an older version, or edited in memory, can reach the cache layer)."""
    spec = fam.specs[0].model_copy(
        update={"model_file_name_template": "m-{quantization}-{part}.gguf", "quantization_parts": parts}
    )
    return fam.model_copy(update={"specs": [spec, *fam.specs[1:]]})


def test_invalid_spec_never_breaks_the_listing() -> None:
    fam = _unvalidated_split(family(), {"BF16": ["00001"]})
    mgr = CacheManager(fam, fam.specs[0], "target", "Q4_K_M")
    st = mgr.status()
    assert st.state == "invalid" and "model_file_name_template" in st.reason
    with pytest.raises(SpecResolutionError):
        mgr.download()
    reg = Registry.load()
    reg.families[fam.name] = fam
    out = registry_status(reg)
    spec = next(f for f in out if f["name"] == "fam")["specs"][0]
    assert spec["quantizations"]["Q4_K_M"] == "invalid"
    assert "model_file_name_template" in spec["reason"]
    assert "model_file_name_template" in spec["details"]["quantizations"]["Q4_K_M"]["reason"]
    assert spec["quantizations"]["BF16"] == "absent"
    assert {f["name"] for f in out} >= {"gemma-4", "smollm2-135m-instruct", "fam"}


def test_partial_status_from_a_pending_manifest(tmp_path: Path) -> None:
    from app.core.cache.hubs import hf_cache_root
    from app.core.cache.manager import Manifest

    fam = family()
    mgr = CacheManager(fam, fam.specs[0], "target", "BF16")
    # another tool fetched the first part into the HF cache, the second is missing
    snap = hf_cache_root() / "models--org--repo-GGUF" / "snapshots" / ("a" * 40)
    snap.mkdir(parents=True)
    (hf_cache_root() / "models--org--repo-GGUF" / "refs").mkdir()
    (hf_cache_root() / "models--org--repo-GGUF" / "refs" / "main").write_text("a" * 40)
    (snap / "m-BF16.gguf").write_bytes(b"x")
    st = mgr.status()
    assert st.state == "cached" and st.source == "hub-cache"
    Manifest(
        hub="huggingface",
        repo_id="org/repo-GGUF",
        revision="main",
        commit="a" * 40,
        kind="files",
        role="target",
        target_entry=mgr.entry_name,
        files=[
            {"path": "m-BF16.gguf", "size": 1, "local": ""},
            {"path": "other.gguf", "size": 9, "local": ""},
        ],
    ).write(mgr.entry_dir)
    st = mgr.status()
    assert (st.state, st.bytes_present, st.bytes_total) == ("partial", 1, 10)


class DictKeyring(KeyringBackend):
    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.store: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.store.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.store[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        from keyring.errors import PasswordDeleteError

        if (service, username) not in self.store:
            raise PasswordDeleteError(username)
        del self.store[(service, username)]


@pytest.fixture()
def dict_keyring() -> Iterator[DictKeyring]:
    old = keyring.get_keyring()
    kr = DictKeyring()
    keyring.set_keyring(kr)
    try:
        yield kr
    finally:
        keyring.set_keyring(old)


def test_secrets_roundtrip(dict_keyring: DictKeyring) -> None:
    assert secrets.get_token("huggingface") is None
    secrets.set_token("huggingface", " hf_secret123456 ")
    assert secrets.get_token("huggingface") == "hf_secret123456"
    assert dict_keyring.store == {("tandem", "huggingface-token"): "hf_secret123456"}
    assert secrets.get_token("modelscope") is None
    assert secrets.delete_token("huggingface") is True
    assert secrets.delete_token("huggingface") is False
    with pytest.raises(ValueError, match="hub"):
        secrets.get_token("github")


def test_null_keyring_means_no_token() -> None:
    assert secrets.get_token("huggingface") is None


def test_tokens_never_in_error_messages(tmp_path: Path) -> None:
    tok = "hf_abcdefghijklmnopqrstuvwxyz"
    err = translate_error(
        RuntimeError(f"401 for token {tok} Authorization: Bearer {tok}"), "org/x", tok, tmp_path
    )
    assert isinstance(err, HubError) and tok not in str(err) and "***" in str(err)
    assert tok not in scrub(f"Bearer {tok}", None)


def test_local_source_status_shows_the_local_drafter_only(tmp_path: Path) -> None:
    """A spec with a hub drafter and a local drafter: the local source's status lists the local
    drafter's quantizations, never the hub's."""
    from app.core.cache import spec_status

    (tmp_path / "m-Q4_K_M.gguf").write_bytes(b"GGUF")
    (tmp_path / "d-small.gguf").write_bytes(b"GGUF")
    fam = family()
    data = fam.model_dump(mode="json", exclude_none=True)
    data["specs"][0]["sources"]["local"] = {
        "path": str(tmp_path / "m-{quantization}.gguf"),
        "draft_path": str(tmp_path / "d-{draft_quantization}.gguf"),
        "draft_quantizations": ["small", "large"],
    }
    fam = parse_family(data)
    local = spec_status(fam, fam.specs[0], "local")
    assert local.hub == "local" and local.draft_quantizations is not None
    assert {k: v.state for k, v in local.draft_quantizations.items()} == {
        "small": "cached",
        "large": "absent",
    }
    assert local.quantizations["Q4_K_M"].state == "cached"
    hub = spec_status(fam, fam.specs[0], "huggingface")
    assert hub.draft_quantizations is not None and set(hub.draft_quantizations) == {"Q8_0"}

    # a local source without a drafter shows none, even though the hub declares one
    del data["specs"][0]["sources"]["local"]["draft_path"]
    del data["specs"][0]["sources"]["local"]["draft_quantizations"]
    fam = parse_family(data)
    assert spec_status(fam, fam.specs[0], "local").draft_quantizations is None
