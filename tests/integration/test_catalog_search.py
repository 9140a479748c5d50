"""Hub search and one-click add: ``tandem search`` against a loopback
Hugging Face search endpoint (``GET /api/models`` with ``search``, ``filter``, ``sort``,
``limit`` and ``Link`` pagination, files from the olah hub behind it) and against the loopback
ModelScope server's OpenAPI search; a searched repository's files grouped by quantization; the
family "Add to my models" writes, registered and downloadable."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.catalog import search
from app.core.registry import Registry
from app.devtools.hubs.huggingface import HFSearchHub, OlahHub
from app.devtools.hubs.modelscope import ModelScopeSearchHub
from app.devtools.hubs.proxies import SilentHub
from app.devtools.hubs.repos import (
    TINY_MLX_REPO,
    TINY_REPO,
    search_catalogue,
    tiny_mlx_files,
    tiny_repo_files,
)
from tests.integration.hub_servers import olah_hub as olah_hub  # a fixture


@pytest.fixture()
def hf_search(olah_hub: OlahHub, monkeypatch: pytest.MonkeyPatch) -> Iterator[HFSearchHub]:
    with HFSearchHub(search_catalogue(), upstream=olah_hub.endpoint, page_size=2) as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.endpoint)
        yield hub


@pytest.fixture()
def ms_search(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModelScopeSearchHub]:
    repos = {TINY_REPO: tiny_repo_files(), TINY_MLX_REPO: tiny_mlx_files()}
    hub = ModelScopeSearchHub(repos, search_catalogue())
    hub.start()
    monkeypatch.setenv("MODELSCOPE_ENDPOINT", hub.endpoint)
    try:
        yield hub
    finally:
        hub.stop()


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    from app.cli import main

    rc = main(list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_cli_search_filters_sorts_and_follows_link_pages(
    hf_search: HFSearchHub, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, out, _err = _cli(capsys, "search", "tandem-test", "--format", "gguf", "--limit", "3", "--json")
    assert rc == 0
    data = json.loads(out)
    # only GGUF repos whose name matches, most downloaded first, three of them
    assert [r["id"] for r in data] == [
        "tandem-test/tiny-instruct-GGUF",
        TINY_REPO,
        "tandem-test/tiny-Q8-GGUF",
    ]
    first = data[0]
    assert set(first) >= {"id", "downloads", "likes", "last_modified", "formats"}
    assert first["downloads"] == 5000 and first["likes"] == 40
    assert first["last_modified"] == "2025-06-02T08:30:00Z"
    assert first["formats"] == ["gguf"]
    # the hub answers two a page: the third came from the page its Link header named
    searches = [r for r in hf_search.server.requests if r.startswith("/api/models?")]
    assert len(searches) == 2
    assert (
        "filter=gguf" in searches[0]
        and "sort=downloads" in searches[0]
        and "search=tandem-test" in searches[0]
    )
    assert "cursor=2" in searches[1]


def test_cli_search_limit_stops_early_and_mlx_filter(
    hf_search: HFSearchHub, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, out, _ = _cli(capsys, "search", "tandem-test", "--limit", "1", "--json")
    assert rc == 0
    assert [r["id"] for r in json.loads(out)] == ["tandem-test/tiny-safetensors"]  # unfiltered, top one
    assert len([r for r in hf_search.server.requests if r.startswith("/api/models?")]) == 1
    rc, out, _ = _cli(capsys, "search", "tiny", "--format", "mlx", "--json")
    assert rc == 0
    assert [(r["id"], r["formats"]) for r in json.loads(out)] == [(TINY_MLX_REPO, ["mlx"])]


def test_cli_search_unreachable_hub_is_one_line_at_once() -> None:
    """A hub that closes every connection unanswered: one line, after one attempt (no retry loop;
    the hub counts the connections, so this holds on a machine of any speed)."""
    env_cmd = [sys.executable, "-m", "app", "search", "qwen", "--json"]
    for hub in ("huggingface", "modelscope"):
        with SilentHub() as dead:
            proc = subprocess.run(
                [*env_cmd, "--hub", hub, "--endpoint", dead.endpoint],
                capture_output=True,
                text=True,
                timeout=120,
            )
        assert proc.returncode != 0
        assert proc.stdout == ""
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1, proc.stderr
        assert f"{hub} is unreachable" in lines[0] and "your registry still works" in lines[0]
        assert dead.connections == 1, f"{hub}: {dead.connections} connections (a retry loop?)"


def test_modelscope_search_against_its_loopback_server(
    ms_search: ModelScopeSearchHub, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, out, _ = _cli(capsys, "search", "tandem-test", "--hub", "modelscope", "--format", "gguf", "--json")
    assert rc == 0
    data = json.loads(out)
    assert [r["id"] for r in data] == [
        "tandem-test/tiny-instruct-GGUF",
        TINY_REPO,
        "tandem-test/tiny-Q8-GGUF",
    ]
    assert data[1]["likes"] == 12 and data[1]["formats"] == ["gguf"]
    assert data[1]["last_modified"].startswith("2025-05-01T10:00:00")
    asked = [r for r in ms_search.server.requests if "/openapi/v1/models" in r]
    assert asked and "filter.library=gguf" in asked[0] and "sort=downloads" in asked[0]
    # pages: one result a page, the next page number until the total is reached
    page = search.search_page("modelscope", "tandem-test", "gguf", page_size=2)
    assert len(page.results) == 2 and page.next == "2"
    last = search.search_page("modelscope", "tandem-test", "gguf", page_size=2, cursor=page.next)
    assert [r.id for r in last.results] == ["tandem-test/tiny-Q8-GGUF"] and last.next is None


def test_files_grouped_by_quantization_split_parts_summed(hf_search: HFSearchHub) -> None:
    files = search.repo_listing("huggingface", TINY_REPO)
    groups = {g.quant: g for g in search.gguf_groups(files)}
    assert set(groups) == {"Q4_0", "Q8_0", "F16"}
    assert groups["F16"].size_bytes == 300_000  # two parts of 150 000 bytes
    assert groups["F16"].files[0].parts == [
        "F16/tiny-F16-00001-of-00002.gguf",
        "F16/tiny-F16-00002-of-00002.gguf",
    ]
    assert groups["Q4_0"].size_bytes == 200_000
    # the repository's file first; the drafter with the same quantization listed after it
    assert [f.name for f in groups["Q8_0"].files] == ["tiny-Q8_0.gguf", "draft/tiny-draft-Q8_0.gguf"]


def test_add_writes_a_user_family_that_downloads(hf_search: HFSearchHub, tmp_path: Path) -> None:
    from app.core import paths
    from app.core.cache import CacheManager

    registry = Registry.load()
    files = search.repo_listing("huggingface", TINY_REPO)
    data = search.family_from_repo("huggingface", TINY_REPO, files, registry)
    assert data["specs"][0]["model_file_name_template"] == "*tiny-{quantization}.gguf"
    assert set(data["specs"][0]["quantizations"]) == {"Q4_0", "Q8_0", "F16"}
    fam = search.add_to_registry(registry, data)
    written = paths.user_families_dir() / f"{fam.name}.json"
    assert (
        json.loads(written.read_text("utf-8"))["specs"][0]["sources"]["huggingface"]["model_id"] == TINY_REPO
    )
    again = Registry.load()  # what `tandem models` sees
    assert fam.name in again.families and fam.name not in again.builtin_names
    spec = again.families[fam.name].specs[0]
    mgr = CacheManager(again.families[fam.name], spec, "target", "F16", "huggingface")
    mgr.download()
    path = mgr.resolve_path()
    assert path.name == "tiny-F16-00001-of-00002.gguf" and path.is_file()
    # adding the same repository again gets a new name rather than overwriting
    assert search.family_from_repo("huggingface", TINY_REPO, files, again)["name"] == f"{fam.name}-2"


def test_add_mlx_result(hf_search: HFSearchHub) -> None:
    registry = Registry.load()
    files = search.repo_listing("huggingface", TINY_MLX_REPO)
    data = search.family_from_repo("huggingface", TINY_MLX_REPO, files, registry)
    spec = data["specs"][0]
    assert spec["format"] == "mlx" and spec["quantizations"] == ["4bit"]
    assert search.add_to_registry(registry, data).specs[0].format == "mlx"
