"""``tandem serve-command --engine vllm``: the printed command starts a real vLLM that drafts.

The command is taken from the printed text (comments skipped, ``\\`` continuations joined, split
as a shell would), the Hugging Face ids replaced by the converted local folder (no hub here) and
only this machine's runtime flags appended (loopback port, eager mode, context length).
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from app.cli import main
from app.core.answer import collect
from app.core.engines.base import Sampling
from app.core.engines.blocking import generate
from app.core.engines.remote import acceptance as acc
from app.core.engines.remote.endpoints import Endpoint
from app.core.engines.remote.engine import RemoteEngine, RemoteFinished
from app.devtools import vllm_servers as harness

#: the first test also waits for the tier's setup (a venv build on a first run, servers starting)
pytestmark = [pytest.mark.vllm, pytest.mark.timeout(1800)]

HUB_ID = "HuggingFaceTB/SmolLM2-135M-Instruct"


def printed_argv(text: str) -> list[str]:
    lines = [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return shlex.split(" ".join(line.rstrip().removesuffix("\\") for line in lines))


def test_the_printed_vllm_command_starts_a_server_that_drafts(
    vllm_env: harness.VLLMEnv,
    vllm_model: Path,
    vllm_home: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(
        [
            "serve-command",
            "smollm2-135m-instruct",
            "--engine",
            "vllm",
            "--model-id",
            HUB_ID,
            "--draft-model-id",
            HUB_ID,
            "--draft-tokens",
            "3",
        ]
    )
    assert code == 0
    argv = printed_argv(capsys.readouterr().out)
    assert argv[:3] == ["vllm", "serve", HUB_ID]
    assert "--speculative-config" in argv
    argv = [str(vllm_model) if a == HUB_ID else a for a in argv]
    argv = [a.replace(HUB_ID, str(vllm_model)) for a in argv]  # the drafter inside the JSON config
    argv[0] = str(vllm_env.python.parent / "vllm")
    port = harness.free_port()
    argv += ["--host", "127.0.0.1", "--port", str(port), "--enforce-eager", "--max-model-len", "2048"]
    argv += ["--served-model-name", "smollm2"]
    server = harness.start_command(
        "serve-command", argv, vllm_home / "logs" / "serve-command.log", harness.server_env(vllm_home)
    )
    try:
        server.wait_ready()
        engine = RemoteEngine.connect(Endpoint.parse(server.url))
        try:
            assert engine.server_method.method == acc.UNNAMED_METHOD and engine.server_method.depth == 3
            answer = collect(
                generate(
                    engine,
                    [{"role": "user", "content": "Name three rivers in Europe."}],
                    Sampling(temperature=0.0, max_tokens=32, seed=0),
                )
            )
        finally:
            engine.close()
        fin = answer.finished
        assert isinstance(fin, RemoteFinished) and answer.complete and answer.text
        # the drafter is the target itself: it drafts, and greedy acceptance is (nearly) total
        assert fin.drafted and fin.accepted is not None and fin.accepted >= 0.8 * fin.drafted
    finally:
        server.stop()
