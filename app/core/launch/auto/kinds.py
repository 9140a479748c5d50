"""What kind of request a chat request is, for routing it to the configuration that pays for it.

Speculation pays differently per request: a trained or small drafter pays on new prose, a
model-free method (n-grams, suffix decoding) pays where the answer copies text that is already
there: a code edit rewrites the code it was given, a repeated request gets much of the earlier
answer again. :func:`classify` tells these apart before the answer starts, from the messages
alone: deterministic, no model, well under a millisecond on a long conversation (it looks at the
last user message closely and at the rest only through substring searches).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any

from app.core.engines.base import is_agent_turn


class RequestKind(StrEnum):
    """The kinds Auto routes; each value is also its name in stored figures and the API."""

    #: new text: nothing in the conversation that the answer will copy
    PROSE = "prose"
    #: the conversation holds code (a block, a file) that the answer will rewrite
    CODE_EDIT = "code-edit"
    #: the request asks for text that is already in the conversation (or was just answered)
    REPEAT = "repeat"
    #: an agent turn: the request offers tools or carries tool calls and their results
    AGENT = "agent"
    #: the conversation carries documents (whole, or passages of them) the answer will quote
    DOCUMENT = "document"


#: A user message repeated verbatim counts as a repeat from this many characters (a bare "yes" or
#: "continue" sent twice asks for new text).
SAME_MESSAGE_MIN_CHARS = 16
#: Length of each probe taken from the last user message and searched for in earlier answers; a
#: probe this long is found there only when the text was copied, not by chance.
PROBE_CHARS = 32
#: At most this many probes, spread over the message: bounds the time on a long pasted text.
MAX_PROBES = 24
#: A message is a quote of earlier answers when at least this many probes and this share of them
#: are found there.
QUOTE_MIN_PROBES = 3
QUOTE_SHARE = 0.5
#: An explicit "again" counts only in a short message: a long one with "again" in it is a new
#: instruction.
ASK_AGAIN_MAX_CHARS = 200
#: Earlier messages searched for unfenced code lines when the last one asks for an edit.
RECENT_MESSAGES = 4
#: Lines that look like code, needed in a message without a fenced block.
MIN_CODE_LINES = 2
#: How a document put into a message's text begins (:func:`app.core.documents.grounding.whole_block`)
DOCUMENT_MARK = '<document filename="'

# "Again" / "repeat" in the languages Tandem speaks and a few more; Latin words on word bounds so
# "against" is not "again", the rest as substrings (no spaces between words there).
_AGAIN_WORDS = re.compile(
    r"\b(again|repeat|once more|one more time|same answer|previous answer|last answer|what you (?:just )?"
    r"(?:wrote|said)|nochmal|noch einmal|wiederhol\w*|encore une fois|répète|à nouveau|de nouveau|"
    r"otra vez|de nuevo|repite|de novo|novamente|repita|di nuovo|ripeti|ещё раз|еще раз|повтори\w*)\b"
)
_AGAIN_SUBSTRINGS = (
    "再说一遍",
    "再說一遍",
    "再来一遍",
    "再写一遍",
    "再发一次",
    "重复",
    "重複",
    "刚才的",
    "もう一度",
    "もう一回",
    "繰り返",
    "さっきの",
    "先ほどの",
    "再度",
    "다시",
    "한 번 더",
    "한번 더",
    "반복",
    "아까",
    "방금",
)
# Asking for a change to something (the code already in the conversation).
_EDIT_WORDS = re.compile(
    r"\b(rename|refactor|fix|change|modify|rewrite|update|add|remove|delete|replace|convert|port|"
    r"optimi[sz]e|simplify|edit|implement|extend|clean up|type hints?|docstrings?|"
    r"ändere|umbenennen|korrigier\w*|füge|entferne|renomme|corrige|modifie|ajoute|supprime|réécri\w*|"
    r"cambia|renombra|añade|elimina|modifica|reescrib\w*|исправ\w*|переименуй|измени|добавь|удали|"
    r"перепиши)\b"
)
_EDIT_SUBSTRINGS = (
    "修改",
    "改成",
    "改为",
    "重构",
    "修复",
    "添加",
    "删除",
    "替换",
    "改写",
    "优化",
    "修正",
    "変更",
    "直して",
    "追加",
    "削除",
    "書き換",
    "リファクタ",
    "置き換",
    "수정",
    "변경",
    "고쳐",
    "추가",
    "삭제",
    "바꿔",
    "리팩터",
)
_CODE_LINE = re.compile(
    r"^[ \t]*(?:def |class |import |from \S+ import |return\b|function\b|const |let |var |#include|"
    r"public |private |fn |func |package |using |SELECT |@\w+|[}\]]|<\w+[^>\n]*>)"
    r"|[;{][ \t]*$|^[ \t]*(?:if|for|while|elif|else|try|except|with)\b[^\n]*:[ \t]*$",
    re.MULTILINE,
)


def text_of(message: Mapping[str, Any]) -> str:
    """A message's text: its content as a string, or the text parts of a list of parts."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [p.get("text") for p in content if isinstance(p, Mapping)]
        return "\n".join(p for p in parts if isinstance(p, str))
    return ""


def has_documents(messages: Sequence[Mapping[str, Any]]) -> bool:
    """A user or system message names documents, or holds one put into its text
    (:mod:`app.core.documents.grounding` writes each as a ``<document filename=...>`` block)."""
    for m in messages:
        if m.get("role") in ("user", "system") and (m.get("documents") or DOCUMENT_MARK in text_of(m)):
            return True
    return False


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def has_code(text: str) -> bool:
    """A fenced block, or at least :data:`MIN_CODE_LINES` lines that look like code."""
    if "```" in text or "~~~" in text:
        return True
    lines: set[int] = set()  # the lines matched (one line can match twice)
    for match in _CODE_LINE.finditer(text):
        lines.add(text.count("\n", 0, match.start()))
        if len(lines) >= MIN_CODE_LINES:
            return True
    return False


def _asks_again(norm: str) -> bool:
    return len(norm) <= ASK_AGAIN_MAX_CHARS and (
        _AGAIN_WORDS.search(norm) is not None or any(s in norm for s in _AGAIN_SUBSTRINGS)
    )


def _asks_edit(norm: str) -> bool:
    return _EDIT_WORDS.search(norm) is not None or any(s in norm for s in _EDIT_SUBSTRINGS)


def quoted_share(text: str, haystack: str) -> tuple[int, float]:
    """(probes, share found): :data:`PROBE_CHARS`-long pieces of ``text`` (normalised) searched
    for in ``haystack`` (normalised the same way), at most :data:`MAX_PROBES` of them."""
    n = len(text) // PROBE_CHARS
    if n == 0 or not haystack:
        return 0, 0.0
    step = max(1, n // MAX_PROBES)
    starts = range(0, n * PROBE_CHARS, step * PROBE_CHARS)
    found = sum(1 for s in starts if text[s : s + PROBE_CHARS] in haystack)
    return len(starts), found / len(starts)


def _code_before(earlier: Sequence[Mapping[str, Any]]) -> bool:
    """Code earlier in the conversation: a fenced block anywhere (a fast substring search), or
    unfenced code lines in the last :data:`RECENT_MESSAGES` messages (what an edit request refers
    to is recent, and scanning every line of a long conversation would cost the time budget)."""
    texts = [text_of(m) for m in earlier]
    if any("```" in t or "~~~" in t for t in texts):
        return True
    return any(has_code(t) for t in texts[-RECENT_MESSAGES:])


def classify(
    messages: Sequence[Mapping[str, Any]],
    tools: Sequence[Mapping[str, Any]] | None = None,
    *,
    recent: Sequence[str] = (),
) -> RequestKind:
    """The kind of the request whose conversation is ``messages`` (OpenAI chat shapes).

    In order: tools offered, or tool calls / tool results in the conversation: ``agent``. The last
    user message sent before (the same text, at least :data:`SAME_MESSAGE_MIN_CHARS`), mostly a
    quote of earlier answers, or a short explicit "again" after an answer: ``repeat``. Documents
    in the conversation (:func:`has_documents`): ``document``. Code in the last user message, or
    code earlier with a request to change it: ``code-edit``. Else ``prose``.

    ``recent``: texts this engine saw outside this conversation (requests and answers of the last
    few requests, kept by the caller), so a request resent in a fresh conversation, as API clients
    and agents do, is a repeat too.
    """
    if is_agent_turn(messages, tools):
        return RequestKind.AGENT
    last_index = next(
        (i for i in range(len(messages) - 1, -1, -1) if messages[i].get("role") == "user"), None
    )
    if last_index is None:
        return RequestKind.PROSE
    raw = text_of(messages[last_index])
    last = _norm(raw)
    earlier = messages[:last_index]
    answers = [text_of(m) for m in earlier if m.get("role") == "assistant"]
    if len(last) >= SAME_MESSAGE_MIN_CHARS:
        asked_before = {_norm(text_of(m)) for m in earlier if m.get("role") == "user"}
        if last in asked_before or any(_norm(t) == last for t in recent):
            return RequestKind.REPEAT
    seen = _norm("\n".join([*answers, *recent]))
    probes, share = quoted_share(last, seen)
    if probes >= QUOTE_MIN_PROBES and share >= QUOTE_SHARE:
        return RequestKind.REPEAT
    if answers and _asks_again(last):
        return RequestKind.REPEAT
    if has_documents(messages):
        return RequestKind.DOCUMENT
    if has_code(raw):
        return RequestKind.CODE_EDIT
    if _asks_edit(last) and _code_before(earlier):
        return RequestKind.CODE_EDIT
    return RequestKind.PROSE
