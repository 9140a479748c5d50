"""Networks that misbehave: a TCP proxy that throttles and drops a connection once, one that counts
what a client sent, and a hub that accepts connections and never answers."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from typing import Protocol


class Source(Protocol):
    """What the proxy reads from: a socket, or a socket that records what it read."""

    def settimeout(self, value: float | None, /) -> None: ...
    def recv(self, n: int, /) -> bytes: ...
    def shutdown(self, how: int, /) -> None: ...
    def close(self) -> None: ...


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

    def _pipe(self, src: Source, dst: socket.socket, down: bool) -> None:
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

    def _pipe(self, src: Source, dst: socket.socket, down: bool) -> None:
        if down:
            super()._pipe(src, dst, down)
            return
        with self._lock:
            self.connections += 1
        super()._pipe(_Recording(src, self), dst, down)


class _Recording:
    """A client socket whose received bytes are also appended to the proxy's ``sent``."""

    def __init__(self, sock: Source, proxy: CountingProxy) -> None:
        self._sock = sock
        self._proxy = proxy

    def recv(self, n: int) -> bytes:
        data = self._sock.recv(n)
        with self._proxy._lock:
            if len(self._proxy.sent) < 1_000_000:
                self._proxy.sent += data
        return data

    def settimeout(self, value: float | None) -> None:
        self._sock.settimeout(value)

    def shutdown(self, how: int) -> None:
        self._sock.shutdown(how)

    def close(self) -> None:
        self._sock.close()
