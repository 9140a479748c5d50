"""Verify a remote server's drafter: greedy parity of a server against a baseline server.

A server's speculative config is fixed when it starts, so the spec-off side of the parity check is
a second server of the same model without a drafter (the *baseline*), as in
``tandem parity --engine remote --endpoint URL --baseline-endpoint URL2``. :func:`verify` runs
:func:`app.core.measure.bench.parity` one prompt at a time (a handful of built-in prompts of
different kinds, greedy, :data:`MAX_TOKENS` tokens) so the caller sees progress and a cancel stops
it between prompts and inside an answer (the :class:`CancelToken` reaches each request).

It also keeps what each side said about drafting (:class:`SideFigures`, from the servers'
:class:`~app.core.engines.remote.engine.RemoteFinished`): an endpoint that reports no drafted tokens
is not being verified at all, and a baseline that drafts is not a baseline.

Blocking (HTTP requests): the GUI runs it on an ops worker.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field

from app.core.cancel import CancelToken
from app.core.engines.base import Engine, EngineError, Event, GenerateRequest
from app.core.engines.remote.endpoints import Endpoint, get_api_key
from app.core.engines.remote.engine import RemoteEngine, RemoteFinished, RemoteLoadRequest
from app.core.measure.bench import ParityResult, parity

#: tokens per answer: enough to pass a few drafting rounds, short enough for a slow server
MAX_TOKENS = 64

#: (kind, prompt): prose, code, a Chinese prompt, a list, arithmetic. The kind is a key the GUI
#: translates; the prompts themselves are sent as they are.
PROMPTS: tuple[tuple[str, str], ...] = (
    ("prose", "Write two sentences about a lighthouse keeper who finds a message in a bottle."),
    ("code", "Write a Python function that returns the n-th Fibonacci number, with a docstring."),
    ("chinese", "用三句话介绍一下长城的历史。"),
    ("list", "List the first ten planets and dwarf planets of the solar system, one per line."),
    ("arithmetic", "What is 17 times 23? Show the steps."),
)

EXACT, TOP_K_MATCH, FAIL = "EXACT", "TOP_K_MATCH", "FAIL"


class VerifyCancelled(Exception):
    """The user stopped the check."""


class SideError(EngineError):
    """An engine error of one side: ``side`` is "endpoint" (the drafter) or "baseline"; the message
    and hint are the engine's own one line (which names the server's URL)."""

    def __init__(self, side: str, cause: EngineError) -> None:
        super().__init__(str(cause), cause.hint)
        self.side = side
        self.cause = cause


@dataclass
class SideFigures:
    """What one side's server reported about drafting over all its answers."""

    answers: int = 0
    drafted: int | None = None
    accepted: int | None = None
    source: str = ""
    note: str = ""

    def add(self, fin: RemoteFinished) -> None:
        self.answers += 1
        self.source = self.source or fin.acceptance_source
        self.note = self.note or fin.acceptance_note
        if fin.drafted is not None:
            self.drafted = (self.drafted or 0) + fin.drafted
        if fin.accepted is not None:
            self.accepted = (self.accepted or 0) + fin.accepted

    @property
    def reported(self) -> bool:
        return self.drafted is not None or self.accepted is not None

    @property
    def drafting(self) -> bool:
        """The server said it drafted (any drafted or accepted token)."""
        return bool(self.drafted or self.accepted)


@dataclass
class VerifyRow:
    kind: str
    result: ParityResult


@dataclass
class VerifyReport:
    endpoint: str
    baseline: str
    model: str
    max_tokens: int
    rows: list[VerifyRow] = field(default_factory=list)
    #: the endpoint's (spec-on) and the baseline's (spec-off) drafting figures
    on: SideFigures = field(default_factory=SideFigures)
    off: SideFigures = field(default_factory=SideFigures)

    @property
    def verdict(self) -> str:
        """EXACT when every prompt matched, TOP_K_MATCH when none failed, else FAIL."""
        verdicts = {r.result.verdict for r in self.rows}
        if FAIL in verdicts or not self.rows:
            return FAIL
        return TOP_K_MATCH if TOP_K_MATCH in verdicts else EXACT

    def count(self, verdict: str) -> int:
        return sum(1 for r in self.rows if r.result.verdict == verdict)


class _Side:
    """A connected server for one side of :func:`parity`: each request carries the check's cancel
    token, and each answer's :class:`RemoteFinished` is added to the side's figures."""

    name = "remote"

    def __init__(self, side: str, engine: RemoteEngine, cancel: CancelToken, figures: SideFigures) -> None:
        self._side = side
        self._engine = engine
        self._cancel = cancel
        self._figures = figures

    @property
    def model_path(self) -> str:
        return self._engine.model_path

    @property
    def spec_kind(self) -> str | None:
        return self._engine.spec_kind

    @property
    def supports_tools(self) -> bool:
        return self._engine.supports_tools

    @property
    def supports_images(self) -> bool:
        return self._engine.supports_images

    @property
    def candidates_with_speculation(self) -> bool:
        return self._engine.candidates_with_speculation

    @property
    def supports_structured_output(self) -> bool:
        return self._engine.supports_structured_output

    async def stream(self, request: GenerateRequest) -> AsyncIterator[Event]:
        """The server's events; the check's cancel stops the request at its next event (closing
        the connection)."""
        if self._cancel.cancelled:
            raise VerifyCancelled()
        try:
            async for event in self._engine.stream(request):
                if self._cancel.cancelled:
                    raise VerifyCancelled()
                if isinstance(event, RemoteFinished):
                    self._figures.add(event)
                yield event
        except EngineError as exc:
            if self._cancel.cancelled:
                raise VerifyCancelled() from exc
            raise SideError(self._side, exc) from exc
        if self._cancel.cancelled:
            raise VerifyCancelled()

    def close(self) -> None:
        self._engine.close()


@dataclass(frozen=True)
class Servers:
    """The two servers of a check: ``endpoint`` runs the drafter, ``baseline`` the same model without."""

    endpoint: Endpoint
    baseline: Endpoint
    model: str = ""
    api_key: str | None = field(default=None, repr=False)
    baseline_key: str | None = field(default=None, repr=False)
    timeout_s: float = 120.0


def servers_with_keys(endpoint: Endpoint, baseline: Endpoint, model: str, typed_key: str = "") -> Servers:
    """The two servers with their API keys: the endpoint's typed key or its keyring entry; the
    baseline's own keyring entry, else the endpoint's key when both run on the same host (a key is
    never sent to another machine than the one it was given for). Blocking (the keyring)."""
    key = typed_key.strip() or get_api_key(endpoint.url)
    baseline_key = get_api_key(baseline.url)
    if baseline_key is None and baseline.host == endpoint.host:
        baseline_key = key
    return Servers(endpoint, baseline, model.strip(), key, baseline_key)


def connect_both(servers: Servers) -> str:
    """Check that both servers answer and serve the same model id; returns that id.

    Raises the engine's one-line errors (unreachable, 401, model not served). The baseline is asked
    for the model the endpoint chose, so a baseline serving another model fails here, before any
    prompt runs.
    """
    try:
        with RemoteEngine.connect(servers.endpoint, servers.model, servers.api_key, servers.timeout_s) as on:
            model = on.model
    except EngineError as exc:
        raise SideError("endpoint", exc) from exc
    try:
        with RemoteEngine.connect(servers.baseline, model, servers.baseline_key, servers.timeout_s):
            pass
    except EngineError as exc:
        raise SideError("baseline", exc) from exc
    return model


def verify(
    servers: Servers,
    prompts: Sequence[tuple[str, str]] = PROMPTS,
    max_tokens: int = MAX_TOKENS,
    cancel: CancelToken | None = None,
    progress: Callable[[int, int, str], None] | None = None,
    on_row: Callable[[VerifyRow], None] | None = None,
) -> VerifyReport:
    """Greedy parity of ``servers.endpoint`` (spec-on) against ``servers.baseline`` (spec-off).

    ``progress(done, total, kind)`` is called before each prompt (and with ``done == total`` at the
    end), ``on_row(row)`` after each prompt. Raises :class:`VerifyCancelled` once ``cancel`` is set,
    and the engines' errors as they are.
    """
    token = cancel or CancelToken()
    say = progress or (lambda _done, _total, _kind: None)
    model = connect_both(servers)
    report = VerifyReport(servers.endpoint.url, servers.baseline.url, model, max_tokens)

    def load(spec_on: bool) -> Engine:
        if token.cancelled:
            raise VerifyCancelled()
        endpoint = servers.endpoint if spec_on else servers.baseline
        key = servers.api_key if spec_on else servers.baseline_key
        request = RemoteLoadRequest(model, endpoint=endpoint, api_key=key, timeout_s=servers.timeout_s)
        side = "endpoint" if spec_on else "baseline"
        try:
            engine = RemoteEngine.load(request)
        except EngineError as exc:
            raise SideError(side, exc) from exc
        return _Side(side, engine, token, report.on if spec_on else report.off)

    for i, (kind, prompt) in enumerate(prompts):
        if token.cancelled:
            raise VerifyCancelled()
        say(i, len(prompts), kind)
        (result,) = parity(load, [prompt], max_tokens)
        row = VerifyRow(kind, result)
        report.rows.append(row)
        if on_row is not None:
            on_row(row)
    say(len(prompts), len(prompts), "")
    return report


def logprob_of(row: Sequence[tuple[int, str, float]] | None, text: str | None) -> float | None:
    """The log-probability of the candidate ``text`` in one side's top candidates, if listed."""
    if not row or text is None:
        return None
    return next((lp for _i, t, lp in row if t == text), None)
