"""Builtin + user-registered families, loaded into validated objects.

A broken user file is reported (which file, which entry, why) and skipped: it never breaks the
listing or the builtin families.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from app.core import paths
from app.core.registry.models import Family, GGUFSpec, MLXSpec, parse_family

log = logging.getLogger(__name__)

AnySpec = GGUFSpec | MLXSpec


class RegistryError(ValueError):
    """A family could not be registered or resolved; the message is for the user."""


def describe_validation_error(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        loc = ".".join(str(p) for p in err["loc"] if not (isinstance(p, str) and p in ("gguf", "mlx")))
        msg = str(err["msg"]).removeprefix("Value error, ")
        parts.append(f"{loc}: {msg}" if loc and not msg.startswith(loc.split(".")[-1]) else msg)
    return "; ".join(parts)


def load_family(data: Any, where: str) -> Family:
    try:
        return parse_family(data)
    except ValidationError as exc:
        name = data.get("name") if isinstance(data, dict) else None
        label = f"{where} (family {name!r})" if name else where
        raise RegistryError(f"{label}: {describe_validation_error(exc)}") from exc


@dataclass(frozen=True)
class InvalidEntry:
    """A user family that failed validation; listed with its reason instead of crashing."""

    name: str
    source: str
    reason: str


@dataclass
class Registry:
    families: dict[str, Family] = field(default_factory=dict)
    builtin_names: set[str] = field(default_factory=set)
    invalid: list[InvalidEntry] = field(default_factory=list)
    #: the file each user family was loaded from (its name need not match the family's)
    user_files: dict[str, Path] = field(default_factory=dict)

    @classmethod
    def load(cls, user_dir: Path | None = None) -> Registry:
        reg = cls()
        raw = json.loads(
            resources.files("app.resources").joinpath("builtin_families.json").read_text("utf-8")
        )
        for i, data in enumerate(raw):
            fam = load_family(data, f"builtin entry {i}")  # a broken builtin is a bug: raise
            reg.families[fam.name] = fam
            reg.builtin_names.add(fam.name)
        udir = user_dir or paths.user_families_dir()
        for path in sorted(udir.glob("*.json")):
            try:
                data = json.loads(path.read_text("utf-8"))
            except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
                reg._invalid(path.stem, path, f"not valid JSON: {exc}")
                continue
            try:
                fam = load_family(data, path.name)
            except RegistryError as exc:
                reg._invalid(path.stem, path, str(exc))
                continue
            if fam.name in reg.builtin_names:
                reg._invalid(fam.name, path, f"{path.name}: name {fam.name!r} is taken by a builtin family")
                continue
            if fam.name in reg.user_files:
                reg._invalid(fam.name, path, f"{path.name}: {fam.name!r} is already defined in "
                             f"{reg.user_files[fam.name].name}")  # fmt: skip
                continue
            reg.families[fam.name] = fam
            reg.user_files[fam.name] = path
        return reg

    def by_use(self) -> list[Family]:
        """The families in the order the browser lists them: the models shipped with the app
        (they run offline), then the user's own, then the builtin catalog newest release first
        (more downloads first within a month), by name last."""

        def group(f: Family) -> int:
            if f.name not in self.builtin_names:
                return 1
            return 0 if all(s.sources.local is not None and not s.sources.hubs() for s in f.specs) else 2

        fams = sorted(self.families.values(), key=lambda f: f.name)
        fams.sort(key=lambda f: "chat" not in f.abilities)  # of the shipped ones, the chat model first
        fams.sort(key=lambda f: -(f.downloads or 0))
        fams.sort(key=lambda f: f.released or "", reverse=True)  # "2025-12" before "2025-12-15"
        fams.sort(key=group)
        return fams

    def _invalid(self, name: str, path: Path, reason: str) -> None:
        log.warning("skipping user family %s: %s", path, reason)
        self.invalid.append(InvalidEntry(name=name, source=str(path), reason=reason))

    def get(self, name: str) -> Family:
        try:
            return self.families[name]
        except KeyError:
            known = ", ".join(sorted(self.families))
            raise RegistryError(f"unknown model {name!r}; known: {known}") from None

    def match(
        self, name: str, fmt: str | None = None, size: str | float | None = None, quant: str | None = None
    ) -> tuple[Family, AnySpec, str]:
        """Resolve one spec and quantization; ``size`` may be a number or a label like 'E2B'."""
        fam = self.get(name)
        candidates: list[AnySpec] = []
        for spec in fam.specs:
            if fmt and spec.format != fmt:
                continue
            if size is not None and not size_matches(spec, size):
                continue
            if quant and quant not in spec.quantizations:
                continue
            candidates.append(spec)
        if not candidates:
            avail = ", ".join(f"{s.format}/{s.size_label}[{','.join(s.quantizations)}]" for s in fam.specs)
            raise RegistryError(
                f"{name}: no spec matches format={fmt or 'any'} size={size or 'any'} quant={quant or 'any'}; "
                f"available: {avail}"
            )
        spec = candidates[0]
        return fam, spec, quant or spec.quantizations[0]

    # --- user registration ---------------------------------------------------------------
    def register(self, data: Any, user_dir: Path | None = None, *, replace: bool = False) -> Family:
        fam = load_family(data, "registration")
        if fam.name in self.builtin_names:
            raise RegistryError(f"name {fam.name!r} is taken by a builtin family; choose another name")
        udir = user_dir or paths.user_families_dir()
        target = udir / f"{fam.name}.json"
        if target.exists() and not replace:
            raise RegistryError(f"{fam.name!r} is already registered; unregister it first or pass replace")
        tmp = target.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(fam.model_dump(mode="json", exclude_none=True), indent=1), "utf-8")
        tmp.replace(target)
        self.families[fam.name] = fam
        self.user_files[fam.name] = target
        return fam

    def unregister(self, name: str, user_dir: Path | None = None) -> None:
        if name in self.builtin_names:
            raise RegistryError(f"{name!r} is a builtin family and cannot be unregistered")
        udir = (user_dir or paths.user_families_dir()).resolve()
        files: list[Path] = []
        if name in self.user_files:
            files.append(self.user_files[name])
        # an invalid entry is known by its file's stem (or its name, if it parsed that far)
        files += [Path(e.source) for e in self.invalid if e.name == name]
        # only files inside the user families folder are ever deleted (no '../' tricks)
        files = [f for f in files if f.resolve().parent == udir]
        if not files:
            raise RegistryError(f"{name!r} is not a registered user family")
        for f in files:
            f.unlink(missing_ok=True)
        self.invalid = [e for e in self.invalid if e.name != name]
        self.families.pop(name, None)
        self.user_files.pop(name, None)


def size_matches(spec: AnySpec, size: str | float) -> bool:
    if isinstance(size, str):
        s = size.strip().removesuffix("b").removesuffix("B")
        if spec.label and size.strip().lower() in (spec.label.lower(), f"{spec.label.lower()}b"):
            return True
        try:
            return float(s) == spec.size_in_billions
        except ValueError:
            return False
    return float(size) == spec.size_in_billions
