"""The loopback hubs of :mod:`app.devtools.hubs` as pytest fixtures: the Hugging Face mirror with
every test repository (one per session), ``HF_ENDPOINT`` pointed at it, and a ModelScope hub."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app.devtools.hubs.huggingface import OlahHub
from app.devtools.hubs.modelscope import ModelScopeHub
from app.devtools.hubs.repos import (
    BIG_REPO,
    BIG_VISION_REPO,
    INDEXED_MLX_REPO,
    SHARDED_MLX_REPO,
    TINY_MLX_REPO,
    TINY_REPO,
    VISION_REPO,
    big_repo_files,
    big_vision_repo_files,
    build_hf_repo,
    sharded_mlx_files,
    tiny_mlx_files,
    tiny_repo_files,
    vision_repo_files,
)


@pytest.fixture(scope="session")
def olah_hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[OlahHub]:
    hub = OlahHub(tmp_path_factory.mktemp("olah"))
    build_hf_repo(hub.mirrors, TINY_REPO, dict(tiny_repo_files()))
    build_hf_repo(hub.mirrors, TINY_MLX_REPO, dict(tiny_mlx_files()))
    build_hf_repo(hub.mirrors, BIG_REPO, dict(big_repo_files()))
    build_hf_repo(hub.mirrors, VISION_REPO, vision_repo_files())
    build_hf_repo(hub.mirrors, BIG_VISION_REPO, big_vision_repo_files())
    build_hf_repo(hub.mirrors, SHARDED_MLX_REPO, sharded_mlx_files())
    build_hf_repo(hub.mirrors, INDEXED_MLX_REPO, sharded_mlx_files(index=True))
    hub.start(TINY_REPO)
    try:
        yield hub
    finally:
        hub.stop()


@pytest.fixture()
def hf_endpoint(olah_hub: OlahHub, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("HF_ENDPOINT", olah_hub.endpoint)
    return olah_hub.endpoint


@pytest.fixture()
def modelscope_hub(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModelScopeHub]:
    repos = {
        TINY_REPO: tiny_repo_files(),
        TINY_MLX_REPO: tiny_mlx_files(),
        VISION_REPO: vision_repo_files(),
        BIG_VISION_REPO: big_vision_repo_files(),
    }
    hub = ModelScopeHub(repos)
    hub.start()
    monkeypatch.setenv("MODELSCOPE_ENDPOINT", hub.endpoint)
    try:
        yield hub
    finally:
        hub.stop()
