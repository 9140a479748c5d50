"""How sizes in bytes are written everywhere (downloads, disk checks, memory, search results)."""

from __future__ import annotations


def human_bytes(n: float) -> str:
    """``512 B``, ``1.5 KB``, ``2.3 GB``: powers of 1024, one decimal above bytes."""
    for unit in ("B", "KB", "MB", "GB"):
        if abs(n) < 1024:
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} TB"
