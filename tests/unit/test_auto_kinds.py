"""Auto's request kinds: :func:`classify` on varied real-looking conversations, several languages."""

from __future__ import annotations

from typing import Any

import pytest

from app.core.launch.auto import RequestKind, classify
from app.core.launch.auto.kinds import has_code, quoted_share, text_of

PROSE, CODE, REPEAT, AGENT = RequestKind.PROSE, RequestKind.CODE_EDIT, RequestKind.REPEAT, RequestKind.AGENT

STORY = (
    "The harbour was still dark when the first boats went out. Nets hung over the rails, and the "
    "old baker on the corner was already pulling loaves from the oven, the smell drifting down to "
    "the water where gulls waited on the posts for whatever the night had brought in."
)
PY_FILE = (
    "import json\nfrom pathlib import Path\n\n\ndef load(path):\n    with open(path) as f:\n"
    "        return json.load(f)\n\n\ndef save(path, data):\n    Path(path).write_text(json.dumps(data))\n"
)
JS_SNIPPET = (
    "function total(items) {\n  let sum = 0;\n  for (const i of items) {\n    sum += i.price;\n  }\n"
    "  return sum;\n}"
)


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": text}


def assistant(text: str) -> dict[str, Any]:
    return {"role": "assistant", "content": text}


SYSTEM = {"role": "system", "content": "You are a helpful assistant."}

CASES: list[tuple[str, list[dict[str, Any]], RequestKind]] = [
    # --- prose, first requests and follow-ups ---
    ("essay", [user("Write a short essay about why cities should plant more trees.")], PROSE),
    ("question", [SYSTEM, user("What is the difference between weather and climate?")], PROSE),
    ("recipe", [user("Give me a simple recipe for a weeknight vegetable curry.")], PROSE),
    ("follow-up", [user("Tell me about Kyoto."), assistant(STORY), user("What should I eat there?")], PROSE),
    ("zh prose", [user("请用一段话描述秋天的北京。")], PROSE),
    ("ja prose", [user("日本の四季について短い文章を書いてください。")], PROSE),
    ("ko prose", [user("서울에서 하루 여행 일정을 추천해 주세요.")], PROSE),
    ("de prose", [user("Erkläre mir bitte, wie eine Wärmepumpe funktioniert.")], PROSE),
    ("fr prose", [user("Écris un petit poème sur la mer en hiver.")], PROSE),
    (
        "against is not again",
        [user("Hi"), assistant(STORY), user("Give arguments against nuclear power.")],
        PROSE,
    ),
    ("short message twice", [user("continue"), assistant(STORY), user("continue")], PROSE),
    ("no user message", [SYSTEM], PROSE),
    (
        "code elsewhere, no edit asked",
        [
            user(f"```python\n{PY_FILE}```\nWhat does this do?"),
            assistant("It loads and saves JSON files."),
            user("Is JSON a good format for configuration files?"),
        ],
        PROSE,
    ),
    (
        "bullet list is not code",
        [user("Plan a weekend:\n- Saturday: hike\n- Sunday: museum\n- Evening: cinema")],
        PROSE,
    ),
    # --- code edits ---
    ("fenced edit", [user(f"```python\n{PY_FILE}```\nAdd type hints to every function.")], CODE),
    ("unfenced python", [user(f"{PY_FILE}\nRename load to read_json.")], CODE),
    ("js", [user(f"Convert this to TypeScript:\n{JS_SNIPPET}")], CODE),
    (
        "calibration prompt",
        [
            user(
                "Here is a Python function:\n\ndef area(w, h):\n    return w * h\n\n"
                "Rename w to width and h to height, add a docstring, and return the whole function."
            )
        ],
        CODE,
    ),
    (
        "edit earlier answer",
        [
            user("Write a function that sums prices."),
            assistant(f"```js\n{JS_SNIPPET}\n```"),
            user("Now rename sum to total and add a JSDoc comment."),
        ],
        CODE,
    ),
    (
        "zh edit",
        [
            user(f"```python\n{PY_FILE}```"),
            assistant("好的。"),
            user("请把 load 改成 read_json，并添加注释。"),
        ],
        CODE,
    ),
    (
        "ja edit",
        [
            user(f"```python\n{PY_FILE}```"),
            assistant("はい。"),
            user("この関数名を変更して、型ヒントを追加してください。"),
        ],
        CODE,
    ),
    (
        "ko edit",
        [
            user(f"```python\n{PY_FILE}```"),
            assistant("네."),
            user("함수 이름을 수정하고 주석을 추가해 주세요."),
        ],
        CODE,
    ),
    (
        "es edit",
        [user(f"```python\n{PY_FILE}```"), assistant("Vale."), user("Cambia el nombre de la función load.")],
        CODE,
    ),
    (
        "sql",
        [
            user(
                "SELECT name, price FROM items WHERE price > 10;\nSELECT * FROM orders;\n"
                "SELECT id FROM users;\nAdd an ORDER BY to each query."
            )
        ],
        CODE,
    ),
    # --- repeats ---
    (
        "same request again",
        [
            user("Describe a quiet morning in a small fishing village."),
            assistant(STORY),
            user("Describe a quiet morning in a small fishing village."),
        ],
        REPEAT,
    ),
    (
        "same request, other spacing",
        [
            user("Summarise the plot of Hamlet in three sentences."),
            assistant(STORY),
            user("summarise the plot of  Hamlet in three sentences. "),
        ],
        REPEAT,
    ),
    (
        "quote of the answer",
        [
            user("Write about a harbour."),
            assistant(STORY),
            user(f"Fix the grammar of this paragraph:\n{STORY}"),
        ],
        REPEAT,
    ),
    (
        "say again",
        [user("Write about a harbour."), assistant(STORY), user("Can you say that again?")],
        REPEAT,
    ),
    (
        "print whole file again",
        [
            user(f"```python\n{PY_FILE}```\nAdd type hints."),
            assistant(f"```python\n{PY_FILE}```"),
            user("Show me the whole file once more."),
        ],
        REPEAT,
    ),
    ("zh again", [user("讲个故事"), assistant(STORY), user("再说一遍")], REPEAT),
    ("ja again", [user("物語を書いて"), assistant(STORY), user("もう一度お願いします")], REPEAT),
    ("ko again", [user("이야기를 써 줘"), assistant(STORY), user("다시 한 번 말해 줘")], REPEAT),
    ("de again", [user("Schreib eine Geschichte"), assistant(STORY), user("Bitte nochmal")], REPEAT),
    ("ru again", [user("Напиши историю"), assistant(STORY), user("Повтори, пожалуйста")], REPEAT),
    (
        "the same code edit again",
        [
            user(f"```python\n{PY_FILE}```\nAdd type hints."),
            assistant(PY_FILE),
            user(f"```python\n{PY_FILE}```\nAdd type hints."),
        ],
        REPEAT,
    ),
    # --- agent turns ---
    (
        "tool result",
        [
            user("What's the weather in Oslo?"),
            {
                "role": "assistant",
                "content": "",
                "tool_calls": [
                    {
                        "id": "1",
                        "type": "function",
                        "function": {"name": "weather", "arguments": '{"city": "Oslo"}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "1", "content": '{"temp": -3}'},
        ],
        AGENT,
    ),
]


@pytest.mark.parametrize(("messages", "kind"), [(m, k) for _n, m, k in CASES], ids=[n for n, _m, _k in CASES])
def test_classify(messages: list[dict[str, Any]], kind: RequestKind) -> None:
    assert classify(messages) == kind


def test_tools_make_an_agent_turn_whatever_the_text() -> None:
    tools = [{"type": "function", "function": {"name": "read_file", "parameters": {"type": "object"}}}]
    assert classify([user("Write a poem about the sea.")], tools) == AGENT
    assert classify([user(f"```python\n{PY_FILE}```\nAdd type hints.")], tools) == AGENT
    assert classify([user("Write a poem about the sea.")], []) == PROSE


def test_a_request_resent_in_a_fresh_conversation_is_a_repeat_with_recent_texts() -> None:
    """API clients resend a request in a new conversation; the caller's recent texts say so."""
    request = "Describe a quiet morning in a small fishing village, in one paragraph."
    assert classify([user(request)]) == PROSE
    assert classify([user(request)], recent=[request, STORY]) == REPEAT
    assert classify([user(f"Shorten this:\n{STORY}")], recent=[STORY]) == REPEAT


def test_list_content_parts_are_read() -> None:
    parts = [
        {"type": "text", "text": f"```python\n{PY_FILE}```"},
        {"type": "image_url", "image_url": {"url": "x"}},
    ]
    assert text_of({"role": "user", "content": parts}).startswith("```python")
    assert classify([{"role": "user", "content": parts}]) == CODE
    assert text_of({"role": "user", "content": None}) == ""


def test_code_detection_and_quotes() -> None:
    assert has_code(PY_FILE) and has_code(JS_SNIPPET) and has_code("```\nx\n```")
    assert not has_code(STORY) and not has_code("For example:\nIf you like:\nWhile there:")
    probes, share = quoted_share(STORY.casefold(), ("intro " + STORY + " outro").casefold())
    assert probes >= 3 and share == 1.0
    assert quoted_share("short", "short") == (0, 0.0)


def test_classify_reads_the_last_message_of_a_long_conversation() -> None:
    """On a 20 kB conversation the kind is the last request's (it runs before every request; what
    that costs is measured in benchmarks/bench_hot_paths.py, not asserted here)."""
    turns: list[dict[str, Any]] = []
    for i in range(16):
        turns += [
            user(f"Question {i}: tell me more about part {i} of the story, with new details, and fix it."),
            assistant(STORY * 5 + f" Part {i}."),
        ]
    assert sum(len(text_of(m)) for m in turns) >= 20_000
    cases = [
        ([*turns, user("Tell me something completely different about mountains and rivers, please.")], PROSE),
        ([*turns, user("Rewrite this: " + STORY * 4)], REPEAT),
        ([*turns, user(f"```python\n{PY_FILE * 6}```\nAdd type hints.")], CODE),
        ([*turns, user("Now rename the variables and add comments, please.")], PROSE),
    ]
    for messages, kind in cases:
        assert classify(messages) == kind


def test_a_question_about_documents_is_its_own_kind() -> None:
    """Named documents, or documents already put into the text, make a document question; a
    short "again" after an answer stays a repeat."""
    from app.core.documents.extract import read_document
    from app.core.documents.grounding import ground

    doc = read_document("notes.md", b"# Notes\n\nThe ferry leaves at nine from pier four.")
    named = [{"role": "user", "content": "When does the ferry leave?", "documents": [doc.name]}]
    assert classify(named) == RequestKind.DOCUMENT
    grounded = ground(named, {doc.name: doc}, 10_000, len).messages
    assert "documents" not in grounded[0] and classify(grounded) == RequestKind.DOCUMENT
    again = [
        *grounded,
        {"role": "assistant", "content": "At nine."},
        {"role": "user", "content": "say it again"},
    ]
    assert classify(again) == RequestKind.REPEAT
    quoted = [{"role": "user", "content": 'What does <document filename="x"> mean in HTML?'}]
    assert classify(quoted) == RequestKind.DOCUMENT  # the mark is what grounding writes


def test_the_prior_sends_document_questions_to_the_model_free_method() -> None:
    from app.core.launch.auto.candidates import Candidate
    from app.core.launch.auto.routing import Routes

    free, drafter = Candidate("ngram-mod", 8), Candidate("mtp", 3)
    assert Routes.prior([drafter, free])[RequestKind.DOCUMENT] == free
    assert Routes.prior([drafter])[RequestKind.DOCUMENT] == drafter
