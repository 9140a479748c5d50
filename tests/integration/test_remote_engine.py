"""The remote engine against a real llama.cpp server on loopback (xllamacpp's ``Server``).

The server runs the embedded SmolLM2 F32 target with the Q4_1 drafter, bound to 127.0.0.1 with an
API key, started and stopped by the tests. The "killed mid-answer" case runs the same server in a
child process so it can really be killed while it streams.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.cli import main
from app.core.engines.base import (
    CancelToken,
    ChatMessage,
    Finished,
    GenerationError,
    LoadRequest,
    Round,
    Sampling,
    TextDelta,
)
from app.core.engines.blocking import generate
from app.core.engines.llamacpp.engine import LlamaCppEngine
from app.core.engines.remote.endpoints import Endpoint
from app.core.engines.remote.engine import (
    AuthenticationFailed,
    EndpointUnreachable,
    RemoteEngine,
    RemoteFinished,
    RemoteModelNotFound,
    RemoteTimeout,
    StreamInterrupted,
    TLSFailure,
)
from app.core.speculative import SpeculationOptions
from tests.integration.remote_fixtures import KEY, N_MAX, free_port, llama_server, llama_server_process

PROMPTS = ["Count from 1 to 15, one number per line.", "Write a Python function that returns the square."]
GREEDY = Sampling(temperature=0.0, max_tokens=40)


@pytest.fixture(scope="module")
def server_url(smollm2_f32: Path, smollm2_q4: Path) -> Iterator[str]:
    with llama_server(smollm2_f32, smollm2_q4) as url:
        yield url


@pytest.fixture(scope="module")
def in_process(smollm2_f32: Path, smollm2_q4: Path) -> Iterator[LlamaCppEngine]:
    options = SpeculationOptions.build(
        enabled=True, draft_model_path=str(smollm2_q4), num_speculative_tokens=N_MAX
    )
    engine = LlamaCppEngine.load(LoadRequest(str(smollm2_f32), options, n_ctx=1024, n_threads=2))
    yield engine
    engine.close()


@pytest.fixture
def remote(server_url: str) -> Iterator[RemoteEngine]:
    engine = RemoteEngine.connect(Endpoint.parse(server_url), "", KEY)
    yield engine
    engine.close()


def _run(engine: object, prompt: str) -> tuple[str, list[Round], Finished]:
    text, rounds, fin = [], [], None
    for ev in generate(engine, [{"role": "user", "content": prompt}], GREEDY):  # type: ignore[attr-defined]
        if isinstance(ev, TextDelta):
            text.append(ev.text)
        elif isinstance(ev, Round):
            rounds.append(ev)
        elif isinstance(ev, Finished):
            fin = ev
    assert fin is not None
    return "".join(text), rounds, fin


def test_lists_models_and_picks_the_only_one(remote: RemoteEngine, smollm2_f32: Path) -> None:
    assert remote.server_kind == "llama.cpp"
    assert [m.id for m in remote.list_models()] == [remote.model]
    assert remote.model.endswith(smollm2_f32.name)


def test_streamed_text_and_rounds_match_the_in_process_engine(
    smollm2_f32: Path, smollm2_q4: Path, in_process: LlamaCppEngine
) -> None:
    """A server of its own: the module's shared one has answered other tests' requests first in a
    random order, and its drafter's figures then differ from a fresh engine's (the greedy text
    never does)."""
    with llama_server(smollm2_f32, smollm2_q4) as url:
        remote = RemoteEngine.connect(Endpoint.parse(url), "", KEY)
        try:
            _compare_with_in_process(remote, in_process)
        finally:
            remote.close()


def _compare_with_in_process(remote: RemoteEngine, in_process: LlamaCppEngine) -> None:
    for prompt in PROMPTS:
        r_text, r_rounds, r_fin = _run(remote, prompt)
        l_text, l_rounds, l_fin = _run(in_process, prompt)
        assert r_text == l_text and r_text.strip()
        assert isinstance(r_fin, RemoteFinished)
        assert r_fin.acceptance_source == "llama.cpp timings"
        # read from the server's timings, the same round accounting as the in-process engine
        assert r_fin.drafted == r_fin.drafted_total > 0
        assert r_fin.accepted == r_fin.accepted_total > 0
        assert sum(r.emitted for r in r_rounds) == r_fin.completion_tokens == l_fin.completion_tokens
        assert (r_fin.drafted_total, r_fin.accepted_total) == (l_fin.drafted_total, l_fin.accepted_total)
        assert [(r.drafted, r.accepted, r.emitted) for r in r_rounds] == [
            (r.drafted, r.accepted, r.emitted) for r in l_rounds
        ]
        assert r_fin.rounds == len(r_rounds)


def test_sampling_stop_and_max_tokens_reach_the_server(remote: RemoteEngine) -> None:
    sampling = Sampling(temperature=0.0, max_tokens=40, stop=("5",), seed=7)
    text, _rounds, fin = _run_with(remote, PROMPTS[0], sampling)
    assert "4" in text and "5" not in text and fin.reason == "stop"
    text, _rounds, fin = _run_with(remote, PROMPTS[0], Sampling(temperature=0.0, max_tokens=5))
    assert fin.completion_tokens == 5 and fin.reason == "length"


def _run_with(engine: RemoteEngine, prompt: str, sampling: Sampling) -> tuple[str, list[Round], Finished]:
    events = list(generate(engine, [{"role": "user", "content": prompt}], sampling))
    fin = events[-1]
    assert isinstance(fin, Finished)
    text = "".join(e.text for e in events if isinstance(e, TextDelta))
    return text, [e for e in events if isinstance(e, Round)], fin


def test_cancel_keeps_the_text_and_marks_it(remote: RemoteEngine) -> None:
    cancel = CancelToken()
    events = []
    for ev in generate(remote, [{"role": "user", "content": PROMPTS[0]}], GREEDY, cancel):
        events.append(ev)
        if sum(isinstance(e, TextDelta) for e in events) == 3:
            cancel.cancel()
    fin = events[-1]
    assert isinstance(fin, Finished) and fin.reason == "cancelled"
    assert 3 <= fin.completion_tokens < 40
    # the engine still works after a cancel
    assert _run(remote, PROMPTS[1])[2].reason in ("stop", "length")


def test_wrong_key_is_one_line_401(server_url: str) -> None:
    with pytest.raises(AuthenticationFailed) as info:
        RemoteEngine.connect(Endpoint.parse(server_url), "", "wrong-key")
    assert "401" in str(info.value) and "\n" not in str(info.value)
    assert "TANDEM_API_KEY" in info.value.hint


def test_unknown_model_is_refused_with_the_list(server_url: str, smollm2_f32: Path) -> None:
    with pytest.raises(RemoteModelNotFound, match=smollm2_f32.name):
        RemoteEngine.connect(Endpoint.parse(server_url), "no-such-model", KEY)


def test_refused_connection_tls_failure_and_timeout(server_url: str, tmp_path: Path) -> None:
    port = free_port()
    with pytest.raises(EndpointUnreachable, match="connection refused"):
        RemoteEngine.connect(Endpoint.parse(f"http://127.0.0.1:{port}/v1"), "", KEY)
    # a real TLS server on loopback whose certificate nobody here trusts (self-signed)
    with _tls_server(tmp_path) as url, pytest.raises(TLSFailure, match="certificate"):
        RemoteEngine.connect(Endpoint.parse(url), "", KEY)
    # a listener that accepts and never answers
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        url = f"http://127.0.0.1:{silent.getsockname()[1]}/v1"
        with pytest.raises(RemoteTimeout, match="did not answer in time"):
            RemoteEngine.connect(Endpoint.parse(url), "", KEY, timeout_s=1.0)


@contextlib.contextmanager
def _tls_server(tmp_path: Path) -> Iterator[str]:
    import datetime
    import ipaddress
    import ssl

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False
        )
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert_file, key_file)
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    listener.settimeout(30)

    def serve() -> None:
        try:
            conn, _addr = listener.accept()
        except OSError:
            return
        with conn, contextlib.suppress(ssl.SSLError, OSError):  # the client refuses the certificate
            ctx.wrap_socket(conn, server_side=True).close()

    thread = threading.Thread(target=serve, name="test-tls-server")
    thread.start()
    try:
        yield f"https://127.0.0.1:{listener.getsockname()[1]}/v1"
    finally:
        listener.close()
        thread.join(timeout=30)


def test_cli_generate_remote_json_reports_acceptance_from_the_server(
    server_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TANDEM_API_KEY", KEY)
    code = main(
        ["generate", "--engine", "remote", "--endpoint", server_url, "--prompt", PROMPTS[0],
         "--max-tokens", "32", "--json"]
    )  # fmt: skip
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["engine"] == "remote" and out["text"].strip()
    assert out["model"].endswith("SmolLM2-135M-Instruct.F32.gguf")  # the server's only model, picked
    assert out["acceptance_source"] == "llama.cpp timings" and out["server_kind"] == "llama.cpp"
    assert out["drafted_total"] > 0 and 0 < out["accepted_total"] <= out["drafted_total"]
    assert sum(r["emitted"] for r in out["round_details"]) == out["completion_tokens"] == 32


def test_cli_remote_without_key_is_one_line(
    server_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("TANDEM_API_KEY", raising=False)
    code = main(["generate", "--engine", "remote", "--endpoint", server_url, "--prompt", "hi"])
    errors = [ln for ln in capsys.readouterr().err.splitlines() if ln.startswith("tandem: ")]
    assert code == 3
    assert len(errors) == 1 and "401 the API key was refused" in errors[0]


def test_server_killed_mid_answer_keeps_the_partial_text(smollm2_f32: Path, smollm2_q4: Path) -> None:
    with llama_server_process(smollm2_f32, smollm2_q4) as (url, proc):
        engine = RemoteEngine.connect(Endpoint.parse(url), "", KEY)
        events: list[object] = []
        sampling = Sampling(temperature=0.0, max_tokens=400)
        try:
            with pytest.raises(StreamInterrupted) as info:
                for ev in generate(engine, [{"role": "user", "content": "Tell me a long story."}], sampling):
                    events.append(ev)
                    if sum(isinstance(e, TextDelta) for e in events) == 5 and proc.poll() is None:
                        proc.kill()
                        proc.wait(timeout=30)
        finally:
            engine.close()
        text = "".join(e.text for e in events if isinstance(e, TextDelta))
        fin = events[-1]
        assert isinstance(fin, RemoteFinished) and fin.interrupted and fin.reason == "cancelled"
        assert text and info.value.partial_text == text
        assert "cut mid-answer" in str(info.value) and "\n" not in str(info.value)


def test_no_cancel_watcher_is_left_running(remote: RemoteEngine) -> None:
    _run(remote, PROMPTS[1])
    assert not [t for t in threading.enumerate() if t.name == "tandem-remote-cancel"]


def test_context_length_and_token_counts_come_from_the_server(
    remote: RemoteEngine, in_process: LlamaCppEngine
) -> None:
    """The remote engine measures prompts in the server's own tokens, so long chats are trimmed.

    Without a token counter the chat would send the whole history, and the server would refuse it
    once the conversation outgrew its context.
    """
    from app.core.engines.base import TokenCounter

    assert isinstance(remote, TokenCounter)
    assert remote.n_ctx == 1024  # the server's per-slot context (n_ctx 1024, one slot)
    messages: list[ChatMessage] = [
        {"role": "system", "content": "Answer briefly."},
        {"role": "user", "content": "Count from 1 to 15, one number per line."},
    ]
    # the same model and template in process: the same count, chat template included
    assert remote.count_prompt_tokens(messages) == in_process.count_prompt_tokens(messages)


def test_a_long_conversation_is_trimmed_to_the_servers_context(remote: RemoteEngine) -> None:
    from app.core.chat.context import answer_reserve, fit_history

    history: list[ChatMessage] = [{"role": "system", "content": "Answer briefly."}]
    for i in range(40):
        history.append({"role": "user", "content": f"Question {i}: " + "tell me more about rivers " * 6})
        history.append({"role": "assistant", "content": f"Answer {i}: " + "rivers flow to the sea " * 6})
    history.append({"role": "user", "content": "What did I ask first?"})
    assert remote.count_prompt_tokens(history) > remote.n_ctx
    fitted = fit_history(history, remote.count_prompt_tokens, remote.n_ctx, 32)
    assert fitted.dropped > 0 and fitted.messages[0]["role"] == "system"
    assert fitted.messages[-1] == history[-1]
    assert remote.count_prompt_tokens(fitted.messages) <= remote.n_ctx - answer_reserve(remote.n_ctx, 32)
    events = list(generate(remote, fitted.messages, Sampling(temperature=0.0, max_tokens=8)))
    fin = events[-1]
    assert isinstance(fin, Finished) and fin.completion_tokens > 0


def test_structured_output_reaches_llama_server_and_an_unknown_server_refuses(remote: RemoteEngine) -> None:
    schema = {
        "type": "object",
        "properties": {"n": {"type": "integer"}},
        "required": ["n"],
        "additionalProperties": False,
    }
    fmt = {"type": "json_schema", "json_schema": {"name": "n", "schema": schema, "strict": True}}
    prompt: list[ChatMessage] = [{"role": "user", "content": "Pick a number as JSON."}]
    assert remote.supports_structured_output is True
    events = list(generate(remote, prompt, Sampling(temperature=0.0, max_tokens=40), response_format=fmt))
    text = "".join(e.text for e in events if isinstance(e, TextDelta))
    assert set(json.loads(text)) == {"n"}
    remote.server_kind = "openai"  # an OpenAI-compatible server Tandem does not know to constrain output
    assert remote.supports_structured_output is False
    with pytest.raises(GenerationError, match="cannot constrain output"):
        list(generate(remote, prompt, GREEDY, response_format=fmt))
