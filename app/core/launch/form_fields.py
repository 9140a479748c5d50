"""The launch form's typed fields read into values, or into the :class:`Note` that says why not.

Sampling is one :class:`~app.core.engines.base.Sampling` built from the form's five sampling
fields; a value no engine runs is a ``SAMPLING_INVALID`` error. A local launch also needs the
answer to leave room in the context: ``max_tokens`` below ``n_ctx``, unless the context is 0 (Auto:
the room is checked per request). A remote launch takes the sampling alone: the server's context
decides the room. Tokens per round is empty (the engine's default) or what
:func:`~app.core.speculative.parse_num_speculative_tokens` accepts; anything else is a
``DEPTH_INVALID`` error.
"""

from __future__ import annotations

from app.core.engines.base import Sampling, SamplingError
from app.core.launch.form_state import FormValues, Note, NoteCode
from app.core.speculative import SpeculationError, parse_num_speculative_tokens

__all__ = ["depth_note", "form_sampling", "local_sampling", "typed_depth"]


def form_sampling(v: FormValues) -> tuple[Sampling | None, Note | None]:
    """The form's sampling, or why not. A remote launch uses it as it is (the server's context
    decides the room); a local one checks the context rule first (:func:`local_sampling`)."""
    try:
        sampling = Sampling(
            temperature=v.temperature,
            top_p=v.top_p,
            top_k=v.top_k,
            max_tokens=v.max_tokens,
            repeat_penalty=v.repeat_penalty,
        )
    except SamplingError as exc:
        return None, Note(NoteCode.SAMPLING_INVALID, "error", {"detail": str(exc)})
    return sampling, None


def local_sampling(v: FormValues) -> tuple[Sampling | None, Note | None]:
    """A local launch's sampling, or why not: the context rule, then :func:`form_sampling`."""
    if v.n_ctx and v.max_tokens >= v.n_ctx:  # 0 is Auto: the answer's room is checked per request
        params = {"max_tokens": v.max_tokens, "n_ctx": v.n_ctx}
        return None, Note(NoteCode.MAX_TOKENS_NOT_BELOW_CONTEXT, "error", params)
    return form_sampling(v)


def typed_depth(text: str) -> int | None:
    """Tokens per round as typed (None: empty, or not a number: the field says why)."""
    try:
        return parse_num_speculative_tokens(text)
    except SpeculationError:
        return None


def depth_note(text: str) -> Note | None:
    """Why tokens per round as typed does not parse, None when it does."""
    try:
        parse_num_speculative_tokens(text)
    except SpeculationError as exc:
        return Note(NoteCode.DEPTH_INVALID, "error", {"detail": str(exc)})
    return None
