"""One typed settings schema, versioned, stored as JSON in the config dir.

Hub tokens are never stored here: they live in the OS keyring (``app.core.secrets``). A settings
file carrying token-like keys (hand-edited, or from a tool that put them there) has them dropped
on load and the file rewritten without them.

Versions: each entry of :data:`MIGRATIONS` turns version ``n`` data into version ``n + 1``. A
file from a newer Tandem is read best-effort (unknown keys ignored) and not overwritten silently:
``save`` keeps the higher version number.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from app.core import limits, paths

log = logging.getLogger(__name__)

SCHEMA_VERSION = 2
LANGUAGES: tuple[str, ...] = ("en", "zh_CN", "ja", "ko")
HubName = Literal["huggingface", "modelscope"]

#: Keys that must never be persisted in the settings file (secrets belong in the keyring).
_SECRET_KEYS = frozenset({"token", "hf_token", "modelscope_token", "hub_token", "api_key", "tokens"})


def _v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """v1 had one ``endpoint`` for whichever hub was selected and short language codes."""
    out = dict(data)
    endpoint = out.pop("endpoint", "") or ""
    hub = out.get("hub", "huggingface")
    out.setdefault("hf_endpoint", endpoint if hub == "huggingface" else "")
    out.setdefault("modelscope_endpoint", endpoint if hub == "modelscope" else "")
    lang = out.get("language")
    if lang == "zh":
        out["language"] = "zh_CN"
    return out


MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _v1_to_v2}


class SamplingDefaults(BaseModel):
    model_config = ConfigDict(extra="ignore", validate_assignment=True)

    # ranges from the one table of limits (app.core.limits), as Sampling and the dialogs use
    temperature: Annotated[float, Field(ge=limits.TEMPERATURE.minimum, le=limits.TEMPERATURE.maximum)] = 0.7
    top_p: Annotated[float, Field(gt=limits.TOP_P.minimum, le=limits.TOP_P.maximum)] = 0.95
    top_k: Annotated[int, Field(ge=limits.TOP_K.minimum, le=limits.TOP_K.maximum)] = 40
    max_tokens: Annotated[int, Field(ge=limits.MAX_TOKENS.minimum, le=limits.MAX_TOKENS.maximum)] = 512
    #: 1.0 is off (llama.cpp's own default)
    repeat_penalty: Annotated[
        float, Field(gt=limits.REPEAT_PENALTY.minimum, le=limits.REPEAT_PENALTY.maximum)
    ] = 1.0

    @field_validator("top_k", mode="before")
    @classmethod
    def _top_k_within_table(cls, v: Any) -> Any:
        """Before the one table, the launch dialog stored top-k up to 100 000: keep such a setting
        at the table's maximum instead of refusing the whole settings file."""
        if isinstance(v, int) and not isinstance(v, bool) and v > limits.TOP_K.maximum:
            log.info("stored top-k %d is above %d; using %d", v, limits.TOP_K.maximum, limits.TOP_K.maximum)
            return int(limits.TOP_K.maximum)
        return v


class LastLaunch(BaseModel):
    """What the user last launched: reopened at the next start when its files
    are still on disk. Speculation is stored engine-neutrally: ``speculation_method`` None is off.
    """

    model_config = ConfigDict(extra="ignore")

    family: str
    format: str
    size: str
    quantization: str
    engine: str
    speculation_method: str | None = None
    draft_quantization: str | None = None
    #: a drafter found on this computer for a model that declares none: its file
    draft_model_path: str | None = None
    num_speculative_tokens: Annotated[int | None, Field(ge=1)] = None
    n_ctx: Annotated[int | None, Field(ge=0)] = None
    threads: Annotated[int | None, Field(ge=1)] = None
    sampling: SamplingDefaults | None = None


#: the application's colours: the system's light/dark scheme, or one forced
COLOR_SCHEMES = ("system", "light", "dark")
ColorScheme = Literal["system", "light", "dark"]


class Settings(BaseModel):
    model_config = ConfigDict(extra="ignore", validate_assignment=True)

    version: int = SCHEMA_VERSION
    hub: HubName = "huggingface"
    hf_endpoint: str = ""
    modelscope_endpoint: str = ""
    #: Empty means the default cache location under the user cache dir.
    cache_dir: str = ""
    default_engine: str = "llama.cpp"
    #: Empty means follow the system locale (falling back to English).
    language: str = ""
    #: 0 is Auto: the model's trained context, as far as the memory estimate allows
    context_length: Annotated[int, Field(ge=0)] = 0
    threads: Annotated[int | None, Field(ge=1)] = None
    sampling: SamplingDefaults = Field(default_factory=lambda: SamplingDefaults())
    system_prompt: str = ""
    highlight_draft_tokens: bool = True
    color_scheme: ColorScheme = "system"
    #: Load the embedded model at start so a first run is ready to chat.
    autoload_default_model: bool = True
    #: speculation for launches that carry no choice of their own (first start, the default
    #: model): "auto" measures once per model and engine and picks what pays
    default_speculation: Literal["auto", "off"] = "auto"
    #: the last launch that loaded (None: none yet, or the stored one was unreadable)
    last_model: LastLaunch | None = None
    #: each model's last launch, by its label ("family SIZE QUANT"): a conversation that switches
    #: to the model loads it with these settings
    model_presets: dict[str, LastLaunch] = Field(default_factory=dict)
    #: the Models page downloads a spec's drafter with its target (speculation needs both)
    #: unless the user unticked "with its drafter"; the choice is kept here
    download_drafter_with_target: bool = True

    @field_validator("language")
    @classmethod
    def _language(cls, v: str) -> str:
        if v and v not in LANGUAGES:
            raise ValueError(f"language: {v!r} is not one of {', '.join(LANGUAGES)}")
        return v

    @field_validator("last_model", mode="before")
    @classmethod
    def _last_model(cls, v: Any) -> Any:
        """An empty or unreadable record (older versions stored ``{}``) is dropped on its own,
        never costing the rest of the settings."""
        if not v:
            return None
        if isinstance(v, LastLaunch):
            return v
        try:
            return LastLaunch.model_validate(v)
        except ValidationError as exc:
            log.warning("ignoring the stored last launch (%s)", exc)
            return None

    @field_validator("model_presets", mode="before")
    @classmethod
    def _model_presets(cls, v: Any) -> Any:
        """An unreadable model's preset is dropped on its own (the model then loads with the
        defaults), never costing the others or the rest of the settings."""
        if not isinstance(v, dict):
            return {}
        kept: dict[str, LastLaunch] = {}
        for label, record in v.items():
            try:
                kept[str(label)] = (
                    record if isinstance(record, LastLaunch) else LastLaunch.model_validate(record)
                )
            except ValidationError as exc:
                log.warning("ignoring the stored settings of %s (%s)", label, exc)
        return kept

    @field_validator("hf_endpoint", "modelscope_endpoint")
    @classmethod
    def _endpoint(cls, v: str) -> str:
        v = v.strip()
        if v and not v.startswith(("http://", "https://")):
            raise ValueError(f"endpoint {v!r} must start with http:// or https://")
        return v.rstrip("/")

    def endpoint(self) -> str:
        return self.hf_endpoint if self.hub == "huggingface" else self.modelscope_endpoint

    def model_cache_dir(self) -> Path:
        return Path(self.cache_dir).expanduser() if self.cache_dir else paths.cache_dir() / "models"


def settings_path() -> Path:
    return paths.config_dir() / "settings.json"


def migrate(data: dict[str, Any]) -> dict[str, Any]:
    version = int(data.get("version", 1))
    while version < SCHEMA_VERSION:
        step = MIGRATIONS.get(version)
        if step is None:
            raise ValueError(f"no migration from settings version {version}")
        data = step(data)
        version += 1
        data["version"] = version
    return data


def load(path: Path | None = None) -> Settings:
    """Read settings; a missing or unreadable file gives defaults (and is logged, never raised)."""
    path = path or settings_path()
    try:
        raw = json.loads(path.read_text("utf-8"))
    except FileNotFoundError:
        return Settings()
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        log.warning("settings file %s is unreadable (%s); using defaults", path, exc)
        return Settings()
    if not isinstance(raw, dict):
        log.warning("settings file %s does not hold an object; using defaults", path)
        return Settings()
    leaked = sorted(k for k in raw if k in _SECRET_KEYS)
    for key in leaked:
        raw.pop(key)
    try:
        newer = int(raw.get("version", 1)) > SCHEMA_VERSION
        settings = Settings.model_validate(raw if newer else migrate(raw))
    except (ValidationError, ValueError) as exc:
        log.warning("settings file %s is invalid (%s); using defaults", path, exc)
        return Settings()
    if leaked:
        log.warning("dropped secret-like keys %s from %s; tokens belong in the keyring", leaked, path)
        save(settings, path)
    return settings


def save(settings: Settings, path: Path | None = None) -> None:
    path = path or settings_path()
    data = settings.model_dump(mode="json")
    data["version"] = max(settings.version, SCHEMA_VERSION)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(data, indent=1, ensure_ascii=False), "utf-8")
    os.replace(tmp, path)


#: The sampling fields a family's model card may recommend (``Family.sampling``).
CARD_FIELDS: tuple[str, ...] = ("temperature", "top_p", "top_k", "repeat_penalty")


def starting_sampling(
    defaults: SamplingDefaults, recommended: Any = None
) -> tuple[SamplingDefaults, frozenset[str]]:
    """Where a launch starts: each value the family's model card recommends (``recommended``, a
    registry ``SamplingDefaults``), else Tandem's own default from the settings. Returns the values
    and the names of the fields taken from the card, so a form can say where each value came from.
    """
    values = defaults.model_dump()
    from_card: set[str] = set()
    for name in CARD_FIELDS:
        value = getattr(recommended, name, None)
        if value is not None:
            values[name] = value
            from_card.add(name)
    return SamplingDefaults.model_validate(values), frozenset(from_card)
