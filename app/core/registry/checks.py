"""The field checks the registry's models share, and the one formatter of their name templates.

Users write registry files by hand, so a broken field raises :class:`ValueError` naming the field
and the fix. The rules: a name template uses named ``{placeholders}`` only (no positional one, no
format spec), from the set its field allows; a file template names a path inside the repository
(not absolute, no ``..`` segment); a list of quantizations is not empty and lists each entry once,
without blanks or surrounding spaces; several quantizations need a name that varies by
quantization. A repo id is ``org/name``; a date is ``YYYY-MM`` or ``YYYY-MM-DD``. A template is
formatted by :func:`format_template` only, so a formatting failure names its field too. Every
registry model derives from :class:`StrictModel`: unknown fields are refused and a model is frozen.
"""

from __future__ import annotations

import re
import string

from pydantic import BaseModel, ConfigDict

__all__ = [
    "DATE_RE",
    "REPO_RE",
    "StrictModel",
    "check_list",
    "check_placeholders",
    "check_relative_file",
    "format_template",
    "one_target_for_all",
    "placeholders",
]

REPO_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9{}][A-Za-z0-9._{}-]*$")
DATE_RE = re.compile(r"^\d{4}-\d{2}(-\d{2})?$")


def placeholders(template: str, field: str) -> set[str]:
    """Return the ``{names}`` used in ``template``; a malformed template raises naming ``field``."""
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError as exc:
        raise ValueError(
            f"{field}: malformed template {template!r} ({exc}); use {{name}} placeholders"
        ) from exc
    names: set[str] = set()
    for _literal, name, spec, conv in parsed:
        if name is None:
            continue
        if name == "" or name.isdigit():
            raise ValueError(f"{field}: positional placeholder '{{{name}}}' in {template!r}; use a named one")
        if spec or conv:
            raise ValueError(
                f"{field}: placeholder '{{{name}}}' in {template!r} must not carry a format spec"
            )
        names.add(name)
    return names


def check_placeholders(template: str | None, field: str, allowed: set[str]) -> set[str]:
    if template is None:
        return set()
    names = placeholders(template, field)
    unknown = sorted(names - allowed)
    if unknown:
        allowed_txt = ", ".join(f"{{{a}}}" for a in sorted(allowed)) or "none"
        raise ValueError(
            f"{field}: unknown placeholder {', '.join('{' + u + '}' for u in unknown)} in {template!r}; "
            f"allowed here: {allowed_txt}"
        )
    return names


def format_template(template: str, field: str, **values: str) -> str:
    """Format a registry template in one place; any failure is a ValueError naming the field."""
    check_placeholders(template, field, set(values))
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError) as exc:
        raise ValueError(f"{field}: cannot format {template!r}: {exc}") from exc


def check_list(values: list[str] | None, field: str, *, required: bool) -> None:
    if values is None:
        if required:
            raise ValueError(f"{field}: required; list at least one quantization")
        return
    if not values:
        raise ValueError(f"{field}: must not be empty; list at least one entry or remove the field")
    seen: set[str] = set()
    for v in values:
        if not v or not v.strip() or v != v.strip():
            raise ValueError(f"{field}: entry {v!r} is blank or has surrounding spaces")
        if v in seen:
            raise ValueError(f"{field}: duplicate entry {v!r}; list each quantization once")
        seen.add(v)


class StrictModel(BaseModel):
    """The base of every registry model: a misspelt field is an error, not ignored; frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def one_target_for_all(quantizations: list[str], field: str, value: str) -> None:
    """Several quantizations with a name that does not vary by quantization: refuse, with the fix."""
    if len(quantizations) > 1:
        raise ValueError(
            f"{field}: {value!r} has no {{quantization}}, so all {len(quantizations)} quantizations "
            f"({', '.join(quantizations[:4])}{', ...' if len(quantizations) > 4 else ''}) would resolve "
            "to the same model; add {quantization} to it or list one quantization"
        )


def check_relative_file(template: str | None, field: str) -> None:
    """File templates name files inside a repo: no absolute paths, no '..' segments."""
    if template is None:
        return
    normalized = template.replace("\\", "/")
    if normalized.startswith("/") or (len(normalized) > 1 and normalized[1] == ":"):
        raise ValueError(f"{field}: {template!r} must be a path inside the repository, not an absolute path")
    if ".." in normalized.split("/"):
        raise ValueError(f"{field}: {template!r} must not contain '..'")
