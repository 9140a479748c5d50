"""The three APIs' event streams of one answer, read from its :class:`~app.core.serving.pump.Pump`.

Each stream sends its API's opening events at once (a queued request gets its headers and first
event before its turn), a keep-alive whenever nothing else came for ``keepalive_s``, the answer's
text and tool calls as they come, then its closing events with usage and Tandem's figures; an
engine error ends the stream in the API's error shape. A client that leaves cancels the answer.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

from app.core.engines.base import ContextLengthError, EngineError, InvalidRequestError
from app.core.serving import messages_api as M
from app.core.serving import protocol as P
from app.core.serving import responses_api as R
from app.core.serving.pump import KEEPALIVE, Pump, pieces
from app.core.serving.served import ServedModel
from app.core.serving.tool_stream import Piece, ToolCallStream

SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


def engine_error(exc: EngineError) -> P.ApiError:
    if isinstance(exc, ContextLengthError):
        return P.ApiError(400, str(exc), param="messages", code="context_length_exceeded")
    if isinstance(exc, InvalidRequestError):
        return P.ApiError(400, str(exc), code="invalid_request")
    return P.ApiError(500, exc.user_message(), "server_error")


async def chat_stream(
    pump: Pump, model: ServedModel, req: P.ChatRequest, keepalive_s: float
) -> AsyncIterator[bytes]:
    """A chat-completions stream: content deltas, tool-call deltas, the final chunk with usage."""
    cid = P.completion_id()
    mid = model.model_id
    splitter = ToolCallStream(req.call_style)
    n_calls = 0

    def pieces_out(pieces: list[Piece]) -> list[bytes]:
        nonlocal n_calls
        out: list[bytes] = []
        for piece in pieces:
            if isinstance(piece, str):
                if piece:
                    out.append(P.sse(P.chunk(cid, mid, {"content": piece})))
            else:
                call = P.openai_tool_call(piece, index=n_calls)
                n_calls += 1
                out.append(P.sse(P.chunk(cid, mid, {"tool_calls": [call]})))
        return out

    try:
        yield P.sse(P.chunk(cid, mid, {"role": "assistant", "content": ""}))
        try:
            async for piece in pieces(pump, splitter, keepalive_s):
                if piece is None:
                    yield KEEPALIVE
                    continue
                for data in pieces_out([piece]):
                    yield data
        except EngineError as exc:
            pump.failed(exc)
            yield P.sse(engine_error(exc).body())
            yield P.sse("[DONE]")
            return
        answer = pump.answer
        final = P.chunk(cid, mid, {}, P.finish_reason(answer, n_calls > 0))
        final["usage"] = P.usage(answer)
        final["tandem"] = P.extension(answer, model.spec_method, req.warnings)
        yield P.sse(final)
        if req.include_usage:
            tail = P.chunk(cid, mid, {})
            tail["choices"] = []
            tail["usage"] = final["usage"]
            tail["tandem"] = final["tandem"]
            yield P.sse(tail)
        pump.answered(n_calls)
        yield P.sse("[DONE]")
    finally:  # the client left (the task was cancelled) or the answer is complete
        pump.stop()
        pump.side_done()


async def messages_stream(
    pump: Pump, model: ServedModel, req: P.ChatRequest, keepalive_s: float
) -> AsyncIterator[bytes]:
    """A Messages stream: a text block while text comes, one ``tool_use`` block per call."""
    splitter = ToolCallStream(req.call_style)
    index, text_open, n_calls = 0, False, 0
    try:
        yield M.start_event(M.message_id(), model.model_id, req.prompt_tokens or 0)
        yield M.event("ping")
        try:
            async for piece in pieces(pump, splitter, keepalive_s):
                if piece is None:
                    yield M.event("ping")
                    continue
                if isinstance(piece, str):
                    if not text_open:
                        text_block = {"type": "text", "text": ""}
                        yield M.event("content_block_start", index=index, content_block=text_block)
                        text_open = True
                    delta = {"type": "text_delta", "text": piece}
                    yield M.event("content_block_delta", index=index, delta=delta)
                    continue
                if text_open:
                    yield M.event("content_block_stop", index=index)
                    index, text_open = index + 1, False
                block = M.tool_use_block(piece)
                args = json.dumps(block["input"], ensure_ascii=False)
                yield M.event("content_block_start", index=index, content_block={**block, "input": {}})
                delta = {"type": "input_json_delta", "partial_json": args}
                yield M.event("content_block_delta", index=index, delta=delta)
                yield M.event("content_block_stop", index=index)
                index, n_calls = index + 1, n_calls + 1
        except EngineError as exc:
            pump.failed(exc)
            yield M.error_event(engine_error(exc))
            return
        if text_open:
            yield M.event("content_block_stop", index=index)
        answer = pump.answer
        reason, sequence = M.stop_reason(answer, n_calls > 0, req.sampling.stop, req.sampling.max_tokens)
        yield M.event(
            "message_delta",
            delta={"stop_reason": reason, "stop_sequence": sequence},
            usage=M.usage(answer),
            tandem=P.extension(answer, model.spec_method, req.warnings),
        )
        yield M.event("message_stop")
        pump.answered(n_calls)
    finally:  # the client left (the task was cancelled) or the answer is complete
        pump.stop()
        pump.side_done()


async def responses_stream(
    pump: Pump, model: ServedModel, req: P.ChatRequest, keepalive_s: float
) -> AsyncIterator[bytes]:
    """A Responses stream: a message item while text comes, one function_call item per call."""
    events = R.ResponseEvents(model.model_id, model.spec_method, req.warnings)
    splitter = ToolCallStream(req.call_style)
    n_calls = 0
    try:
        for data in events.start():
            yield data
        try:
            async for piece in pieces(pump, splitter, keepalive_s):
                if piece is None:
                    yield KEEPALIVE
                    continue
                if isinstance(piece, str):
                    out = events.text(piece)
                else:
                    out = events.call(piece)
                    n_calls += 1
                for data in out:
                    yield data
        except EngineError as exc:
            pump.failed(exc)
            for data in events.fail(engine_error(exc), pump.answer):
                yield data
            return
        for data in events.finish(pump.answer):
            yield data
        pump.answered(n_calls)
    finally:  # the client left (the task was cancelled) or the answer is complete
        pump.stop()
        pump.side_done()
