"""Tandem's own monochrome icons: SVG files in ``resources/icons`` (package ``app.resources``),
tinted when loaded.

The platform's standard icons differ from style to style (Fusion draws a question mark for
"chat" and a bare triangle for "download"), so every icon the app shows comes from one small set
drawn on the same 24 px grid with the same stroke. The files use ``currentColor``; :func:`icon`
substitutes a colour per icon mode, so a nav entry turns accent-blue when selected and grey when
disabled without a second file. The stylesheet's arrows cannot be tinted that way, so the chevrons
ship in their two colours and are reached through the ``icons:`` search path (see
:func:`register_search_path`).
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

from PySide6.QtCore import QByteArray, QDir, QRectF, Qt
from PySide6.QtGui import QIcon, QPainter, QPixmap
from PySide6.QtSvg import QSvgRenderer

ICON_PACKAGE = "app.resources"
MUTED = "#4b5563"
ACCENT = "#1d4f9c"
DISABLED = "#a8aeb6"
ON_PRIMARY = "#ffffff"
DANGER = "#b3261e"

#: Pixel sizes rendered into every icon (1x and 2x of the sizes the GUI uses).
_SIZES = (16, 18, 20, 24, 32, 36, 40, 48)


def icon_dir() -> Path:
    """The icons folder on disk (the package is installed as files, never zipped)."""
    return Path(str(resources.files(ICON_PACKAGE).joinpath("icons")))


def icon_names() -> list[str]:
    return sorted(p.stem for p in icon_dir().glob("*.svg"))


def register_search_path() -> None:
    """Make ``url(icons:chevron-down.svg)`` work in stylesheets."""
    path = str(icon_dir())
    if path not in QDir.searchPaths("icons"):
        QDir.addSearchPath("icons", path)


@cache
def _svg(name: str) -> str:
    # one segment per joinpath: in the frozen app the package may be a namespace package, whose
    # MultiplexedPath.joinpath takes a single name on Python 3.11
    return resources.files(ICON_PACKAGE).joinpath("icons").joinpath(f"{name}.svg").read_text("utf-8")


def _pixmap(svg: str, color: str, size: int) -> QPixmap:
    renderer = QSvgRenderer(QByteArray(svg.replace("currentColor", color).encode("utf-8")))
    pm = QPixmap(size, size)
    pm.fill(Qt.GlobalColor.transparent)
    p = QPainter(pm)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(p, QRectF(0, 0, size, size))
    p.end()
    return pm


@cache
def icon(name: str, color: str = MUTED, selected: str | None = None, disabled: str = DISABLED) -> QIcon:
    """``name``'s icon in ``color``; ``selected`` (default: the same colour) for selected items,
    ``disabled`` for disabled widgets. Cached: the same arguments return the same QIcon."""
    svg = _svg(name)
    result = QIcon()
    for size in _SIZES:
        result.addPixmap(_pixmap(svg, color, size), QIcon.Mode.Normal)
        result.addPixmap(_pixmap(svg, color, size), QIcon.Mode.Active)
        result.addPixmap(_pixmap(svg, selected or color, size), QIcon.Mode.Selected)
        result.addPixmap(_pixmap(svg, disabled, size), QIcon.Mode.Disabled)
    return result
