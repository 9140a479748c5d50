"""Refresh the Qt Linguist sources and compile them.

    python scripts/build_translations.py            # update .ts from the code, then compile .qm
    python scripts/build_translations.py --check    # exit 1 if a .ts is stale or a .qm outdated
    python scripts/build_translations.py --fill F   # merge translations from a JSON file
                                                    # {"Context\\u0004source": {"zh_CN": "...", ...}}

Sources live in translations/tandem_<locale>.ts (en, zh_CN, ja, ko); lupdate keeps existing
translations and drops obsolete ones, lrelease writes the .qm files loaded at start.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TS_DIR = ROOT / "translations"
LOCALES = ("en", "zh_CN", "ja", "ko")
SEP = "\u0004"


def tool(name: str) -> str:
    here = Path(sys.executable).parent / name
    found = str(here) if here.exists() else shutil.which(name)
    if not found:
        raise SystemExit(f"{name} not found; install PySide6 (it ships pyside6-lupdate/lrelease)")
    return found


def sources() -> list[str]:
    return sorted(str(p.relative_to(ROOT)) for p in (ROOT / "app" / "gui").rglob("*.py"))


def ts_path(locale: str, base: Path = TS_DIR) -> Path:
    return base / f"tandem_{locale}.ts"


def update(base: Path = TS_DIR) -> None:
    base.mkdir(parents=True, exist_ok=True)
    for locale in LOCALES:
        target = ts_path(locale, base)
        if base != TS_DIR and ts_path(locale).exists():
            shutil.copy(ts_path(locale), target)
        subprocess.run(
            [
                tool("pyside6-lupdate"),
                "-silent",
                "-no-obsolete",
                "-locations",
                "none",
                "-target-language",
                locale,
                *sources(),
                "-ts",
                str(target),
            ],
            cwd=ROOT,
            check=True,
        )
        if locale == "en":
            _english_identity(target)


def _english_identity(path: Path) -> None:
    """English is the source language: every translation is the source text itself."""
    tree = ET.parse(path)
    for msg in tree.getroot().iter("message"):
        tr = msg.find("translation")
        src = msg.find("source")
        if tr is not None and src is not None:
            tr.text = src.text
            tr.attrib.pop("type", None)
    _write(tree, path)


def _write(tree: ET.ElementTree, path: Path) -> None:
    ET.indent(tree, space="    ")
    body = ET.tostring(tree.getroot(), encoding="unicode")
    path.write_text('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n' + body + "\n", "utf-8")


def release(base: Path = TS_DIR) -> None:
    for locale in LOCALES:
        subprocess.run(
            [
                tool("pyside6-lrelease"),
                "-silent",
                str(ts_path(locale, base)),
                "-qm",
                str(base / f"tandem_{locale}.qm"),
            ],
            check=True,
        )


def fill(mapping_file: Path) -> None:
    mapping: dict[str, dict[str, str]] = json.loads(mapping_file.read_text("utf-8"))
    for locale in LOCALES[1:]:
        path = ts_path(locale)
        tree = ET.parse(path)
        for ctx in tree.getroot().iter("context"):
            name = ctx.findtext("name", "")
            for msg in ctx.iter("message"):
                key = name + SEP + (msg.findtext("source") or "")
                text = mapping.get(key, {}).get(locale)
                tr = msg.find("translation")
                if text and tr is not None:
                    tr.text = text
                    tr.attrib.pop("type", None)
        _write(tree, path)


def messages(path: Path) -> dict[str, tuple[str, str | None]]:
    """``context<SEP>source`` -> (translation, type attribute)."""
    out: dict[str, tuple[str, str | None]] = {}
    for ctx in ET.parse(path).getroot().iter("context"):
        name = ctx.findtext("name", "")
        for msg in ctx.iter("message"):
            tr = msg.find("translation")
            out[name + SEP + (msg.findtext("source") or "")] = (
                (tr.text or "") if tr is not None else "",
                tr.get("type") if tr is not None else "unfinished",
            )
    return out


def check() -> list[str]:
    """Problems: stale .ts (code has strings they lack or vice versa), outdated .qm."""
    problems: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp)
        update(fresh)
        for locale in LOCALES:
            have = set(messages(ts_path(locale)))
            want = set(messages(ts_path(locale, fresh)))
            for key in sorted(want - have):
                problems.append(
                    f"{locale}: missing {key.replace(SEP, ': ')!r}; run scripts/build_translations.py"
                )
            for key in sorted(have - want):
                problems.append(
                    f"{locale}: obsolete {key.replace(SEP, ': ')!r}; run scripts/build_translations.py"
                )
        compiled = Path(tmp) / "qm"
        compiled.mkdir()
        for locale in LOCALES:
            shutil.copy(ts_path(locale), ts_path(locale, compiled))
        release(compiled)
        for locale in LOCALES:
            committed = TS_DIR / f"tandem_{locale}.qm"
            if not committed.exists() or committed.read_bytes() != (compiled / committed.name).read_bytes():
                problems.append(f"{locale}: {committed.name} is outdated; run scripts/build_translations.py")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--fill", type=Path)
    args = parser.parse_args()
    if args.check:
        problems = check()
        print("\n".join(problems) or "translations up to date")
        return 1 if problems else 0
    if args.fill:
        fill(args.fill)
    else:
        update()
    release()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
