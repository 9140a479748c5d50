"""Import a model from disk.

A ``.gguf`` file or an MLX folder (``config.json`` + ``*.safetensors``) becomes a user family with
a ``local`` source, in the registry schema (the file ``tandem register`` writes). The details come
from the file itself where it says them: the GGUF header's quantization (``general.file_type``),
size label, context length and name; else from the file name. Importing the same path twice
returns the family already registered for it.

:func:`find_drafters` then runs the compatible-drafter finder for it, over the imported file's
folder, the local files of registered families and Tandem's cache.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from app.core import assets, gguf_tools
from app.core.cache import listing
from app.core.catalog import drafters as finder
from app.core.catalog.search import family_name, quant_of, size_from_name
from app.core.gguf_tools import GGUFFormatError
from app.core.registry import AnySpec, Family, Registry, RegistryError


class ModelImportError(RegistryError):
    """The path cannot be imported; the message is one line for the user."""


def is_mlx_folder(path: Path) -> bool:
    return path.is_dir() and (path / "config.json").is_file() and any(path.glob("*.safetensors"))


def importable(path: Path) -> bool:
    """What a drop or the file dialog may offer: a ``.gguf`` file or an MLX folder."""
    return (path.is_file() and path.suffix.lower() == ".gguf") or is_mlx_folder(path)


def _file_type_name(value: Any) -> str | None:
    try:
        from gguf.constants import LlamaFileType

        name = LlamaFileType(int(value)).name
    except (ValueError, TypeError):
        return None
    return name.removeprefix("MOSTLY_").removeprefix("ALL_")


def _size_label(label: Any) -> float | None:
    return size_from_name(f"x-{label}") if isinstance(label, str) else None


def gguf_family(path: Path, registry: Registry) -> dict[str, Any]:
    try:
        fields = gguf_tools.read_header(path).fields
    except (GGUFFormatError, OSError) as exc:
        raise ModelImportError(f"cannot import {path.name}: {exc}") from None
    _logical, part, _total = listing.logical_name(path.name)
    if part > 1:
        raise ModelImportError(
            f"{path.name} is a later part of a split model; import its first part (-00001-of-...)"
        )
    quant = quant_of(path.name) or _file_type_name(fields.get("general.file_type")) or "default"
    arch = fields.get("general.architecture")
    ctx = fields.get(f"{arch}.context_length") if arch else None
    size = _size_label(fields.get("general.size_label")) or size_from_name(path.stem)
    if size is None:
        from app.core.catalog.fit import estimated_weights, weights_bytes

        per_billion = estimated_weights(1.0, quant) or int(1e9 * 4.5 / 8)
        size = max(round(weights_bytes(path) / per_billion, 3), 0.001)
    name = str(fields.get("general.name") or "").strip()
    return {
        "name": family_name(path.stem, registry),
        "description": f"Imported from {path}" + (f" ({name})" if name else ""),
        "context_length": int(ctx) if isinstance(ctx, int) and ctx > 0 else 4096,
        "abilities": ["chat"],
        "architectures": [str(arch)] if arch else [],
        "specs": [
            {
                "format": "gguf",
                "size_in_billions": size,
                "quantizations": [quant],
                "sources": {"local": {"path": str(path)}},
            }
        ],
    }


def mlx_family(path: Path, registry: Registry) -> dict[str, Any]:
    try:
        config = json.loads((path / "config.json").read_text("utf-8"))
    except (OSError, ValueError) as exc:
        raise ModelImportError(
            f"cannot import {path.name}: config.json is not readable JSON ({exc})"
        ) from None
    bits = (config.get("quantization") or {}).get("bits") if isinstance(config, dict) else None
    quant = f"{bits}bit" if isinstance(bits, int) else "default"
    weights = sum(p.stat().st_size for p in path.glob("*.safetensors"))
    bpw = bits + 0.5 if isinstance(bits, int) else 16
    size = size_from_name(path.name) or max(round(weights * 8 / bpw / 1e9, 3), 0.001)
    ctx = config.get("max_position_embeddings") if isinstance(config, dict) else None
    return {
        "name": family_name(path.name, registry),
        "description": f"Imported from {path}",
        "context_length": int(ctx) if isinstance(ctx, int) and ctx > 0 else 4096,
        "abilities": ["chat"],
        "specs": [
            {
                "format": "mlx",
                "size_in_billions": size,
                "quantizations": [quant],
                "sources": {"local": {"path": str(path)}},
            }
        ],
    }


def registered_for(path: Path, registry: Registry) -> tuple[Family, AnySpec] | None:
    """The user family already importing ``path``, if any."""
    real = path.resolve()
    for name in registry.user_files:
        fam = registry.families.get(name)
        for spec in fam.specs if fam else []:
            local = spec.sources.local
            if (
                local is not None
                and not assets.is_embedded(local.path)
                and "{" not in local.path
                and Path(local.path).expanduser().resolve() == real
            ):
                assert fam is not None
                return fam, spec
    return None


def import_path(path: Path, registry: Registry) -> tuple[Family, bool]:
    """Register ``path`` as a user family: ``(family, created)`` (False: it was already there)."""
    path = path.expanduser()
    if not path.exists():
        raise ModelImportError(f"{path}: no such file or folder")
    path = path.resolve()
    if not importable(path):
        raise ModelImportError(
            f"{path.name}: not a model Tandem can import; choose a .gguf file or an MLX folder "
            "(config.json and .safetensors weights)"
        )
    known = registered_for(path, registry)
    if known is not None:
        return known[0], False
    data = gguf_family(path, registry) if path.is_file() else mlx_family(path, registry)
    return registry.register(data), True


def _local_model_files(registry: Registry) -> list[Path]:
    """Local GGUF files of registered families that are on disk now (nothing is derived)."""
    out: list[Path] = []
    for fam in registry.families.values():
        for spec in fam.specs:
            local = spec.sources.local
            if spec.format != "gguf" or local is None:
                continue
            names = [local.path, local.draft_path or ""]
            quants = spec.quantizations + (local.draft_quantizations or [])
            for template in names:
                for q in quants if "{" in template else [""]:
                    raw = template.replace("{quantization}", q).replace("{draft_quantization}", q)
                    if not raw or "{" in raw or assets.needs_preparation(raw):
                        continue
                    try:
                        p = assets.resolve(raw)
                    except (OSError, ValueError):
                        continue
                    if p.is_file():
                        out.append(p)
    return list(dict.fromkeys(out))


def find_drafters(path: Path, registry: Registry) -> list[finder.Candidate]:
    """Drafter candidates for an imported model (compatible and not), best first: files next to
    it, in the folders of registered local models, and Tandem's cache entries."""
    folders = [path.parent, *(p.parent for p in _local_model_files(registry))]
    folders = list(dict.fromkeys(f for f in folders if f.is_dir()))
    find = finder.mlx_candidates if path.is_dir() else finder.local_candidates
    cands = find(path, folders)
    cands.sort(key=lambda c: (not c.compatible, -(c.size_bytes or 0)))
    return cands


def attach_drafter(registry: Registry, family: Family, drafter: Path) -> Family:
    """Re-register ``family`` (an imported one) with ``drafter`` as its local drafter, so the
    launch dialog offers it like a declared one."""
    if family.name not in registry.user_files:
        raise ModelImportError(f"{family.name} is not a user family; only imported models can be changed")
    data = family.model_dump(mode="json", exclude_none=True)
    local = data["specs"][0]["sources"].get("local")
    if local is None:
        raise ModelImportError(f"{family.name} has no local file to pair a drafter with")
    local["draft_path"] = str(drafter.resolve())
    quant = quant_of(drafter.name)
    if quant:
        local["draft_quantizations"] = [quant]
    else:
        local.pop("draft_quantizations", None)
    return registry.register(data, replace=True)
