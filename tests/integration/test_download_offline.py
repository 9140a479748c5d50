"""Offline, anything already on disk works without the network.

A model is downloaded from a real loopback hub (olah for Hugging Face, the ModelScope server),
Tandem's entries are wiped (the files stay in the hub's own cache, as after "Remove from Tandem"
or after another tool fetched them), and the hub endpoint is pointed at a port that counts and
drops every connection. ``tandem download`` (through ``app.cli.commands.main``) must then succeed by
linking the cached files, with zero connections; a file that is really missing still fails with
one clear line.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from app.cli import commands as cli
from app.core.cache import CacheManager, entries_root
from app.core.cache.queue import DownloadQueue
from app.core.registry import Registry
from app.devtools.hubs.modelscope import ModelScopeHub
from app.devtools.hubs.proxies import SilentHub
from app.devtools.hubs.repos import tiny_family, tiny_mlx_files, tiny_repo_files
from tests.integration.hub_servers import hf_endpoint, modelscope_hub, olah_hub

__all__ = ["hf_endpoint", "modelscope_hub", "olah_hub"]  # fixtures

ENV = {"huggingface": "HF_ENDPOINT", "modelscope": "MODELSCOPE_ENDPOINT"}


def _registry() -> Registry:
    reg = Registry.load()
    reg.register(tiny_family().model_dump(mode="json", exclude_none=True))
    return Registry.load()


def _download(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, str], str]:
    capsys.readouterr()
    code = cli.main(["download", "tiny", *args, "--json"])
    out = capsys.readouterr()
    return code, (json.loads(out.out) if code == 0 else {}), out.err


def _wipe_entries() -> None:
    root = entries_root()
    for d in root.iterdir():
        shutil.rmtree(d)
    assert not any(root.iterdir())


@pytest.mark.parametrize("hub", ["huggingface", "modelscope"])
def test_download_of_cached_files_needs_no_network(
    hub: str,
    request: pytest.FixtureRequest,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    request.getfixturevalue("hf_endpoint" if hub == "huggingface" else "modelscope_hub")
    reg = _registry()
    gguf = ["--format", "gguf", "--size", "0.001", "--quant", "Q4_0", "--hub", hub]
    code, first, err = _download(capsys, *gguf, "--drafter", "--draft-quant", "F16")
    assert code == 0, err
    code, first_mlx, err = _download(capsys, "--format", "mlx", "--quant", "4bit", "--hub", hub)
    assert code == 0, err
    _wipe_entries()

    with SilentHub() as dead:
        monkeypatch.setenv(ENV[hub], dead.endpoint)
        fam = reg.get("tiny")
        target = CacheManager(fam, fam.specs[0], "target", "Q4_0", hub)
        assert target.status().source == "hub-cache"  # what `tandem models` shows as cached(hub)

        code, again, err = _download(capsys, *gguf, "--drafter", "--draft-quant", "F16")
        assert code == 0, err
        assert again == first
        assert Path(again["target"]).read_bytes() == tiny_repo_files()["tiny-Q4_0.gguf"]
        assert Path(again["drafter"]).read_bytes() == tiny_repo_files()["draft/tiny-draft-F16.gguf"]
        # the entries are linked again: the paths are Tandem's links into the hub cache
        for path in (Path(again["target"]), Path(again["drafter"])):
            assert path.is_symlink() and entries_root() in path.parents
        assert target.status().source == "entry"

        code, again_mlx, err = _download(capsys, "--format", "mlx", "--quant", "4bit", "--hub", hub)
        assert code == 0, err
        assert again_mlx == first_mlx
        model_dir = Path(again_mlx["target"])
        assert (model_dir / "config.json").read_bytes() == tiny_mlx_files()["config.json"]

        assert dead.connections == 0  # nothing above touched the network

        # what is really missing still needs the hub, and says so in one line
        code, _out, err = _download(capsys, *gguf[:-4], "--quant", "Q8_0", "--hub", hub)
        assert code == 2
        lines = err.strip().splitlines()
        assert lines[-1].startswith("tandem: ") and "tiny-GGUF" in lines[-1] and "Traceback" not in err
        assert all(not line.startswith("tandem: ") for line in lines[:-1])  # the rest is progress
        assert dead.connections > 0  # that one did try the network


@pytest.mark.parametrize("hub", ["huggingface", "modelscope"])
def test_no_connection_at_all_for_cached_files(
    hub: str,
    request: pytest.FixtureRequest,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The strict form: downloads of cached target, drafter and mlx snapshot open no connection."""
    request.getfixturevalue("hf_endpoint" if hub == "huggingface" else "modelscope_hub")
    _registry()
    gguf = ["--format", "gguf", "--size", "0.001", "--quant", "Q4_0", "--hub", hub, "--drafter"]
    assert _download(capsys, *gguf)[0] == 0
    assert _download(capsys, "--format", "mlx", "--quant", "4bit", "--hub", hub)[0] == 0
    _wipe_entries()
    with SilentHub() as dead:
        monkeypatch.setenv(ENV[hub], dead.endpoint)
        code, out, err = _download(capsys, *gguf)
        assert code == 0, err
        assert set(out) == {"target", "drafter"}
        code, out, err = _download(capsys, "--format", "mlx", "--quant", "4bit", "--hub", hub)
        assert code == 0, err
        # and with the entries complete, a second run is offline too
        code, out, err = _download(capsys, *gguf)
        assert code == 0, err
    assert dead.connections == 0


def test_queue_links_cached_files_with_the_hub_down(
    hf_endpoint: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The GUI's download queue (launch-after-download goes through it) resolves the same way."""
    reg = _registry()
    q = DownloadQueue(reg)
    q.start()
    try:
        a = q.add("tiny", "gguf", "0.001", "Q8_0")
        b = q.add("tiny", "gguf", "0.001", "Q8_0", drafter=True)
        assert q.wait_idle(30)
        assert [q.get(a.id).state, q.get(b.id).state] == ["finished", "finished"]
        _wipe_entries()
        with SilentHub() as dead:
            q2 = DownloadQueue(reg, endpoints={"huggingface": dead.endpoint})
            q2.start()
            try:
                c = q2.add("tiny", "gguf", "0.001", "Q8_0")
                d = q2.add("tiny", "gguf", "0.001", "Q8_0", drafter=True)
                assert q2.wait_idle(30)
            finally:
                q2.shutdown()
            assert q2.get(c.id).state == "finished", q2.get(c.id).error
            assert q2.get(d.id).state == "finished", q2.get(d.id).error
            assert Path(q2.get(c.id).path).read_bytes() == tiny_repo_files()["tiny-Q8_0.gguf"]
        assert dead.connections == 0
    finally:
        q.shutdown()


def test_modelscope_hub_stopped(modelscope_hub: ModelScopeHub, capsys: pytest.CaptureFixture[str]) -> None:
    """Stopping the ModelScope server itself (connection refused) changes nothing for cached files."""
    _registry()
    args = ["--format", "gguf", "--size", "0.001", "--quant", "Q4_0", "--hub", "modelscope", "--drafter"]
    code, first, err = _download(capsys, *args)
    assert code == 0, err
    modelscope_hub.stop()
    _wipe_entries()
    code, again, err = _download(capsys, *args)
    assert code == 0, err
    assert again == first
