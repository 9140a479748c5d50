"""Compatible-drafter finder on the real embedded models: local folders, the
cache, and hub repositories checked by reading only the GGUF header over HTTP range requests
(olah on loopback, behind a proxy that records what the client asked for)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.cli import main
from app.core.cache import hf_cache_root
from app.core.catalog import drafters
from app.devtools.hubs.huggingface import OlahHub
from app.devtools.hubs.proxies import CountingProxy
from app.devtools.hubs.repos import build_hf_repo

SMOL_REPO = "tandem-test/smol-drafter-GGUF"
GEMMA_REPO = "tandem-test/gemma-header-GGUF"
BROKEN_REPO = "tandem-test/broken-GGUF"


@pytest.fixture()
def drafter_folder(tmp_path: Path, smollm2_q4: Path, gemma3_q4: Path) -> Path:
    d = tmp_path / "models"
    (d / "sub").mkdir(parents=True)
    (d / "SmolLM2-135M-Instruct.Q4_1.gguf").symlink_to(smollm2_q4)
    (d / "sub" / "gemma-3-270m-Q4_K_M.gguf").symlink_to(gemma3_q4)
    (d / "broken.gguf").write_bytes(b"\x00" * 4096)
    with smollm2_q4.open("rb") as fh:  # a download cut short: the header is there, the data is not
        (d / "SmolLM2-cut.gguf").write_bytes(fh.read(3 << 20))
    return d


def test_local_finder_offers_the_q4_1_file_only(
    smollm2_f32: Path, drafter_folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(["drafters", "--model-path", str(smollm2_f32), "--search", str(drafter_folder), "--json"]) == 0
    )
    offered = json.loads(capsys.readouterr().out)
    assert [Path(c["path"]).name for c in offered] == ["SmolLM2-135M-Instruct.Q4_1.gguf"]
    assert offered[0]["compatible"] is True
    assert offered[0]["reason"].startswith("identical vocabulary (gpt2, 49152 tokens")
    assert offered[0]["size_bytes"] == 98362432

    # the rejected ones carry their reason
    assert main(["drafters", "--model-path", str(smollm2_f32), "--search", str(drafter_folder), "--all",
                 "--json"]) == 0  # fmt: skip
    every = {Path(c["path"]).name: c for c in json.loads(capsys.readouterr().out)}
    assert every["gemma-3-270m-Q4_K_M.gguf"]["compatible"] is False
    assert (
        every["gemma-3-270m-Q4_K_M.gguf"]["reason"] == "tokenizer type differs (target gpt2, drafter llama)"
    )
    assert "not a GGUF model file" in every["broken.gguf"]["reason"]
    assert "damaged or incomplete" in every["SmolLM2-cut.gguf"]["reason"]


def test_a_larger_same_vocabulary_file_is_not_offered(
    smollm2_q4: Path, smollm2_f32: Path, tmp_path: Path
) -> None:
    d = tmp_path / "m"
    d.mkdir()
    (d / "f32.gguf").symlink_to(smollm2_f32)
    cands = drafters.local_candidates(smollm2_q4, [d], include_cache=False)
    assert len(cands) == 1 and cands[0].compatible is False
    assert cands[0].reason == "not smaller than the target, so it cannot speed it up"


def test_special_tokens_must_match(smollm2_q4: Path) -> None:
    v = drafters.gguf_tools.vocab_info(smollm2_q4)
    other = drafters.VocabInfo(v.model, v.size, v.digest, v.architecture, v.bos, (v.eos or 0) + 1)
    assert drafters.compare(v, v) is None
    assert "special tokens differ" in (drafters.compare(v, other) or "")


@pytest.fixture(scope="module")
def header_hub(
    tmp_path_factory: pytest.TempPathFactory, smollm2_q4: Path, gemma3_q4: Path
) -> Iterator[tuple[OlahHub, CountingProxy]]:
    hub = OlahHub(tmp_path_factory.mktemp("olah-drafters"))
    smol = {"README.md": b"smol\n", "SmolLM2-135M-Instruct.Q4_1.gguf": smollm2_q4}
    build_hf_repo(hub.mirrors, SMOL_REPO, dict(smol))
    with gemma3_q4.open("rb") as fh:  # the real header (262k tokens) without the weights
        build_hf_repo(hub.mirrors, GEMMA_REPO, {"gemma-3-270m-it-Q4_K_M.gguf": fh.read(12 << 20)})
    build_hf_repo(hub.mirrors, BROKEN_REPO, {"model-Q8_0.gguf": b"PK\x03\x04" + b"\x01" * 5000})
    hub.start(SMOL_REPO)
    proxy = CountingProxy(hub.port)
    proxy.start()
    try:
        yield hub, proxy
    finally:
        proxy.stop()
        hub.stop()


def test_hub_candidates_are_checked_from_the_header_only(
    header_hub: tuple[OlahHub, CountingProxy],
    smollm2_f32: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _hub, proxy = header_hub
    monkeypatch.setenv("HF_ENDPOINT", proxy.endpoint)
    args = ["drafters", "--model-path", str(smollm2_f32), "--hub", "huggingface"]
    for repo in (SMOL_REPO, GEMMA_REPO, BROKEN_REPO):
        args += ["--repo", repo]
    assert main([*args, "--json"]) == 0
    offered = json.loads(capsys.readouterr().out)
    assert [(c["repo"], c["file"]) for c in offered] == [(SMOL_REPO, "SmolLM2-135M-Instruct.Q4_1.gguf")]
    assert offered[0]["size_bytes"] == 98362432 and offered[0]["hub"] == "huggingface"

    assert main([*args, "--all", "--json"]) == 0
    every = {c["repo"]: c for c in json.loads(capsys.readouterr().out)}
    assert every[GEMMA_REPO]["reason"] == "tokenizer type differs (target gpt2, drafter llama)"
    assert "not a GGUF model file" in every[BROKEN_REPO]["reason"]
    # only header bytes were asked for, and nothing landed in the hub cache
    sent = proxy.sent.decode("latin-1")
    assert "range: bytes=0-1048575" in sent.lower()
    assert not list(hf_cache_root().glob("models--tandem-test--*/blobs/*"))


def test_unreachable_hub_is_one_line(smollm2_f32: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")
    code = main(["drafters", "--model-path", str(smollm2_f32), "--hub", "huggingface", "--repo", SMOL_REPO,
                 "--all", "--json"])  # fmt: skip
    assert code == 0  # the local search still answers; the repository says why it was skipped
    out = json.loads(capsys.readouterr().out)
    assert out and "ConnectError" in out[-1]["reason"] and out[-1]["compatible"] is False


def _mlx_folder(root: Path, name: str, vocab: dict[str, int], weights: int) -> Path:
    d = root / name
    d.mkdir(parents=True)
    (d / "config.json").write_text(json.dumps({"model_type": "llama"}))
    tok = {"model": {"type": "BPE", "vocab": vocab}, "added_tokens": [{"id": 0, "content": "<s>"}]}
    (d / "tokenizer.json").write_text(json.dumps(tok))
    (d / "model.safetensors").write_bytes(b"\0" * weights)
    return d


def test_mlx_folders_follow_the_same_rule(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    vocab = {"<s>": 0, "a": 1, "b": 2}
    target = _mlx_folder(tmp_path / "t", "target-4bit", vocab, 50_000)
    lib = tmp_path / "lib"
    _mlx_folder(lib, "small-4bit", vocab, 5_000)
    _mlx_folder(lib, "other-4bit", {"<s>": 0, "a": 1, "c": 2}, 5_000)
    (lib / "no-tokenizer").mkdir()
    (lib / "no-tokenizer" / "config.json").write_text("{}")
    assert main(["drafters", "--model-path", str(target), "--search", str(lib), "--all", "--json"]) == 0
    got = {Path(c["path"]).name: c for c in json.loads(capsys.readouterr().out)}
    assert got["small-4bit"]["compatible"] is True
    assert got["other-4bit"] == {**got["other-4bit"], "compatible": False, "reason": "tokenizer differs"}
    assert got["no-tokenizer"]["compatible"] is False and "tokenizer.json" in got["no-tokenizer"]["reason"]
