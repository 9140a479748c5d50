"""What a model set serves: one :class:`ModelEntry` per model id, from a folder of GGUF files, the
models Tandem knows that are on disk, and a presets file (INI, as llama-server's router reads it:
a ``[*]`` section for every model, then one section per id).

A folder's models are its GGUF files (one level of sub-folders too); a file's id is its name
without ``.gguf`` (split files: the first part's name without the part suffix). A vision projector
(``mmproj*``) is not a model, and neither is a drafter-shaped file (an assistant, ``draft-``,
``mtp-``...): it becomes the drafter of the model in its folder whose name it shares most of.
"""

from __future__ import annotations

import configparser
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, cast

from app.core.cache import listing
from app.core.speculative.per_request import Speculation

#: a split GGUF's part suffix (``-00001-of-00003.gguf``)
_PART = re.compile(r"-(\d{5})-of-(\d{5})$", re.IGNORECASE)
#: the keys of a presets section: each key's accepted spellings (llama-server's long option names
#: without the dashes, and Tandem's own)
_KEYS: dict[str, tuple[str, ...]] = {
    "path": ("model", "m", "path"),
    "draft_path": ("model-draft", "md", "draft"),
    "speculation": ("spec", "speculation"),
    "ctx": ("ctx-size", "c", "ctx"),
    "slots": ("parallel", "np", "slots"),
    "threads": ("threads", "t"),
    "ttl_s": ("ttl", "sleep-idle-seconds", "idle"),
    "load_on_startup": ("load-on-startup",),
    "pinned": ("pinned",),
    "aliases": ("alias", "aliases"),
    "tool_parser": ("tool-parser",),
    "mmproj": ("mmproj",),
}
_KEY_OF = {spelling: name for name, spellings in _KEYS.items() for spelling in spellings}


class ModelSetError(ValueError):
    """A model set that cannot be served as given (a presets file, a folder); the message says
    where and what to do."""


@dataclass(frozen=True)
class ModelEntry:
    """One model a set serves, and the settings it loads with (None: the server's default)."""

    id: str
    #: the GGUF file (or, for a model Tandem knows, the registry name it resolves from)
    path: str = ""
    draft_path: str | None = None
    #: ``auto``, ``off`` or a method; None: the server's ``--spec`` (speculation off when unset)
    speculation: str | None = None
    ctx: int | None = None
    slots: int | None = None
    threads: int | None = None
    #: seconds idle before the model is unloaded; None: the server's ``--models-ttl``
    ttl_s: float | None = None
    load_on_startup: bool = False
    #: never unloaded by the server (idle time, room for another model); an explicit unload still does
    pinned: bool = False
    #: other names requests may use for it (a client's ``claude-haiku-*`` for a small model)
    aliases: tuple[str, ...] = ()
    tool_parser: str | None = None
    mmproj: str | None = None
    #: a model Tandem knows: the registry's (name, format, size, quantization); the path follows
    #: from the download cache when the model loads
    registry: tuple[str, str, str, str] | None = None

    def answers_to(self, name: str) -> bool:
        """Whether a request's ``model`` names this entry: its id, an alias (a trailing ``*`` in an
        alias matches any ending: ``claude-haiku-*``), or its file name."""
        if name == self.id or (self.path and name == Path(self.path).name):
            return True
        for alias in self.aliases:
            if alias.endswith("*") and name.startswith(alias[:-1]):
                return True
            if alias == name:
                return True
        return False


def model_id_of(path: Path) -> str:
    """A GGUF file's model id: its name without ``.gguf`` and without a split part's suffix."""
    stem = path.name[: -len(".gguf")] if path.name.lower().endswith(".gguf") else path.stem
    return _PART.sub("", stem)


def is_projector_file(path: Path) -> bool:
    return "mmproj" in path.name.lower()


def _first_part(path: Path) -> bool:
    m = _PART.search(path.name[: -len(".gguf")] if path.name.lower().endswith(".gguf") else path.stem)
    return m is None or int(m.group(1)) == 1


def _shared_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a.lower(), b.lower(), strict=False):
        if x != y:
            break
        n += 1
    return n


def entries_from_dir(folder: Path) -> list[ModelEntry]:
    """The models of a folder of GGUF files (see the module docstring); :class:`ModelSetError`
    when the folder does not exist or holds no model."""
    if not folder.is_dir():
        raise ModelSetError(f"--models-dir {folder}: no such folder")
    files = sorted(
        p
        for pattern in ("*.gguf", "*/*.gguf", "*.GGUF", "*/*.GGUF")
        for p in folder.glob(pattern)
        if p.is_file()
    )
    by_folder: dict[Path, tuple[list[Path], list[Path]]] = {}
    for path in dict.fromkeys(files):
        if is_projector_file(path) or not _first_part(path):
            continue
        targets, drafters = by_folder.setdefault(path.parent, ([], []))
        (drafters if listing.is_drafter_file(path.name) else targets).append(path)
    entries: list[ModelEntry] = []
    for targets, drafters in by_folder.values():
        paired: dict[Path, Path] = {}
        for drafter in drafters:
            best = max(targets, key=lambda t: _shared_prefix(t.name, drafter.name), default=None)
            if best is not None and (len(targets) == 1 or _shared_prefix(best.name, drafter.name) >= 4):
                paired.setdefault(best, drafter)
        for target in targets:
            mate = paired.get(target)
            entries.append(ModelEntry(model_id_of(target), str(target), str(mate) if mate else None))
    if not entries:
        raise ModelSetError(f"--models-dir {folder}: no GGUF model in it (drafters and projectors aside)")
    return _unique(entries, f"--models-dir {folder}")


def _unique(entries: Sequence[ModelEntry], where: str) -> list[ModelEntry]:
    seen: dict[str, ModelEntry] = {}
    for entry in entries:
        if entry.id in seen:
            raise ModelSetError(
                f"{where}: two models are named {entry.id!r} ({seen[entry.id].path} and {entry.path}); "
                "rename one, or give them ids in a presets file"
            )
        seen[entry.id] = entry
    return list(seen.values())


def _bool(value: str, where: str) -> bool:
    text = value.strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off", ""):
        return False
    raise ModelSetError(f"{where}: expected true or false, got {value!r}")


def _number(value: str, where: str, minimum: int) -> int:
    try:
        n = int(value.strip())
    except ValueError:
        raise ModelSetError(f"{where}: expected a whole number, got {value!r}") from None
    if n < minimum:
        raise ModelSetError(f"{where}: must be at least {minimum}, got {n}")
    return n


def _settings(section: Mapping[str, str], where: str, base: Path) -> dict[str, object]:
    """One presets section's settings by :class:`ModelEntry` field."""
    out: dict[str, object] = {}
    for key, raw in section.items():
        name = _KEY_OF.get(key.strip().lower())
        at = f"{where}, {key}"
        if name is None:
            known = ", ".join(s[0] for s in _KEYS.values())
            raise ModelSetError(f"{at}: not a setting Tandem reads (known: {known})")
        value = raw.strip()
        if name in ("path", "draft_path", "mmproj"):
            if not value:
                raise ModelSetError(f"{at}: empty path")
            path = Path(value).expanduser()
            out[name] = str(path if path.is_absolute() else base / path)
        elif name == "speculation":
            try:
                out[name] = Speculation.parse(value).name
            except ValueError as exc:
                raise ModelSetError(f"{at}: {exc}") from None
        elif name in ("ctx", "slots", "threads"):
            out[name] = _number(value, at, {"ctx": 256, "slots": 1, "threads": 1}[name])
        elif name == "ttl_s":
            out[name] = float(_number(value, at, 1))
        elif name in ("load_on_startup", "pinned"):
            out[name] = _bool(value, at)
        elif name == "aliases":
            out[name] = tuple(a.strip() for a in value.split(",") if a.strip())
        else:
            out[name] = value or None
    return out


class _Parser(configparser.ConfigParser):
    """An INI reader whose keys keep their case (they are checked against the known spellings)."""

    def optionxform(self, optionstr: str) -> str:
        return optionstr


def read_presets(path: Path, known: Iterable[ModelEntry] = ()) -> list[ModelEntry]:
    """The entries of a presets file, over ``known`` ones (a folder's, the downloaded models'):
    a section named as a known id changes that model's settings, another section adds a model
    (it needs ``model = PATH``); ``[*]`` applies to every model where its section says nothing.
    :class:`ModelSetError` names the file, the section and the key that is wrong."""
    parser = _Parser(interpolation=None, default_section="\0none")
    try:
        with path.open(encoding="utf-8") as fh:
            parser.read_file(fh)
    except OSError as exc:
        raise ModelSetError(f"--models-preset {path}: {exc.strerror or exc}") from None
    except (configparser.Error, UnicodeDecodeError) as exc:
        raise ModelSetError(f"--models-preset {path}: not an INI file ({exc})") from None
    base = path.parent
    defaults = _settings(parser["*"], f"{path} [*]", base) if parser.has_section("*") else {}
    if "path" in defaults or "aliases" in defaults:
        raise ModelSetError(f"{path} [*]: model and alias belong to one model's section")
    entries = {e.id: e for e in known}
    own: dict[str, dict[str, object]] = {}
    for name in parser.sections():
        if name == "*":
            continue
        settings = _settings(parser[name], f"{path} [{name}]", base)
        if name not in entries and "path" not in settings:
            raise ModelSetError(
                f"{path} [{name}]: no model of that id is served; give its file with model = PATH"
            )
        own[name] = settings
        entries[name] = replace(entries.get(name) or ModelEntry(name), **cast(dict[str, Any], settings))
    out: list[ModelEntry] = []
    for entry in entries.values():
        mine = own.get(entry.id, {})
        inherited = {k: v for k, v in defaults.items() if k not in mine}
        out.append(replace(entry, **cast(dict[str, Any], inherited)))
    _check_aliases(out, str(path))
    return out


def _check_aliases(entries: Sequence[ModelEntry], where: str) -> None:
    ids = {e.id for e in entries}
    for entry in entries:
        for alias in entry.aliases:
            if alias in ids and alias != entry.id:
                raise ModelSetError(f"{where} [{entry.id}]: alias {alias!r} is another model's id")


@dataclass(frozen=True)
class EntryIndex:
    """Request names -> entries: ids first, then aliases and file names."""

    entries: tuple[ModelEntry, ...] = field(default_factory=tuple)

    def find(self, name: str) -> ModelEntry | None:
        for entry in self.entries:
            if entry.id == name:
                return entry
        for entry in self.entries:
            if entry.answers_to(name):
                return entry
        return None

    @property
    def ids(self) -> list[str]:
        return [e.id for e in self.entries]
