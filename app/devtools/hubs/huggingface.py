"""The Hugging Face side: the ``olah`` mirror serving git repositories, a search endpoint, and a
server of one file that honours ``Range`` (resumed downloads)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from app.devtools.hubs.repos import free_port, matches, wait_http
from app.devtools.processes import ends_with_parent


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
            preexec_fn=ends_with_parent(),
        )
        log.close()
        wait_http(f"{self.endpoint}/api/models/{probe_repo}/revision/main", 30, self.proc)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.proc = None


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
        found = [m for m in self.server.models if matches(m, search, filters)]
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
