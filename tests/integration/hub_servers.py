"""Real model hubs on loopback for the cache and download tests.

- ``OlahHub``: the ``olah`` Hugging Face mirror in offline mode, serving git repositories that
  :func:`build_hf_repo` writes (large files as git-LFS pointers with the object under
  ``.git/lfs/objects``, as TEST_ASSETS.md describes). Clients point ``HF_ENDPOINT`` at it.
- ``ModelScopeHub``: a small HTTP server implementing exactly the ModelScope endpoints that
  modelscope 1.40 calls for a download (file listing, acceleration probe, file bytes with Range).
- ``FlakyProxy``: a TCP proxy in front of either hub that can throttle the response stream and
  drop the connection once, which is how the tests make "the network breaks mid-file" happen.

Everything binds to 127.0.0.1 on a free port and is stopped by the fixtures that start it.
Threads are named ``tandem-test-*`` so the suite's leak check sees them.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import socket
import struct
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

LFS_THRESHOLD = 1024  # files larger than this are committed as LFS pointers


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_http(url: str, timeout: float, proc: subprocess.Popen[bytes] | None = None) -> None:
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


# --- synthetic but valid model files -------------------------------------------------------------


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
    return head + _noise(size - len(head), seed)


def _noise(n: int, seed: int) -> bytes:
    out = bytearray()
    block = hashlib.sha256(f"seed-{seed}".encode()).digest()
    while len(out) < n:
        block = hashlib.sha256(block).digest()
        out += block * 64
    return bytes(out[:n])


# --- Hugging Face side: git repositories for olah -----------------------------------------------


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


@dataclass
class OlahHub:
    """olah-cli as a subprocess; ``endpoint`` is what ``HF_ENDPOINT`` should be."""

    root: Path
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None

    @property
    def mirrors(self) -> Path:
        return self.root / "mirrors"

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, probe_repo: str) -> None:
        self.mirrors.mkdir(parents=True, exist_ok=True)
        netloc = f"127.0.0.1:{self.port}"
        cfg = self.root / "olah.toml"
        cfg.write_text(
            "[basic]\n"
            f'host = "127.0.0.1"\nport = {self.port}\n'
            f'mirror-netloc = "{netloc}"\nmirror-lfs-netloc = "{netloc}"\n'
            'hf-scheme = "http"\nhf-netloc = "127.0.0.1:9"\nhf-lfs-netloc = "127.0.0.1:9"\n'
            f"mirrors-path = [{json.dumps(str(self.mirrors))}]\n"
            f"repos-path = {json.dumps(str(self.root / 'repos'))}\n"
            "[accessibility]\noffline = true\n"
        )
        exe = Path(sys.executable).with_name("olah-cli")
        log = (self.root / "olah.out").open("wb")
        self.proc = subprocess.Popen(
            [str(exe), "-c", str(cfg), "--log-path", str(self.root / "logs")],
            cwd=self.root,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        _wait_http(f"{self.endpoint}/api/models/{probe_repo}/revision/main", 30, self.proc)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.proc = None


# --- ModelScope side -----------------------------------------------------------------------------


class _MSHandler(BaseHTTPRequestHandler):
    server: _MSServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:
        self.server.requests.append(f"{self.command} {self.path}")

    def _json(self, code: int, payload: object) -> None:
        body = json.dumps(payload).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _repo(self, parts: list[str]) -> dict[str, bytes] | None:
        # /api/v1/models/{org}/{name}/repo[/files]
        if len(parts) < 6 or parts[:3] != ["", "api", "v1"] or parts[3] != "models":
            return None
        return self.server.repos.get(f"{parts[4]}/{parts[5]}")

    def do_HEAD(self) -> None:
        self.do_GET(head=True)

    def do_GET(self, head: bool = False) -> None:
        url = urllib.parse.urlsplit(self.path)
        parts = url.path.split("/")
        query = dict(urllib.parse.parse_qsl(url.query))
        if url.path == "/api/v1/repos/internalAccelerationInfo":
            self._json(404, {"Code": 404, "Message": "not here"})
            return
        files = self._repo(parts)
        if files is None:
            self._json(404, {"Code": 10010205001, "Message": "repo not found", "Success": False})
            return
        tail = parts[6:]
        if tail == ["repo", "files"]:
            listing = [
                {
                    "Path": p,
                    "Name": p.rsplit("/", 1)[-1],
                    "Type": "blob",
                    "Size": len(d),
                    "Sha256": hashlib.sha256(d).hexdigest(),
                    "Revision": "master",
                }
                for p, d in sorted(files.items())
            ]
            self._json(200, {"Code": 200, "Success": True, "Data": {"Files": listing}})
            return
        if tail == [] or tail == [""]:
            self._json(200, {"Code": 200, "Success": True, "Data": {"Id": 1, "Name": parts[5]}})
            return
        if tail == ["repo"] and "FilePath" in query:
            data = files.get(query["FilePath"])
            if data is None:
                self._json(404, {"Code": 404, "Message": "file not found", "Success": False})
                return
            start, end = 0, len(data) - 1
            rng = self.headers.get("Range")
            status = 200
            if rng and rng.startswith("bytes="):
                self.server.requests.append(f"RANGE {query['FilePath']} {rng}")
                a, _, b = rng[6:].partition("-")
                start = int(a) if a else 0
                end = int(b) if b else len(data) - 1
                status = 206
            chunk = data[start : end + 1]
            self.send_response(status)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(len(chunk)))
            if status == 206:
                self.send_header("Content-Range", f"bytes {start}-{end}/{len(data)}")
            self.end_headers()
            if not head:
                self.wfile.write(chunk)
            return
        self._json(404, {"Code": 404, "Message": f"unhandled {url.path}", "Success": False})


class _MSServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, repos: dict[str, dict[str, bytes]]) -> None:
        super().__init__(("127.0.0.1", 0), _MSHandler)
        self.repos = repos
        self.requests: list[str] = []


class ModelScopeHub:
    """A loopback ModelScope serving in-memory repos: ``{"org/name": {"path": bytes}}``."""

    def __init__(self, repos: dict[str, dict[str, bytes]]) -> None:
        self.server = _MSServer(repos)
        self.thread = threading.Thread(target=self.server.serve_forever, name="tandem-test-modelscope")

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)


# --- a proxy that throttles and drops ------------------------------------------------------------


class FlakyProxy:
    """TCP proxy to ``127.0.0.1:target``.

    ``rate`` limits server-to-client bytes per second (0 = unlimited). ``drop_after``: once the
    server has sent that many bytes on one connection, that connection is cut (once per proxy
    lifetime), which a client sees as a dropped connection mid-body.
    """

    def __init__(self, target: int, rate: int = 0, drop_after: int = 0) -> None:
        self.target = target
        self.rate = rate
        self.drop_after = drop_after
        self.dropped = 0
        self._lock = threading.Lock()
        self._sock = socket.socket()
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(16)
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._conns: list[socket.socket] = []
        self._accept = threading.Thread(target=self._serve, name="tandem-test-proxy")

    @property
    def port(self) -> int:
        return int(self._sock.getsockname()[1])

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self._accept.start()

    def _serve(self) -> None:
        self._sock.settimeout(0.2)
        while not self._stop.is_set():
            try:
                client, _ = self._sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.target))
            with self._lock:
                self._conns += [client, upstream]
            for src, dst, down in ((client, upstream, False), (upstream, client, True)):
                t = threading.Thread(target=self._pipe, args=(src, dst, down), name="tandem-test-proxy-pipe")
                self._threads.append(t)
                t.start()

    def _pipe(self, src: socket.socket, dst: socket.socket, down: bool) -> None:
        sent = 0
        src.settimeout(0.2)
        try:
            while not self._stop.is_set():
                try:
                    data = src.recv(16384)
                except TimeoutError:
                    continue
                if not data:
                    break
                if down and self.drop_after:
                    with self._lock:
                        drop = not self.dropped and sent + len(data) > self.drop_after
                        if drop:
                            self.dropped += 1
                    if drop:
                        dst.sendall(data[: max(self.drop_after - sent, 0)])
                        break
                dst.sendall(data)
                sent += len(data)
                if down and self.rate:
                    time.sleep(len(data) / self.rate)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()

    def stop(self) -> None:
        self._stop.set()
        self._accept.join(5)
        self._sock.close()
        for t in self._threads:
            t.join(5)


class SilentHub:
    """A port that accepts connections, counts them and closes them at once.

    Pointing a hub endpoint here proves "no network": any request fails (the connection is
    closed without an answer) and is counted, so a test can assert ``connections == 0``.
    """

    def __init__(self) -> None:
        self.connections = 0
        self._sock = socket.socket()
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(16)
        self._sock.settimeout(0.1)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="tandem-test-silent-hub")

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self._sock.getsockname()[1]}"

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self.connections += 1
            conn.close()

    def __enter__(self) -> SilentHub:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join(5)
        self._sock.close()


class CountingProxy(FlakyProxy):
    """A plain proxy to ``127.0.0.1:target`` that counts the connections it forwarded and keeps
    the start of what clients sent (request lines and headers) in ``sent``."""

    def __init__(self, target: int) -> None:
        super().__init__(target)
        self.connections = 0
        self.sent = bytearray()

    def _pipe(self, src: socket.socket, dst: socket.socket, down: bool) -> None:
        if down:
            super()._pipe(src, dst, down)
            return
        with self._lock:
            self.connections += 1
        super()._pipe(_Recording(src, self), dst, down)


class _RangeHandler(BaseHTTPRequestHandler):
    server: _RangeServer
    protocol_version = "HTTP/1.1"
    timeout = 5  # an idle kept-alive connection ends, so closing the server joins its thread

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_HEAD(self) -> None:
        self._relay(head=True)

    def do_GET(self) -> None:
        self._relay(head=False)

    def _relay(self, head: bool) -> None:
        fwd = {k: v for k, v in self.headers.items() if k.lower() in ("accept", "authorization")}
        req = urllib.request.Request(self.server.upstream + self.path, headers=fwd, method=self.command)
        try:
            with urllib.request.build_opener(_NoRedirect).open(req, timeout=30) as resp:
                body, code, hdrs = resp.read(), resp.status, resp.headers
        except urllib.error.HTTPError as exc:
            body, code, hdrs = exc.read(), exc.code, exc.headers
        drop = ("content-length", "transfer-encoding", "connection")
        out = {k: v for k, v in hdrs.items() if k.lower() not in drop}
        length = int(hdrs.get("Content-Length") or len(body))
        first, last = 0, length - 1
        asked = self.headers.get("Range", "")
        m = re.fullmatch(r"bytes=(\d+)-(\d*)", asked.strip())
        if code == 200 and m and not head:
            first = int(m.group(1))
            last = min(int(m.group(2)), length - 1) if m.group(2) else length - 1
            if first >= length:
                self.send_response(416)
                self.send_header("Content-Range", f"bytes */{length}")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            code = 206
            out["Content-Range"] = f"bytes {first}-{last}/{length}"
            body = body[first : last + 1]
        self.send_response(code)
        for k, v in out.items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(length if head else len(body)))
        self.send_header("Connection", "close")
        self.close_connection = True
        self.end_headers()
        if head:
            return
        step, sent = 64 * 1024, 0
        try:
            for i in range(0, len(body), step):
                if self.server.stopping.is_set():
                    return
                self.wfile.write(body[i : i + step])
                sent += len(body[i : i + step])
                if self.server.rate:
                    time.sleep(step / self.server.rate)
        except OSError:
            pass  # the client went away (a cancel): what was written so far is what it got
        finally:
            if "/resolve/" in self.path and code in (200, 206):
                with self.server.lock:
                    self.server.served.append((self.path, first, first + sent))


class _RangeServer(ThreadingHTTPServer):
    daemon_threads = False  # server_close joins the handlers

    def __init__(self, upstream: str, rate: int) -> None:
        super().__init__(("127.0.0.1", 0), _RangeHandler)
        self.upstream = upstream
        self.rate = rate
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.served: list[tuple[str, int, int]] = []


class RangeHub:
    """A Hugging Face-compatible front for olah that answers ``Range`` requests with 206 (olah's
    offline mirror sends whole files) and logs the byte range of every file body it served
    (``served``: path, first byte, end). ``rate`` throttles bodies (bytes/s, 0 = unlimited)."""

    def __init__(self, upstream: str, rate: int = 0) -> None:
        self.server = _RangeServer(upstream, rate)
        self._thread = threading.Thread(
            target=self.server.serve_forever, args=(0.1,), name="tandem-test-range-hub"
        )

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    @property
    def served(self) -> list[tuple[str, int, int]]:
        with self.server.lock:
            return list(self.server.served)

    def bytes_served(self) -> int:
        return sum(end - first for _p, first, end in self.served)

    def __enter__(self) -> RangeHub:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.server.stopping.set()
        self.server.shutdown()
        self._thread.join(5)
        self.server.server_close()


class _Recording:
    """A client socket whose received bytes are also appended to the proxy's ``sent``."""

    def __init__(self, sock: socket.socket, proxy: CountingProxy) -> None:
        self._sock = sock
        self._proxy = proxy

    def recv(self, n: int) -> bytes:
        data = self._sock.recv(n)
        with self._proxy._lock:
            if len(self._proxy.sent) < 1_000_000:
                self._proxy.sent += data
        return data

    def __getattr__(self, name: str) -> object:
        return getattr(self._sock, name)


# --- fixtures ------------------------------------------------------------------------------------

TINY_REPO = "tandem-test/tiny-GGUF"
TINY_MLX_REPO = "tandem-test/tiny-mlx-4bit"
BIG_REPO = "tandem-test/big-GGUF"
VISION_REPO = "tandem-test/vision-GGUF"  # a vision target with its mmproj projectors (issue 26)
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
        "model.safetensors": _noise(120_000, 7),
    }


def sharded_mlx_files(index: bool = False) -> dict[str, bytes]:
    """An mlx snapshot whose weights are four ``model-0000k-of-00004.safetensors`` shards."""
    shards = {f"model-{k:05d}-of-00004.safetensors": _noise(5_000, 20 + k) for k in range(1, 5)}
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


# --- hub search (issue 10) -------------------------------------------------------------------------


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


def _matches(model: dict[str, object], search: str, filters: list[str]) -> bool:
    if search and search.lower() not in str(model["id"]).lower():
        return False
    words = {str(t) for t in model.get("tags", [])} | {str(model.get("library_name", ""))}  # type: ignore[attr-defined]
    return all(f in words for f in filters)


class _HFSearchHandler(BaseHTTPRequestHandler):
    server: _HFSearchServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:
        pass

    def _send(self, code: int, body: bytes, headers: dict[str, str]) -> None:
        self.send_response(code)
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        url = urllib.parse.urlsplit(self.path)
        self.server.requests.append(self.path)
        if url.path != "/api/models":
            self._proxy()
            return
        q = urllib.parse.parse_qs(url.query)
        search = q.get("search", [""])[0]
        filters = q.get("filter", [])
        sort = q.get("sort", [""])[0]
        direction = q.get("direction", ["1"])[0]
        limit = int(q.get("limit", ["1000"])[0])
        offset = int(q.get("cursor", ["0"])[0])
        found = [m for m in self.server.models if _matches(m, search, filters)]
        if sort:
            found.sort(key=lambda m: m.get(sort, 0), reverse=direction == "-1")  # type: ignore[arg-type,return-value]
        size = min(limit, self.server.page_size)
        page = found[offset : offset + size]
        headers = {"Content-Type": "application/json"}
        if offset + size < len(found):
            params = [(k, v) for k, vs in q.items() if k != "cursor" for v in vs]
            params.append(("cursor", str(offset + size)))
            nxt = f"http://{self.headers['Host']}/api/models?{urllib.parse.urlencode(params)}"
            headers["Link"] = f'<{nxt}>; rel="next"'
        expand = q.get("expand")
        if expand:  # like the real hub: only the expanded fields (and the id)
            page = [{k: v for k, v in m.items() if k == "id" or k in expand} for m in page]
        self._send(200, json.dumps(page).encode(), headers)

    def do_HEAD(self) -> None:
        self.server.requests.append(f"HEAD {self.path}")
        self._proxy(head=True)

    def _proxy(self, head: bool = False) -> None:
        if not self.server.upstream:
            self._send(404, b'{"error": "not found"}', {"Content-Type": "application/json"})
            return
        fwd = {k: v for k, v in self.headers.items() if k.lower() in ("range", "accept", "authorization")}
        req = urllib.request.Request(self.server.upstream + self.path, headers=fwd, method=self.command)
        opener = urllib.request.build_opener(_NoRedirect)
        try:
            with opener.open(req, timeout=30) as resp:
                body, code, hdrs = resp.read(), resp.status, resp.headers
        except urllib.error.HTTPError as exc:
            body, code, hdrs = exc.read(), exc.code, exc.headers
        drop = ("content-length", "transfer-encoding", "connection")
        keep = {k: v for k, v in hdrs.items() if k.lower() not in drop}
        if head:
            self.send_response(code)
            for k, v in hdrs.items():
                if k.lower() not in ("transfer-encoding", "connection"):
                    self.send_header(k, v)
            self.end_headers()
            return
        self._send(code, body, keep)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Relay redirects to the client as they are (it follows them itself)."""

    def redirect_request(self, *_args: object, **_kwargs: object) -> None:
        return None


class _HFSearchServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, models: list[dict[str, object]], upstream: str | None, page_size: int) -> None:
        super().__init__(("127.0.0.1", 0), _HFSearchHandler)
        self.models = models
        self.upstream = upstream
        self.page_size = page_size
        self.requests: list[str] = []


class HFSearchHub:
    """Hugging Face's search endpoint on loopback: ``GET /api/models`` with ``search``,
    ``filter`` (tags / library, all must match), ``sort`` + ``direction``, ``limit`` and
    ``expand``, answering at most ``page_size`` models a page with a ``Link: <...>; rel="next"``
    header like the real hub. Every other request is forwarded to ``upstream`` (the olah hub
    serving the repositories' files), so one ``HF_ENDPOINT`` serves search and files."""

    def __init__(
        self, models: list[dict[str, object]], upstream: str | None = None, page_size: int = 2
    ) -> None:
        self.server = _HFSearchServer(models, upstream, page_size)
        self.thread = threading.Thread(target=self.server.serve_forever, name="tandem-test-hf-search")

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> HFSearchHub:
        self.thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)


class _MSSearchHandler(_MSHandler):
    server: _MSSearchServer

    def do_GET(self, head: bool = False) -> None:
        url = urllib.parse.urlsplit(self.path)
        if url.path != "/openapi/v1/models":
            super().do_GET(head)
            return
        self.server.requests.append(f"{self.command} {self.path}")
        q = dict(urllib.parse.parse_qsl(url.query))
        filters = [v for k, v in q.items() if k.startswith("filter.")]
        found = [m for m in self.server.models if _matches(m, q.get("search", ""), filters)]
        if q.get("sort") == "downloads":
            found.sort(key=lambda m: m["downloads"], reverse=True)  # type: ignore[arg-type,return-value]
        number, size = int(q.get("page_number", "1")), int(q.get("page_size", "10"))
        page = found[(number - 1) * size : number * size]
        models = [
            {"id": m["id"], "downloads": m["downloads"], "likes": m["likes"],
             "last_modified": m["lastModified"], "tags": m.get("tags", [])}
            for m in page
        ]  # fmt: skip
        data = {"models": models, "total_count": len(found), "page_number": number, "page_size": size}
        self._json(200, {"success": True, "data": data})


class _MSSearchServer(_MSServer):
    def __init__(self, repos: dict[str, dict[str, bytes]], models: list[dict[str, object]]) -> None:
        ThreadingHTTPServer.__init__(self, ("127.0.0.1", 0), _MSSearchHandler)
        self.repos = repos
        self.models = models
        self.requests = []


class ModelScopeSearchHub(ModelScopeHub):
    """The loopback ModelScope plus the OpenAPI search ``GET /openapi/v1/models`` (``search``,
    ``sort=downloads``, ``filter.library``, ``page_number`` / ``page_size``, ``total_count``)."""

    def __init__(self, repos: dict[str, dict[str, bytes]], models: list[dict[str, object]]) -> None:
        self.server = _MSSearchServer(repos, models)
        self.thread = threading.Thread(target=self.server.serve_forever, name="tandem-test-modelscope")
