"""The remote engine against real vLLM servers on loopback.

Servers (tests/vllm/conftest.py): ``plain`` (no speculation), ``ngram`` (figures from the
``/metrics`` counters), ``suffix`` (arctic-inference; per-request figures and ``/server_info``).
Every figure is checked against what the server itself says, read independently here.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from app.core.answer import AnswerCollector, collect
from app.core.chat.context import fit_history
from app.core.engines.base import CancelToken, ChatMessage, Sampling, TextDelta
from app.core.engines.blocking import generate
from app.core.engines.remote import acceptance as acc
from app.core.engines.remote.endpoints import Endpoint
from app.core.engines.remote.engine import (
    RemoteEngine,
    RemoteFinished,
    StreamInterrupted,
    list_models,
)
from app.devtools import vllm_servers as harness

#: the first test also waits for the tier's setup (a venv build on a first run, servers starting)
pytestmark = [pytest.mark.vllm, pytest.mark.timeout(1800)]

GREEDY = Sampling(temperature=0.0, max_tokens=48, seed=0)
COPY = (
    "Repeat exactly: the quick brown fox jumps over the lazy dog. "
    "the quick brown fox jumps over the lazy dog."
)


def user(text: str) -> list[ChatMessage]:
    return [{"role": "user", "content": text}]


def connect(server: harness.VLLMServer) -> RemoteEngine:
    return RemoteEngine.connect(Endpoint.parse(server.url), "smollm2")


@pytest.fixture
def engines(vllm_servers: dict[str, harness.VLLMServer]) -> Iterator[dict[str, RemoteEngine]]:
    opened = {name: connect(server) for name, server in vllm_servers.items()}
    yield opened
    for engine in opened.values():
        engine.close()


def counters(server: harness.VLLMServer) -> dict[str, float]:
    snap = acc.vllm_counter_snapshot(httpx.get(server.root + "/metrics", timeout=10).text)
    assert snap is not None
    return snap


def test_listing_names_the_model_and_the_server_kind(vllm_servers: dict[str, harness.VLLMServer]) -> None:
    models = list_models(Endpoint.parse(vllm_servers["plain"].url), None)
    assert [(m.id, m.owned_by) for m in models] == [("smollm2", "vllm")]
    engine = RemoteEngine.connect(Endpoint.parse(vllm_servers["plain"].url))  # the only model, picked
    try:
        assert engine.model == "smollm2" and engine.server_kind == "vllm"
    finally:
        engine.close()


def test_streamed_answer_matches_the_servers_own_non_streamed_answer(
    vllm_servers: dict[str, harness.VLLMServer], engines: dict[str, RemoteEngine]
) -> None:
    for name in ("plain", "ngram"):
        answer = collect(
            generate(engines[name], user("Name three rivers in Europe."), GREEDY, top_logprobs=1)
        )
        body = {
            "model": "smollm2",
            "messages": user("Name three rivers in Europe."),
            "max_tokens": GREEDY.max_tokens,
            "temperature": 0.0,
            "seed": 0,
            "logprobs": True,
            "return_tokens_as_token_ids": True,
        }
        whole = httpx.post(vllm_servers[name].url + "/chat/completions", json=body, timeout=120).json()
        choice = whole["choices"][0]
        assert answer.text == choice["message"]["content"], name
        assert answer.completion_tokens == whole["usage"]["completion_tokens"], name
        assert answer.prompt_tokens == whole["usage"]["prompt_tokens"], name
        ids = [int(e["token"].removeprefix("token_id:")) for e in choice["logprobs"]["content"]]
        assert answer.token_ids == ids, name
        assert answer.reason == ("length" if choice["finish_reason"] == "length" else "stop")


def test_the_method_comes_from_the_server(engines: dict[str, RemoteEngine]) -> None:
    plain, ngram = engines["plain"].server_method, engines["ngram"].server_method
    assert plain.method is None and "no speculative decoding counters" in plain.source
    # ngram runs without development routes: /metrics shows that it drafts, and how deep, not the name
    assert (ngram.method, ngram.depth) == (acc.UNNAMED_METHOD, 4) and "/metrics" in ngram.source
    assert engines["ngram"].spec_kind == acc.UNNAMED_METHOD and engines["plain"].spec_kind is None
    if "suffix" in engines:  # started with VLLM_SERVER_DEV_MODE=1: the config names it
        suffix = engines["suffix"].server_method
        assert (suffix.method, suffix.depth) == ("suffix", 8) and "/server_info" in suffix.source
    fin = collect(generate(engines["ngram"], user(COPY), GREEDY)).finished
    assert isinstance(fin, RemoteFinished)
    assert (fin.method, fin.draft_depth) == (acc.UNNAMED_METHOD, 4)


def test_figures_are_the_servers_metrics_deltas(
    vllm_servers: dict[str, harness.VLLMServer], engines: dict[str, RemoteEngine]
) -> None:
    before = counters(vllm_servers["ngram"])
    answer = collect(generate(engines["ngram"], user(COPY), GREEDY))
    after = counters(vllm_servers["ngram"])
    fin = answer.finished
    assert isinstance(fin, RemoteFinished) and fin.acceptance_source == "vLLM /metrics counters"
    drafted = (
        after["vllm:spec_decode_num_draft_tokens_total"] - before["vllm:spec_decode_num_draft_tokens_total"]
    )
    accepted = (
        after["vllm:spec_decode_num_accepted_tokens_total"]
        - before["vllm:spec_decode_num_accepted_tokens_total"]
    )
    drafts = after["vllm:spec_decode_num_drafts_total"] - before["vllm:spec_decode_num_drafts_total"]
    assert (fin.drafted, fin.accepted, fin.rounds) == (round(drafted), round(accepted), round(drafts))
    assert fin.drafted and fin.drafted > 0  # a copy prompt drafts with ngram
    assert "concurrent traffic" in fin.acceptance_note
    # plain: no counters, no figures (None, never 0)
    plain = collect(generate(engines["plain"], user(COPY), GREEDY)).finished
    assert isinstance(plain, RemoteFinished) and plain.drafted is None and plain.accepted is None


def test_per_request_figures_and_rounds_from_the_server(
    vllm_servers: dict[str, harness.VLLMServer], engines: dict[str, RemoteEngine]
) -> None:
    """Suffix learns from every request, so the same prompt drafts differently when asked again:
    the per-request figures are checked against the server's own counters around the same request."""
    if "suffix" not in engines:
        pytest.skip("the suffix server needs arctic-inference, which did not build")
    before = counters(vllm_servers["suffix"])
    answer = collect(generate(engines["suffix"], user(COPY), GREEDY))
    after = counters(vllm_servers["suffix"])
    fin = answer.finished
    assert isinstance(fin, RemoteFinished) and fin.acceptance_source == "vLLM per-request metrics"
    delta = {name: round(after[name] - before[name]) for name in acc.VLLM_COUNTERS}
    assert fin.drafted == delta["vllm:spec_decode_num_draft_tokens_total"] > 0
    assert fin.accepted == delta["vllm:spec_decode_num_accepted_tokens_total"]
    # "detailed": one round per verification step that drafted, as the server listed them
    assert len(answer.rounds) == delta["vllm:spec_decode_num_drafts_total"]
    assert sum(r.drafted for r in answer.rounds) == fin.drafted
    assert sum(r.accepted for r in answer.rounds) == fin.accepted
    assert fin.completion_tokens == answer.streamed_tokens  # usage, as the server counted


def test_stop_mid_answer_keeps_the_part_and_the_server_answers_again(
    engines: dict[str, RemoteEngine],
) -> None:
    engine = engines["plain"]
    cancel = CancelToken()
    collector = AnswerCollector()
    long = Sampling(temperature=0.0, max_tokens=400, seed=0)
    for event in generate(engine, user("Write a very long story about a dragon."), long, cancel):
        collector.feed(event)
        if isinstance(event, TextDelta) and collector.answer.streamed_tokens >= 5:
            cancel.cancel()
    answer = collector.end()
    assert answer.cancelled and 5 <= answer.streamed_tokens < 400 and answer.text
    again = collect(generate(engine, user("Say hello."), GREEDY))
    assert again.complete and again.text


def test_context_is_trimmed_with_the_servers_tokenizer(engines: dict[str, RemoteEngine]) -> None:
    engine = engines["plain"]
    assert engine.n_ctx == 2048  # max_model_len, from /tokenize
    msgs: list[ChatMessage] = [
        {"role": "system", "content": "Be brief."},
        *user("Name three colors, please."),
    ]
    counted = engine.count_prompt_tokens(msgs)
    fin = collect(generate(engine, msgs, Sampling(temperature=0.0, max_tokens=4))).finished
    assert fin is not None and counted == fin.prompt_tokens > 10
    history: list[ChatMessage] = [{"role": "system", "content": "You are a helpful assistant."}]
    for t in range(80):
        history.append({"role": "user", "content": f"Tell me fact number {t} about the sea and its tides."})
        history.append(
            {
                "role": "assistant",
                "content": f"Fact {t}: the sea covers most of the planet and follows the moon.",
            }
        )
    history.append({"role": "user", "content": "What is the capital of France?"})
    assert engine.count_prompt_tokens(history) > 2048
    fitted = fit_history(history, engine.count_prompt_tokens, engine.n_ctx, 32)
    assert fitted.dropped > 0 and fitted.messages[-1] == history[-1]
    assert engine.count_prompt_tokens(fitted.messages) + 32 <= 2048
    answer = collect(generate(engine, fitted.messages, Sampling(temperature=0.0, max_tokens=32)))
    assert answer.complete and answer.text


def test_a_server_killed_mid_answer_keeps_the_part_in_one_line(
    vllm_env: harness.VLLMEnv, vllm_model: Path, vllm_home: Path
) -> None:
    server = harness.start_server(
        vllm_env,
        vllm_model,
        "doomed",
        vllm_home / "logs",
        None,
        ["--served-model-name", "smollm2"],
        vllm_home,
    )
    try:
        server.wait_ready()
        engine = connect(server)
        collector = AnswerCollector()
        killer = threading.Timer(0.0, server.kill)
        try:
            with pytest.raises(StreamInterrupted) as caught:
                long = Sampling(temperature=0.0, max_tokens=1500, seed=0)
                for event in generate(engine, user("Write a very long story about a dragon."), long):
                    collector.feed(event)
                    if isinstance(event, TextDelta) and collector.answer.streamed_tokens == 8:
                        killer.start()
        finally:
            killer.cancel()
            killer.join()
            engine.close()
        answer = collector.end()
        assert answer.text and answer.cancelled
        fin = answer.finished
        assert isinstance(fin, RemoteFinished) and fin.interrupted and fin.reason == "cancelled"
        message = caught.value.user_message()
        assert "\n" not in str(caught.value) and "cut mid-answer" in message
        assert caught.value.partial_text == answer.text
    finally:
        server.stop()
    assert not server.alive()


def test_generate_json_names_the_method_and_the_servers_figures(
    vllm_servers: dict[str, harness.VLLMServer], capsys: pytest.CaptureFixture[str]
) -> None:
    from app.cli import main

    code = main(
        [
            "generate",
            "--engine",
            "remote",
            "--endpoint",
            vllm_servers["ngram"].url,
            "--prompt",
            COPY,
            "--max-tokens",
            "40",
            "--temperature",
            "0",
            "--json",
        ]
    )
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["method"] == acc.UNNAMED_METHOD and out["draft_depth"] == 4
    assert out["server_kind"] == "vllm" and out["acceptance_source"] == "vLLM /metrics counters"
    assert out["speculation"] is True and out["drafted_total"] > 0
    assert len(out["completion_token_ids"]) == out["completion_tokens"]
