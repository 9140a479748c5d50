"""The cache package's three jobs stay apart: the entry store (entry.py), downloading
(fetch.py) and deleting / freeing disk (gc.py). The two others use only the store's public API,
and no module reads another class's private fields (such as ``meter._cancel``)."""

from __future__ import annotations

import ast
from pathlib import Path

import app.core.cache as cache_pkg

PKG = Path(cache_pkg.__file__).parent


def _private_attribute_reads(path: Path) -> list[str]:
    """``x._name`` where ``x`` is not ``self``/``cls`` (a module's own ``_helpers`` are fine)."""
    tree = ast.parse(path.read_text("utf-8"))
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
            and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
        ):
            found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_module_reads_another_objects_private_fields() -> None:
    offenders = [
        hit
        for name in ("entry.py", "manager.py", "fetch.py", "gc.py", "queue.py")
        for hit in _private_attribute_reads(PKG / name)
    ]
    assert not offenders, offenders


def test_the_store_does_not_download_or_delete_itself() -> None:
    """entry.py is the store only: it neither imports the download nor the delete job, and its
    class has no method of theirs; manager.py joins the three (imports run one way, no cycle)."""
    tree = ast.parse((PKG / "entry.py").read_text("utf-8"))
    imported = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("app.core.cache")
        for alias in node.names
    } | {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not imported & {"fetch", "gc", "app.core.cache.fetch", "app.core.cache.gc"}
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "CacheEntry")
    methods = {n.name for n in cls.body if isinstance(n, ast.FunctionDef)}
    assert not methods & {"download", "delete", "_run_fetch", "_check_space", "_join_cancelled"}
