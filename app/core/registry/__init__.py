"""Model registry: families and specs (gguf, mlx) with optional paired drafters."""

from app.core.registry.checks import format_template
from app.core.registry.models import (
    DESCRIPTION_LOCALES,
    Family,
    GGUFSpec,
    MLXSpec,
    SamplingDefaults,
    parse_family,
    reads_images,
)
from app.core.registry.sources import HUBS, HubSource, LocalSource
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
