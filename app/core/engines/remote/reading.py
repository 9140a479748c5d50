"""One request's answer from a server: its chunks turned into events (the llama-server client's
:class:`~app.core.engines.llamaserver.ChunkReader`), what only remote servers report (usage, vLLM /
SGLang acceptance figures), the times measured here, and the :class:`RemoteFinished` that closes it."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from app.core.engines.base import Event, Finished, Round, TextDelta
from app.core.engines.llamaserver import ChunkReader
from app.core.engines.remote import acceptance as acc
from app.core.engines.remote.errors import RemoteServerError


@dataclass(frozen=True)
class RemoteFinished(Finished):
    """:class:`Finished` plus where the acceptance numbers come from.

    ``drafted``/``accepted`` are None when the server did not report them (``drafted_total`` and
    ``accepted_total`` are then 0 with ``drafted_known`` False, for code that reads only ints).
    """

    acceptance_source: str = acc.NOT_REPORTED
    acceptance_note: str = ""
    drafted: int | None = None
    accepted: int | None = None
    #: the stream was cut before the answer ended (reason is then "cancelled")
    interrupted: bool = False
    server_kind: str = "openai"
    #: the server's model id that answered
    model: str = ""
    #: the speculation method the server says it runs (see :class:`ServerMethod`), where it said so
    method: str | None = None
    method_source: str = ""
    #: draft tokens per round the server is configured for, where it says
    draft_depth: int | None = None


class StreamState:
    """One request's chunks -> events (the shared :class:`ChunkReader`), plus what only remote
    servers report: usage, vLLM / SGLang acceptance figures, and times measured here."""

    def __init__(self, kind: str, model: str = "", with_logprobs: bool = False) -> None:
        self.kind = kind
        self.model = model
        self.reader = ChunkReader("the server", with_logprobs=with_logprobs, error=RemoteServerError)
        self.cancelled = False
        self.usage: Mapping[str, Any] = {}
        self.last_usage_completion = 0
        self.first_at: float | None = None
        self.last_at: float | None = None
        self.acceptance: acc.Acceptance | None = None

    @property
    def text_started(self) -> bool:
        return self.reader.text_started

    @property
    def pieces(self) -> list[str]:
        return self.reader.pieces

    def on_chunk(self, chunk: Any, now: float) -> Iterator[Event]:
        if isinstance(chunk, Mapping) and "error" not in chunk:
            usage = chunk.get("usage")
            if isinstance(usage, Mapping):
                self.usage = usage
            if self.kind == "vllm":
                self.acceptance = acc.vllm_request_metrics(chunk) or self.acceptance
            elif self.kind == "sglang":
                meta = acc.find_sglang_meta(chunk)
                if meta is not None:
                    self.acceptance = acc.sglang_meta_info(meta) or self.acceptance
        events = self.reader.feed(chunk, self._untimed_tokens)
        if any(isinstance(e, TextDelta) for e in events):
            if self.first_at is None:
                self.first_at = now
            self.last_at = now
        yield from events

    def _untimed_tokens(self, chunk: Mapping[str, Any], text: str) -> int:
        """Tokens of a chunk without llama-server timings: vLLM's continuous usage, else 1 a text."""
        usage = chunk.get("usage")
        if isinstance(usage, Mapping) and chunk.get("choices"):  # vLLM continuous usage stats
            done = int(usage.get("completion_tokens") or 0)
            n = max(0, done - self.last_usage_completion)
            self.last_usage_completion = done
            return n
        return 1 if text else 0

    def completion_tokens(self) -> int:
        if self.reader.saw_timings:
            return self.reader.timing.rounds.emitted_total
        reported = self.usage.get("completion_tokens") if self.usage else None
        return int(reported) if isinstance(reported, int) else self.reader.untimed_tokens

    def closing_rounds(self) -> Iterator[Event]:
        if self.reader.saw_timings:
            yield from self.reader.closing_rounds()
        elif self.acceptance is not None and self.acceptance.per_round:
            for i, (drafted, accepted) in enumerate(self.acceptance.per_round):
                yield Round(i, drafted, accepted, accepted + 1)

    def _final_acceptance(self) -> acc.Acceptance:
        if self.reader.timing.saw_draft_counters:
            counts = self.reader.timing.rounds
            return acc.Acceptance(
                "llama.cpp timings", counts.drafted_total, counts.accepted_total, counts.round_count
            )
        return self.acceptance or acc.UNREPORTED

    def finish(self, started: float, interrupted: bool = False) -> RemoteFinished:
        a = self._final_acceptance()
        rounds = a.rounds if a.rounds is not None else 0
        if self.reader.saw_timings:
            timing = self.reader.timing
            prompt_ms, decode_ms, prompt_tokens = timing.prompt_ms, timing.decode_ms, timing.prompt_tokens
            rounds = timing.rounds.round_count
        else:  # measured here: time to first token, then first to last token
            first = self.first_at if self.first_at is not None else started
            prompt_ms = (first - started) * 1000.0
            decode_ms = ((self.last_at or first) - first) * 1000.0
            prompt_tokens = int(self.usage.get("prompt_tokens") or 0) if self.usage else 0
        return RemoteFinished(
            reason="cancelled" if (self.cancelled or interrupted) else self.reader.reason,
            prompt_tokens=prompt_tokens,
            completion_tokens=self.completion_tokens(),
            prompt_ms=prompt_ms,
            decode_ms=decode_ms,
            drafted_total=a.drafted or 0,
            accepted_total=a.accepted or 0,
            rounds=rounds,
            drafted_known=a.drafted is not None,
            tool_calls=self.reader.tool_calls(),
            stop_sequence=self.reader.stop_sequence,
            passes=tuple(self.reader.timing.passes) if self.reader.saw_timings else None,
            token_ids=self.reader.token_ids,
            candidates=[list(row) for row in self.reader.candidates]
            if self.reader.token_ids is not None
            else None,
            acceptance_source=a.source,
            acceptance_note=a.note,
            drafted=a.drafted,
            accepted=a.accepted,
            interrupted=interrupted,
            server_kind=self.kind,
            model=self.model,
        )
