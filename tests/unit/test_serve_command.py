"""serve-command: the registry's drafter translated into vLLM, SGLang and llama-server command lines.

Flag and key names checked against the servers' documentation:
- vLLM: docs/features/speculative_decoding/mtp.md ("Gemma 4 Assistant Models": ``--speculative-config``
  with ``"method": "mtp"``, ``"model"``, ``"num_speculative_tokens"``) and draft_model.md
  (``"method": "draft_model"``); Gemma 4 assistants need vLLM >= 0.22.0 (founding reference).
- SGLang: docs/advanced_features/speculative_decoding.md (0.5.x): ``--speculative-algorithm``
  (NEXTN, STANDALONE), ``--speculative-draft-model-path``, ``--speculative-num-steps``,
  ``--speculative-eagle-topk``, ``--speculative-num-draft-tokens`` ("if topk=1, it is adjusted to
  num_steps + 1"); ``python3 -m sglang.launch_server --model-path``.
- llama.cpp server options (builds with draft-mtp, 2026): ``--model-draft``, ``--spec-type draft-mtp``,
  ``--spec-draft-n-max``.
"""

from __future__ import annotations

import json
import shlex

import pytest

from app.cli import main
from app.core.cache.listing import store_listing
from app.core.cache.remote_files import RemoteFile
from app.core.registry import Registry
from app.core.serving.serve_command import (
    ServeCommand,
    ServeCommandError,
    build,
    llama_server_command,
    sglang_command,
    vllm_command,
)


@pytest.fixture(scope="module")
def registry() -> Registry:
    return Registry.load()


def _flags(cmd: ServeCommand) -> dict[str, str]:
    out: dict[str, str] = {}
    argv = cmd.argv
    for i, arg in enumerate(argv):
        if arg.startswith("--"):
            out[arg] = argv[i + 1] if i + 1 < len(argv) and not argv[i + 1].startswith("--") else ""
    return out


def test_vllm_gemma4_assistant_is_mtp_with_the_size_table_depth(registry: Registry) -> None:
    cmd = build(registry, "gemma-4", "vllm", size="E4B")
    assert cmd.argv[:3] == ["vllm", "serve", "google/gemma-4-E4B-it"]
    config = json.loads(_flags(cmd)["--speculative-config"])
    assert config == {
        "method": "mtp",
        "model": "google/gemma-4-E4B-it-assistant",
        "num_speculative_tokens": 4,
    }
    assert any("vllm>=0.22.0" in c for c in cmd.comments)
    assert (
        json.loads(_flags(build(registry, "gemma-4", "vllm", size="E2B"))["--speculative-config"])[
            "num_speculative_tokens"
        ]
        == 2
    )
    deeper = build(registry, "gemma-4", "vllm", size="26B-A4B", draft_tokens="6")
    assert deeper.speculative["num_speculative_tokens"] == 6
    assert deeper.speculative["model"] == "google/gemma-4-26B-A4B-it-assistant"


def test_vllm_classic_pair_is_draft_model_with_default_one(registry: Registry) -> None:
    cmd = build(
        registry, "smollm2-135m-instruct", "vllm", model_id="org/target", draft_model_id="org/small-draft"
    )
    assert cmd.speculative == {
        "method": "draft_model",
        "model": "org/small-draft",
        "num_speculative_tokens": 1,
    }
    assert not any("0.22.0" in c for c in cmd.comments)


def test_sglang_gemma4_is_nextn_with_consistent_steps_topk_and_draft_tokens(registry: Registry) -> None:
    cmd = build(registry, "gemma-4", "sglang", size="E4B")
    assert cmd.argv[:5] == ["python3", "-m", "sglang.launch_server", "--model-path", "google/gemma-4-E4B-it"]
    f = _flags(cmd)
    assert f["--speculative-algorithm"] == "NEXTN"
    assert f["--speculative-draft-model-path"] == "google/gemma-4-E4B-it-assistant"
    assert (
        f["--speculative-num-draft-tokens"],
        f["--speculative-num-steps"],
        f["--speculative-eagle-topk"],
    ) == (
        "4",
        "3",
        "1",
    )
    e2b = _flags(build(registry, "gemma-4", "sglang", size="E2B"))
    assert (e2b["--speculative-num-draft-tokens"], e2b["--speculative-num-steps"]) == ("2", "1")
    one = _flags(build(registry, "gemma-4", "sglang", size="E2B", draft_tokens=1))
    assert (one["--speculative-num-draft-tokens"], one["--speculative-num-steps"]) == ("1", "1")


def test_sglang_classic_pair_is_standalone_with_default_six(registry: Registry) -> None:
    cmd = build(registry, "smollm2-135m-instruct", "sglang", model_id="org/t", draft_model_id="org/d")
    assert cmd.speculative == {
        "speculative_algorithm": "STANDALONE",
        "speculative_draft_model_path": "org/d",
        "speculative_num_steps": 5,
        "speculative_eagle_topk": 1,
        "speculative_num_draft_tokens": 6,
    }


@pytest.mark.parametrize("bad", ["0", 0, "-2", -1, "1.5", 2.5, "abc", True])
@pytest.mark.parametrize("engine", ["vllm", "sglang", "llama-server"])
def test_depth_goes_through_the_shared_validator(registry: Registry, engine: str, bad: object) -> None:
    with pytest.raises(ServeCommandError):
        build(registry, "gemma-4", engine, size="E4B", draft_tokens=bad)


def test_vllm_explicit_native_config_wins(registry: Registry) -> None:
    native = {"speculative_config": {"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 4}}
    cmd = build(registry, "gemma-4", "vllm", size="E4B", draft_tokens="6", native=json.dumps(native))
    assert cmd.native and cmd.speculative == native["speculative_config"]
    assert "google/gemma-4-E4B-it-assistant" not in " ".join(cmd.argv)  # drafter not added
    assert '"num_speculative_tokens": 6' not in " ".join(cmd.argv)  # neutral depth not added
    # the depth inside a native config goes through the same validator
    with pytest.raises(ServeCommandError, match="at least 1"):
        vllm_command(
            "t", "d", True, 4, {"speculative_config": {"method": "mtp", "num_speculative_tokens": 0}}
        )
    # other native keys become flags; the speculative config stays translated
    extra = vllm_command("t", "d", True, 4, {"max_model_len": 8192, "enforce_eager": True})
    assert extra.argv[-3:] == ["--max-model-len", "8192", "--enforce-eager"]


def test_sglang_explicit_native_algorithm_wins_and_draft_tokens_key_wins(registry: Registry) -> None:
    cmd = sglang_command(
        "t", "drafter", True, 4, {"speculative_algorithm": "EAGLE3", "speculative_draft_model_path": "eagle"}
    )
    assert cmd.native and cmd.speculative == {
        "speculative_algorithm": "EAGLE3",
        "speculative_draft_model_path": "eagle",
    }
    assert "drafter" not in cmd.argv and "--speculative-num-draft-tokens" not in cmd.argv
    # an explicit speculative_num_draft_tokens wins over --draft-tokens (validated the same way)
    n5 = sglang_command("t", "d", True, 4, {"speculative-num-draft-tokens": "5"})
    assert not n5.native
    assert (n5.speculative["speculative_num_draft_tokens"], n5.speculative["speculative_num_steps"]) == (5, 4)
    with pytest.raises(ServeCommandError):
        sglang_command("t", "d", True, 4, {"speculative_num_draft_tokens": "0"})
    with pytest.raises(ServeCommandError):
        sglang_command("t", "d", True, 4, {"speculative_eagle_topk": 0})


def test_llama_server_gemma4_from_the_gguf_declaration(registry: Registry) -> None:
    # no listing known: the drafter is the registry's pattern (either naming Unsloth used), fetched
    # with --include and expanded by the shell
    cmd = build(registry, "gemma-4", "llama-server", size="E4B", quant="Q4_K_M")
    f = _flags(cmd)
    assert cmd.argv[:3] == ["llama-server", "-m", "gemma-4-E4B-it-GGUF/gemma-4-E4B-it-Q4_K_M.gguf"]
    assert f["--model-draft"] == "gemma-4-E4B-it-GGUF/MTP/*gemma-4-E4B-it-BF16*.gguf"
    assert f["--spec-type"] == "draft-mtp" and f["--spec-draft-n-max"] == "4"
    assert (
        "download first: hf download unsloth/gemma-4-E4B-it-GGUF gemma-4-E4B-it-Q4_K_M.gguf "
        '--include "MTP/*gemma-4-E4B-it-BF16*.gguf" --local-dir gemma-4-E4B-it-GGUF'
    ) in cmd.comments
    # a listing fetched earlier: the repository's own names
    store_listing(
        "huggingface",
        "unsloth/gemma-4-E4B-it-GGUF",
        "main",
        [RemoteFile("gemma-4-E4B-it-Q4_K_M.gguf", 5), RemoteFile("MTP/mtp-gemma-4-E4B-it-Q8_0.gguf", 1)],
    )
    q8 = build(registry, "gemma-4", "llama-server", size="E4B", quant="Q4_K_M", draft_quant="Q8_0")
    assert _flags(q8)["--model-draft"] == "gemma-4-E4B-it-GGUF/MTP/mtp-gemma-4-E4B-it-Q8_0.gguf"
    assert (
        "download first: hf download unsloth/gemma-4-E4B-it-GGUF gemma-4-E4B-it-Q4_K_M.gguf "
        "MTP/mtp-gemma-4-E4B-it-Q8_0.gguf --local-dir gemma-4-E4B-it-GGUF"
    ) in q8.comments
    with pytest.raises(ServeCommandError, match="not declared"):
        build(registry, "gemma-4", "llama-server", size="E4B", quant="Q4_K_M", draft_quant="Q2_K")


def test_llama_server_native_selector_makes_it_user_driven() -> None:
    cmd = llama_server_command("t.gguf", "d.gguf", True, 4, {"speculative.types": ["ngram_mod"]})
    assert cmd.native and cmd.argv == ["llama-server", "-m", "t.gguf", "--spec-type", "ngram-mod"]
    tuned = llama_server_command("t.gguf", "d.gguf", True, 4, {"speculative.draft.p_min": 0.5})
    assert not tuned.native and _flags(tuned)["--model-draft"] == "d.gguf"  # a tuning knob keeps the drafter
    assert _flags(tuned)["--spec-draft-p-min"] == "0.5"
    with pytest.raises(ServeCommandError):
        llama_server_command("t.gguf", "d.gguf", True, 4, {"speculative.draft.n_max": -1})


def test_unsupported_combinations_say_why(registry: Registry) -> None:
    with pytest.raises(ServeCommandError, match="no place to attach a drafter"):
        build(registry, "gemma-4", "transformers", size="E4B")
    with pytest.raises(ServeCommandError, match="serves the original checkpoint"):
        build(registry, "gemma-4", "vllm", size="E4B", quant="Q4_K_M")
    with pytest.raises(ServeCommandError, match="--model-id"):
        build(registry, "smollm2-135m-instruct", "sglang")
    with pytest.raises(ServeCommandError, match="declares no drafter"):
        build(registry, "gemma-3-270m", "llama-server")
    with pytest.raises(ServeCommandError, match="not valid JSON"):
        build(registry, "gemma-4", "vllm", size="E4B", native="{oops")


def test_shell_text_is_the_argv(registry: Registry) -> None:
    for engine in ("vllm", "sglang"):
        cmd = build(registry, "gemma-4", engine, size="E4B")
        body = "\n".join(ln for ln in cmd.shell().splitlines() if not ln.startswith("#"))
        assert shlex.split(body.replace("\\\n", " ")) == cmd.argv


def test_cli_serve_command_prints_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve-command", "gemma-4", "--size", "E4B", "--engine", "vllm"]) == 0
    out = capsys.readouterr().out
    assert "vllm serve google/gemma-4-E4B-it" in out and '"method": "mtp"' in out
    assert main(["serve-command", "gemma-4", "--size", "E4B", "--engine", "sglang", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["speculative"]["speculative_algorithm"] == "NEXTN"
    assert main(["serve-command", "gemma-4", "--size", "E4B", "--engine", "vllm", "--draft-tokens", "0"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("tandem: serve-command:")
