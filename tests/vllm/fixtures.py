"""Fixtures of the ``vllm`` tier: real vLLM servers on loopback.

Registered once in ``tests/conftest.py`` (so that the tier's tests under ``tests/vllm`` and the GUI
ones under ``tests/gui`` share the same session-wide servers).

Left out of a plain ``pytest`` run by the ``vllm`` marker (like ``packaging``); run it with
``python -m pytest -m vllm tests/vllm``. The first run builds a venv with vLLM beside the test
assets (see :mod:`tests.vllm.harness`, a few minutes); a tier whose venv cannot be built is skipped
with the reason, unless ``TANDEM_REQUIRE_VLLM=1`` (CI), which makes it an error.

The servers are session-wide (each is slow to start and takes gigabytes of memory) and
started together: plain, ngram, and suffix when arctic-inference built. Tests that break a server
(killing it mid-answer) start their own.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.devtools import vllm_servers as harness

NGRAM = {"method": "ngram", "num_speculative_tokens": 4, "prompt_lookup_max": 4}
SUFFIX = {"method": "suffix", "num_speculative_tokens": 8}


def _unavailable(reason: str) -> None:
    if os.environ.get("TANDEM_REQUIRE_VLLM") == "1":
        pytest.fail(f"vLLM tier required (TANDEM_REQUIRE_VLLM=1) but unavailable: {reason}", pytrace=False)
    pytest.skip(f"vLLM tier unavailable: {reason}")


@pytest.fixture(scope="session")
def vllm_env() -> harness.VLLMEnv:
    try:
        return harness.ensure_env()
    except (harness.VLLMUnavailable, OSError) as exc:
        _unavailable(str(exc))
        raise  # not reached


@pytest.fixture(scope="session")
def arctic_python(vllm_env: harness.VLLMEnv) -> Path:
    """An interpreter where ``arctic_inference.suffix_decoding`` imports (the reference)."""
    given = os.environ.get("TANDEM_ARCTIC_PYTHON")
    if given:
        return Path(given)
    if not vllm_env.has_arctic:
        _unavailable(f"arctic-inference did not build (see {harness.base_dir() / 'setup.log'})")
    return vllm_env.python


@pytest.fixture(scope="session")
def vllm_model(vllm_env: harness.VLLMEnv, smollm2_f32: Path) -> Path:
    try:
        return harness.ensure_model(vllm_env, smollm2_f32)
    except (harness.VLLMUnavailable, OSError) as exc:
        _unavailable(f"model conversion failed: {exc}")
        raise


@pytest.fixture(scope="session")
def vllm_home() -> Iterator[Path]:
    """HOME and caches of the servers (nothing lands in the real home); removed at the end."""
    home = Path(tempfile.mkdtemp(prefix="tandem-vllm-home-"))
    yield home
    shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="session")
def vllm_servers(
    vllm_env: harness.VLLMEnv, vllm_model: Path, vllm_home: Path
) -> Iterator[dict[str, harness.VLLMServer]]:
    """``{"plain", "ngram"[, "suffix"]}`` servers of the converted SmolLM2, started together."""
    served = ["--served-model-name", "smollm2"]
    # name: (speculative config, extra flags, development routes)
    wanted: dict[str, tuple[dict[str, object] | None, list[str], bool]] = {
        "plain": (None, served, False),
        "ngram": (NGRAM, served, False),  # figures from /metrics, method unnamed
    }
    if vllm_env.has_arctic:  # per-request figures, method named by /server_info
        wanted["suffix"] = (SUFFIX, [*served, "--per-request-spec-decode-metrics", "detailed"], True)
    servers: dict[str, harness.VLLMServer] = {}
    try:
        for name, (config, extra, dev) in wanted.items():
            servers[name] = harness.start_server(
                vllm_env, vllm_model, name, vllm_home / "logs", config, extra, vllm_home, dev_mode=dev
            )
        for server in servers.values():
            try:
                server.wait_ready()
            except harness.VLLMUnavailable as exc:
                _unavailable(str(exc))
        yield servers
    finally:
        for server in servers.values():
            server.stop()
