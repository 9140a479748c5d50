"""What the loopback hubs serve: synthetic but valid model files, the test repositories and the
family that names them, and the models the search endpoints know."""

from __future__ import annotations

import hashlib
import json
import os
import socket
import struct
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from app.core.registry import Family, parse_family

LFS_THRESHOLD = 1024  # files larger than this are committed as LFS pointers


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_http(url: str, timeout: float, proc: subprocess.Popen[bytes] | None = None) -> None:
    deadline = time.monotonic() + timeout
    last: Exception | None = None
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"hub process exited with {proc.returncode} before answering {url}")
        try:
            with urllib.request.urlopen(url, timeout=2) as resp:
                if resp.status == 200:
                    return
        except Exception as exc:  # not up yet
            last = exc
        time.sleep(0.1)
    raise RuntimeError(f"{url} did not answer within {timeout}s: {last}")


def tiny_gguf(size: int, seed: int = 0) -> bytes:
    """A valid GGUF v3 header (no tensors, one metadata key) padded to ``size`` bytes.

    Readers that check the magic and version accept it; the padding is deterministic noise so
    different seeds give different sha256 sums.
    """
    key = b"general.name"
    val = f"tandem-test-{seed}".encode()
    head = b"GGUF" + struct.pack("<IQQ", 3, 0, 1)
    head += struct.pack("<Q", len(key)) + key + struct.pack("<I", 8) + struct.pack("<Q", len(val)) + val
    if size < len(head):
        raise ValueError("size too small for a gguf header")
    return head + noise(size - len(head), seed)


def noise(n: int, seed: int) -> bytes:
    out = bytearray()
    block = hashlib.sha256(f"seed-{seed}".encode()).digest()
    while len(out) < n:
        block = hashlib.sha256(block).digest()
        out += block * 64
    return bytes(out[:n])


def build_hf_repo(mirrors: Path, repo_id: str, files: dict[str, bytes | Path]) -> Path:
    """Write ``repo_id`` under ``mirrors/models`` as a git repo; big files become LFS pointers."""
    repo = mirrors / "models" / repo_id
    repo.mkdir(parents=True)
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=repo, check=True, env=env)
    for name, content in files.items():
        data = content.read_bytes() if isinstance(content, Path) else content
        dest = repo / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        if len(data) > LFS_THRESHOLD:
            sha = hashlib.sha256(data).hexdigest()
            obj = repo / ".git" / "lfs" / "objects" / sha[:2] / sha[2:4] / sha
            obj.parent.mkdir(parents=True, exist_ok=True)
            obj.write_bytes(data)
            dest.write_text(
                f"version https://git-lfs.github.com/spec/v1\noid sha256:{sha}\nsize {len(data)}\n"
            )
        else:
            dest.write_bytes(data)
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True, env=env)
    subprocess.run(
        ["git", "-c", "user.email=t@t", "-c", "user.name=tandem-test", "commit", "-qm", "init"],
        cwd=repo,
        check=True,
        env=env,
    )
    return repo


TINY_REPO = "tandem-test/tiny-GGUF"


TINY_MLX_REPO = "tandem-test/tiny-mlx-4bit"


BIG_REPO = "tandem-test/big-GGUF"


VISION_REPO = "tandem-test/vision-GGUF"  # a vision target with its mmproj projectors


BIG_VISION_REPO = "tandem-test/big-vision-GGUF"  # a projector large enough to cancel mid-file


SHARDED_MLX_REPO = "tandem-test/sharded-mlx-4bit"  # no index: the shard names tell the series


INDEXED_MLX_REPO = "tandem-test/indexed-mlx-4bit"  # shards named by model.safetensors.index.json


def tiny_repo_files() -> dict[str, bytes]:
    """A gguf repo with two target quantizations, a split quantization, and drafters."""
    return {
        "README.md": b"# tiny test model\n",
        "tiny-Q4_0.gguf": tiny_gguf(200_000, 1),
        "tiny-Q8_0.gguf": tiny_gguf(300_000, 2),
        "F16/tiny-F16-00001-of-00002.gguf": tiny_gguf(150_000, 3),
        "F16/tiny-F16-00002-of-00002.gguf": tiny_gguf(150_000, 4),
        "draft/tiny-draft-Q8_0.gguf": tiny_gguf(50_000, 5),
        "draft/tiny-draft-F16.gguf": tiny_gguf(80_000, 6),
    }


def tiny_mlx_files() -> dict[str, bytes]:
    return {
        "config.json": json.dumps({"model_type": "llama", "vocab_size": 32}).encode(),
        "tokenizer.json": b'{"version": "1.0"}',
        "model.safetensors": noise(120_000, 7),
    }


def sharded_mlx_files(index: bool = False) -> dict[str, bytes]:
    """An mlx snapshot whose weights are four ``model-0000k-of-00004.safetensors`` shards."""
    shards = {f"model-{k:05d}-of-00004.safetensors": noise(5_000, 20 + k) for k in range(1, 5)}
    files = {
        "config.json": json.dumps({"model_type": "llama", "vocab_size": 32}).encode(),
        "tokenizer.json": b'{"version": "1.0"}',
        "tokenizer_config.json": b"{}",
        **shards,
    }
    if index:
        weight_map = {f"layers.{k}.weight": name for k, name in enumerate(sorted(shards))}
        files["model.safetensors.index.json"] = json.dumps({"weight_map": weight_map}).encode()
    return files


def vision_repo_files() -> dict[str, bytes]:
    """Two target quantizations and the projector in two precisions, named as Unsloth names them."""
    return {
        "README.md": b"# tiny vision test model\n",
        "vision-Q4_0.gguf": tiny_gguf(200_000, 30),
        "vision-Q8_0.gguf": tiny_gguf(300_000, 31),
        "mmproj-F16.gguf": tiny_gguf(60_000, 32),
        "mmproj-BF16.gguf": tiny_gguf(70_000, 33),
    }


def big_vision_repo_files() -> dict[str, bytes]:
    """A small target and a projector big enough that a throttled transfer takes seconds."""
    return {"bigv-Q4_0.gguf": tiny_gguf(500_000, 34), "mmproj-F16.gguf": tiny_gguf(4_000_000, 35)}


def big_repo_files() -> dict[str, bytes]:
    """One file large enough that a throttled transfer takes a few seconds."""
    return {"big-Q4_0.gguf": tiny_gguf(6_000_000, 8), "draft-Q8_0.gguf": tiny_gguf(20_000, 9)}


def search_catalogue() -> list[dict[str, object]]:
    """Models the loopback search endpoints know (Hugging Face field names)."""
    return [
        {"id": TINY_REPO, "downloads": 900, "likes": 12, "lastModified": "2025-05-01T10:00:00.000Z",
         "tags": ["gguf", "llama"], "library_name": "gguf"},
        {"id": "tandem-test/tiny-instruct-GGUF", "downloads": 5000, "likes": 40,
         "lastModified": "2025-06-02T08:30:00.000Z", "tags": ["gguf"], "library_name": "gguf"},
        {"id": "tandem-test/tiny-Q8-GGUF", "downloads": 20, "likes": 1,
         "lastModified": "2024-01-01T00:00:00.000Z", "tags": ["gguf"], "library_name": "gguf"},
        {"id": TINY_MLX_REPO, "downloads": 700, "likes": 9, "lastModified": "2025-03-03T03:03:03.000Z",
         "tags": ["mlx", "safetensors"], "library_name": "mlx"},
        {"id": "tandem-test/tiny-safetensors", "downloads": 10000, "likes": 100,
         "lastModified": "2025-07-07T07:07:07.000Z", "tags": ["safetensors"], "library_name": "transformers"},
        {"id": "other-org/unrelated-GGUF", "downloads": 99999, "likes": 999,
         "lastModified": "2025-01-01T00:00:00.000Z", "tags": ["gguf"], "library_name": "gguf"},
    ]  # fmt: skip


def matches(model: dict[str, object], search: str, filters: list[str]) -> bool:
    if search and search.lower() not in str(model["id"]).lower():
        return False
    words = {str(t) for t in model.get("tags", [])} | {str(model.get("library_name", ""))}  # type: ignore[attr-defined]
    return all(f in words for f in filters)


def tiny_family(repo: str = TINY_REPO, mlx_repo: str = TINY_MLX_REPO) -> Family:
    return parse_family(
        {
            "name": "tiny",
            "specs": [
                {
                    "format": "gguf",
                    "size_in_billions": 0.001,
                    "quantizations": ["Q4_0", "Q8_0", "F16"],
                    "sources": {
                        "huggingface": {
                            "model_id": repo,
                            "model_file_name_template": "tiny-{quantization}.gguf",
                            "draft_model_file_name_template": "draft/tiny-draft-{draft_quantization}.gguf",
                            "draft_quantizations": ["Q8_0", "F16"],
                        },
                        "modelscope": {
                            "model_id": repo,
                            "model_file_name_template": "tiny-{quantization}.gguf",
                            "draft_model_file_name_template": "draft/tiny-draft-{draft_quantization}.gguf",
                            "draft_quantizations": ["Q8_0", "F16"],
                        },
                    },
                },
                {
                    "format": "mlx",
                    "size_in_billions": 0.001,
                    "quantizations": ["4bit"],
                    "sources": {
                        "huggingface": {"model_id": "tandem-test/tiny-mlx-{quantization}"},
                        "modelscope": {"model_id": "tandem-test/tiny-mlx-{quantization}"},
                    },
                },
            ],
        }
    )


def split_family() -> Family:
    """The F16 quantization is split; its template carries {part}."""
    data = tiny_family().model_dump(mode="json", exclude_none=True)
    gguf = data["specs"][0]
    gguf["quantizations"] = ["F16"]  # every quantization of a split spec lists its parts
    gguf["quantization_parts"] = {"F16": ["00001", "00002"]}
    for hub in ("huggingface", "modelscope"):
        gguf["sources"][hub]["model_file_name_template"] = "F16/tiny-{quantization}-{part}-of-00002.gguf"
    return parse_family(data)
