"""The ModelScope side: exactly the endpoints modelscope calls for a download (file listing,
acceleration probe, file bytes with ``Range``), and its search."""

from __future__ import annotations

import hashlib
import json
import threading
import urllib.error
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from app.devtools.hubs.repos import matches


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
        found = [m for m in self.server.models if matches(m, q.get("search", ""), filters)]
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
