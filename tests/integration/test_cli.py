"""The headless CLI on the real embedded models (in-process, so model loads stay few)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from app.cli import main
from app.core.engines.base import Event, GenerateRequest


def _gpt2_decoder() -> dict[str, int]:
    """GPT-2 byte-level BPE: the printable stand-in character of each byte (SmolLM2's tokenizer)."""
    keep = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    chars, extra = list(keep), 0
    for b in range(256):
        if b not in keep:
            keep.append(b)
            chars.append(256 + extra)
            extra += 1
    return {chr(c): b for b, c in zip(keep, chars, strict=True)}


def test_generate_default_model_answers_offline(capsys: pytest.CaptureFixture[str], smollm2_q4: Path) -> None:
    from app.core.gguf_tools import read_header

    code = main(["generate", "--prompt", "What is 2 + 2?", "--max-tokens", "16", "--json"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["engine"] == "llama.cpp" and out["speculation"] is False
    assert out["text"].strip() and out["completion_tokens"] > 0
    assert out["completion_tokens"] == sum(r["emitted"] for r in out["round_details"])
    # spec-off token ids are exposed, one per streamed token (an end-of-generation token is counted
    # in completion_tokens but not streamed), and they spell the text (decoded with the GGUF vocab)
    ids = out["completion_token_ids"]
    assert isinstance(ids, list) and all(isinstance(i, int) for i in ids)
    assert len(ids) == out["completion_tokens"] - (1 if out["finish_reason"] == "stop" else 0)
    vocab = read_header(smollm2_q4).fields["tokenizer.ggml.tokens"]
    decoder = _gpt2_decoder()
    assert bytes(decoder[c] for i in ids for c in vocab[i]).decode("utf-8") == out["text"]
    from app.core.registry import Registry

    recommended = Registry.load().get("smollm2-135m-instruct").sampling  # from the model card
    assert recommended.temperature is not None and recommended.top_p is not None
    assert out["sampling"]["temperature"] == recommended.temperature
    assert out["sampling"]["top_p"] == recommended.top_p


@pytest.mark.usefixtures("smollm2_q4")
def test_one_token_answer_reports_no_rate(capsys: pytest.CaptureFixture[str]) -> None:
    """llama.cpp times the single token of a 1-token answer at next to no time: that is no rate at all."""
    assert main(["generate", "--prompt", "Hi", "--max-tokens", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["completion_tokens"] == 1 and out["decode_tokens_per_second"] is None
    assert main(["generate", "--prompt", "Hi", "--max-tokens", "1", "--temperature", "0"]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == "1 tokens, - tok/s, 1 rounds"
    assert "temperature 0," in err[0]  # the flag wins over the family's recommended 0.2


def test_generate_with_declared_drafter(capsys: pytest.CaptureFixture[str], smollm2_f32: Path) -> None:
    code = main(
        ["generate", "smollm2-135m-instruct", "--quant", "F32", "--spec", "on", "--draft-tokens", "4",
         "--prompt", "Count from 1 to 10.", "--max-tokens", "24", "--json"]
    )  # fmt: skip
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["speculation"] is True and out["method"] == "draft"
    assert out["drafter"].endswith("SmolLM2-135M-Instruct.Q4_1.gguf")
    assert out["drafted_total"] > 0 and 0 < out["accepted_total"] <= out["drafted_total"]


def test_parity_command_exit_status(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], smollm2_f32: Path
) -> None:
    prompts = tmp_path / "prompts.txt"
    prompts.write_text("# comment\nCount from 1 to 12.\nName three colours.\n")
    code = main(["parity", "smollm2-135m-instruct", "--quant", "F32", "--prompts", str(prompts),
                 "--max-tokens", "24", "--json"])  # fmt: skip
    lines = [json.loads(ln) for ln in capsys.readouterr().out.splitlines()]
    assert len(lines) == 2
    assert code == (0 if all(r["identical"] for r in lines) else 1)
    assert all(r["compared"].startswith("text") for r in lines)  # drafted ids are not exposed
    assert code == 0, f"greedy spec-on diverged: {lines}"


@pytest.mark.usefixtures("smollm2_q4")
def test_bench_command_reports_both_sides(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    prompts = tmp_path / "prompts.txt"
    prompts.write_text("Repeat: one two three four five one two three four five\n")
    code = main(["bench", "--spec-method", "ngram-mod", "--draft-tokens", "8", "--prompts", str(prompts),
                 "--max-tokens", "16", "--json"])  # fmt: skip
    assert code == 0
    row = json.loads(capsys.readouterr().out.splitlines()[0])
    assert row["off"]["decode_tokens_per_second"] > 0 and row["on"]["decode_tokens_per_second"] > 0
    assert row["ratio"] > 0 and row["off"]["drafted_total"] == 0


def test_unsupported_pair_is_refused_before_loading(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["generate", "gemma-3-270m", "--spec", "on", "--prompt", "hi"])
    assert code == 2
    assert "declares no drafter" in capsys.readouterr().err
    code = main(["generate", "gemma-4", "--format", "mlx", "--size", "E2B", "--engine", "llama.cpp",
                 "--prompt", "hi"])  # fmt: skip
    assert code == 2
    assert "cannot run mlx models" in capsys.readouterr().err


def test_register_and_unregister(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = {
        "name": "my-pair",
        "specs": [{"format": "gguf", "size_in_billions": 1, "quantizations": ["Q4_0"],
                   "model_file_name_template": "m-{quantization}.gguf",
                   "sources": {"huggingface": {"model_id": "me/m-GGUF",
                                               "draft_model_file_name_template": "d.gguf"}}}],
    }  # fmt: skip
    path = tmp_path / "fam.json"
    path.write_text(json.dumps(good))
    assert main(["register", str(path)]) == 0
    assert "registered my-pair" in capsys.readouterr().out
    bad = json.loads(json.dumps(good))
    bad["name"] = "bad-pair"
    bad["specs"][0]["sources"]["huggingface"]["draft_model_id"] = "me/{quantization}"
    path.write_text(json.dumps(bad))
    assert main(["register", str(path)]) == 2
    assert "draft_model_id: unknown placeholder {quantization}" in capsys.readouterr().err
    assert main(["models", "--json"]) == 0
    names = {f["name"] for f in json.loads(capsys.readouterr().out)}
    assert {"my-pair", "gemma-4", "smollm2-135m-instruct"} <= names and "bad-pair" not in names
    assert main(["unregister", "my-pair"]) == 0
    assert main(["unregister", "gemma-4"]) == 2


@pytest.mark.usefixtures("smollm2_q4")
def test_ctrl_c_keeps_the_partial_answer(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from app.core.engines.llamacpp.engine import LlamaCppEngine

    real = LlamaCppEngine.stream

    async def interrupted(self: LlamaCppEngine, request: GenerateRequest) -> AsyncIterator[Event]:
        i = 0
        async for ev in real(self, request):
            if i == 4:
                raise KeyboardInterrupt  # what the terminal delivers on Ctrl-C
            i += 1
            yield ev

    monkeypatch.setattr(LlamaCppEngine, "stream", interrupted)
    code = main(["generate", "--prompt", "Count to ten.", "--max-tokens", "32", "--json"])
    assert code == 130
    out = json.loads(capsys.readouterr().out)
    assert out["finish_reason"] == "cancelled" and out["text"]


def test_spec_errors_are_one_line_not_a_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["generate", "smollm2-135m-instruct", "--quant", "Q8_0", "--prompt", "hi"])
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("tandem: ") and "Traceback" not in err and "Q4_1" in err
