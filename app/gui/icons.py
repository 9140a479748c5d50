"""Tandem's own monochrome icons: SVG files in ``resources/icons`` (package ``app.resources``),
tinted when loaded.

The platform's standard icons differ from style to style (Fusion draws a question mark for
"chat" and a bare triangle for "download"), so every icon the app shows comes from one small set
drawn on the same 24 px grid with the same stroke. The files use ``currentColor``; :func:`icon`
substitutes a colour per icon mode, so a nav entry turns accent-blue when selected and grey when
disabled without a second file. The stylesheet's arrows cannot be tinted that way, so the chevrons
ship in their two colours and are reached through the ``icons:`` search path (see
:func:`register_search_path`).

On a dark palette the same icon is drawn in a lighter counterpart of its colour
(:data:`_ON_DARK`): the icon's engine picks the colour when it is painted, so every icon follows a
switch between light and dark without the widgets setting it again.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

from PySide6.QtCore import QByteArray, QDir, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QGuiApplication, QIcon, QIconEngine, QPainter, QPalette, QPixmap
from PySide6.QtSvg import QSvgRenderer

ICON_PACKAGE = "app.resources"
MUTED = "#4b5563"
ACCENT = "#1d4f9c"
DISABLED = "#a8aeb6"
ON_PRIMARY = "#ffffff"
DANGER = "#b3261e"

#: each icon colour's counterpart on a dark palette (white on the accent button stays white)
_ON_DARK = {MUTED: "#b4bac2", ACCENT: "#8ab4f8", DISABLED: "#5f666e", DANGER: "#f28b82", "#7a1d16": "#f6b8b2"}


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


def _dark() -> bool:
    app = QGuiApplication.instance()
    palette = QGuiApplication.palette() if app is not None else QPalette()
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


class _TintedEngine(QIconEngine):
    """Draws one SVG in the colour of the icon mode, for the palette current when painted."""

    def __init__(self, name: str, colors: dict[QIcon.Mode, str]) -> None:
        super().__init__()
        self._name = name
        self._colors = colors
        self._cache: dict[tuple[int, int, QIcon.Mode, bool], QPixmap] = {}

    def pixmap(self, size: QSize, mode: QIcon.Mode, state: QIcon.State) -> QPixmap:
        dark = _dark()
        key = (size.width(), size.height(), mode, dark)
        found = self._cache.get(key)
        if found is None:
            color = self._colors.get(mode, self._colors[QIcon.Mode.Normal])
            side = min(size.width(), size.height())
            found = self._cache[key] = _pixmap(
                _svg(self._name), _ON_DARK.get(color, color) if dark else color, side
            )
        return found

    def paint(self, painter: QPainter, rect: QRect, mode: QIcon.Mode, state: QIcon.State) -> None:
        ratio = painter.device().devicePixelRatioF() if painter.device() is not None else 1.0
        side = round(min(rect.width(), rect.height()) * ratio)
        pm = self.pixmap(QSize(side, side), mode, state)
        pm.setDevicePixelRatio(ratio)
        painter.drawPixmap(rect, pm)

    def clone(self) -> QIconEngine:
        return _TintedEngine(self._name, dict(self._colors))


#: the engines of the cached icons, kept from Python's garbage collector for the icons' lifetime
_ENGINES: list[_TintedEngine] = []


@cache
def icon(name: str, color: str = MUTED, selected: str | None = None, disabled: str = DISABLED) -> QIcon:
    """``name``'s icon in ``color`` (its dark counterpart on a dark palette); ``selected``
    (default: the same colour) for selected items, ``disabled`` for disabled widgets. Cached: the
    same arguments return the same QIcon."""
    colors = {
        QIcon.Mode.Normal: color,
        QIcon.Mode.Active: color,
        QIcon.Mode.Selected: selected or color,
        QIcon.Mode.Disabled: disabled,
    }
    engine = _TintedEngine(name, colors)
    _ENGINES.append(engine)
    return QIcon(engine)
