"""Model registry: families and specs (gguf, mlx) with optional paired drafters."""

from app.core.registry.models import (
    DESCRIPTION_LOCALES,
    HUBS,
    Family,
    GGUFSpec,
    HubSource,
    LocalSource,
    MLXSpec,
    SamplingDefaults,
    format_template,
    parse_family,
    reads_images,
)
from app.core.registry.store import AnySpec, InvalidEntry, Registry, RegistryError, load_family

__all__ = [
    "DESCRIPTION_LOCALES",
    "HUBS",
    "AnySpec",
    "Family",
    "GGUFSpec",
    "HubSource",
    "InvalidEntry",
    "LocalSource",
    "MLXSpec",
    "Registry",
    "RegistryError",
    "SamplingDefaults",
    "format_template",
    "load_family",
    "parse_family",
    "reads_images",
]
