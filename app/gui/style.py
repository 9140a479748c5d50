"""The application stylesheet: quiet, with one accent colour, in a light and a dark version.

The light sheet is written out; the dark one is the same sheet with every colour swapped through
one table (:data:`_DARK`), so the two cannot drift apart in what they style.
"""
# ruff: noqa: E501

from __future__ import annotations

import re

from PySide6.QtGui import QColor, QPalette

from app.core.chat.render import DARK, LIGHT, Colors

ACCENT = "#2f6fde"
#: drafted text's background on the light palette (the chat's default)
DRAFT_HIGHLIGHT = LIGHT.draft

STYLESHEET = """
QMainWindow, QDialog { background: #f6f7f9; }
QWidget { font-size: 13px; }
QLabel#pageTitle { font-size: 18px; font-weight: 600; color: #1f2328; }
QLabel#sectionTitle { font-size: 14px; font-weight: 600; color: #1f2328; }
QLabel#muted, QLabel[muted="true"] { color: #6b7280; }
QLabel#inlineMessage[kind="error"] { color: #b3261e; }
QLabel#inlineMessage[kind="info"] { color: #1d4f9c; }
QLabel#inlineMessage[kind="warn"] { color: #8a5a00; }
QWidget#navBox { background: #eceef2; }
QListWidget#nav, QListWidget#navActions { background: #eceef2; border: none; padding: 10px 4px; outline: 0; }
QListWidget#navActions { padding: 0 4px; }
QListWidget#nav::item, QListWidget#navActions::item { padding: 8px 8px; border-radius: 6px; margin: 1px 4px;
            color: #30363d; }
QListWidget#nav::item:selected { background: #dbe6fb; color: #1d4f9c; font-weight: 600; }
QListWidget#nav::item:hover:!selected, QListWidget#navActions::item:hover { background: #e3e6eb; }
QFrame#card { background: #ffffff; border: 1px solid #e1e4e8; border-radius: 8px; }
QFrame#banner { background: #fdecea; border: 1px solid #f3b8b3; border-radius: 6px; }
QFrame#banner QLabel { color: #7a1d16; }
QGroupBox { background: #ffffff; border: 1px solid #e1e4e8; border-radius: 8px; margin-top: 16px;
            padding: 6px 10px 6px 10px; font-weight: 600; }
QGroupBox::title { subcontrol-origin: margin; left: 10px; padding: 0 4px; color: #1f2328; }
QGroupBox#speculative { border: 1px solid #b9cdf3; background: #f7faff; }
QTableView, QTreeView, QListView { background: #ffffff; border: 1px solid #e1e4e8; border-radius: 6px;
            selection-background-color: #dbe6fb; selection-color: #1f2328; alternate-background-color: #fafbfc; }
QHeaderView::section { background: #f3f4f6; border: none; border-bottom: 1px solid #e1e4e8;
            padding: 5px 8px; font-weight: 600; color: #4b5563; }
QLineEdit, QComboBox, QSpinBox, QDoubleSpinBox, QPlainTextEdit { background: #ffffff; border: 1px solid #cfd4db;
            border-radius: 5px; padding: 4px 6px; min-height: 20px; }
QLineEdit:focus, QComboBox:focus, QSpinBox:focus, QDoubleSpinBox:focus, QPlainTextEdit:focus { border-color: #2f6fde; }
QLineEdit:disabled, QComboBox:disabled, QSpinBox:disabled, QDoubleSpinBox:disabled { background: #f3f4f6; color: #9aa1a9;
            border-color: #dde1e6; }
QComboBox { padding-right: 24px; }
QComboBox::drop-down { subcontrol-origin: border; subcontrol-position: center right; width: 24px; border: none; }
QComboBox::down-arrow { image: url(icons:chevron-down.svg); width: 10px; height: 10px; }
QComboBox::down-arrow:disabled { image: url(icons:chevron-down-disabled.svg); }
QComboBox QAbstractItemView { background: #ffffff; border: 1px solid #cfd4db; selection-background-color: #dbe6fb;
            selection-color: #1f2328; outline: 0; }
QSpinBox, QDoubleSpinBox { padding-right: 24px; }
QSpinBox::up-button, QDoubleSpinBox::up-button { subcontrol-origin: border; subcontrol-position: top right;
            width: 22px; border: none; border-left: 1px solid #e6e9ed; border-top-right-radius: 5px; margin: 1px 1px 0 0; }
QSpinBox::down-button, QDoubleSpinBox::down-button { subcontrol-origin: border; subcontrol-position: bottom right;
            width: 22px; border: none; border-left: 1px solid #e6e9ed; border-bottom-right-radius: 5px; margin: 0 1px 1px 0; }
QSpinBox::up-button:hover, QDoubleSpinBox::up-button:hover, QSpinBox::down-button:hover,
            QDoubleSpinBox::down-button:hover { background: #eef1f5; }
QSpinBox::up-button:pressed, QDoubleSpinBox::up-button:pressed, QSpinBox::down-button:pressed,
            QDoubleSpinBox::down-button:pressed { background: #dbe6fb; }
QSpinBox::up-arrow, QDoubleSpinBox::up-arrow { image: url(icons:chevron-up.svg); width: 10px; height: 10px; }
QSpinBox::down-arrow, QDoubleSpinBox::down-arrow { image: url(icons:chevron-down.svg); width: 10px; height: 10px; }
QSpinBox::up-arrow:disabled, QDoubleSpinBox::up-arrow:disabled, QSpinBox::up-arrow:off,
            QDoubleSpinBox::up-arrow:off { image: url(icons:chevron-up-disabled.svg); }
QSpinBox::down-arrow:disabled, QDoubleSpinBox::down-arrow:disabled, QSpinBox::down-arrow:off,
            QDoubleSpinBox::down-arrow:off { image: url(icons:chevron-down-disabled.svg); }
QLineEdit[invalid="true"] { border-color: #b3261e; background: #fff7f6; }
QPushButton { background: #ffffff; border: 1px solid #cfd4db; border-radius: 5px; padding: 5px 12px; }
QPushButton:hover { background: #f0f3f7; }
QPushButton:disabled { color: #9aa1a9; background: #f3f4f6; }
QPushButton#primary { background: #2f6fde; color: white; border: 1px solid #2a63c7; font-weight: 600; }
QPushButton#primary:hover { background: #2a63c7; }
QPushButton#primary:disabled { background: #9db6e6; border-color: #9db6e6; }
QPushButton#danger { color: #b3261e; }
QToolButton { border: none; padding: 4px; border-radius: 4px; }
QToolButton:hover { background: #e8ebf0; }
QToolButton:checked { background: #dbe6fb; }
QProgressBar { border: 1px solid #d5d9df; border-radius: 4px; background: #f0f2f5; text-align: center; height: 14px; }
QProgressBar::chunk { background: #2f6fde; border-radius: 3px; }
QStatusBar { background: #eceef2; color: #4b5563; }
QStatusBar QLabel { padding: 0 8px; }
QFrame#bubbleUser { background: #e8f0fe; border-radius: 10px; }
QFrame#bubbleAssistant { background: #ffffff; border: 1px solid #e1e4e8; border-radius: 10px; }
QFrame#bubbleTool { background: #f6f8fa; border: 1px solid #e6e9ed; border-radius: 10px; }
QFrame#toolCall { background: #f6f8fa; border: 1px solid #d5d9df; border-radius: 6px; }
QLabel#toolNote { color: #b3261e; }
QLabel#role { font-weight: 600; color: #4b5563; }
QFrame#statsStrip { background: #f6f8fa; border: 1px solid #e6e9ed; border-radius: 6px; }
QFrame#statsStrip QLabel { color: #4b5563; font-size: 12px; }
QFrame#statsStrip QLabel#speedup[verdict="faster"] { color: #1f7a4a; font-weight: 600; }
QFrame#statsStrip QLabel#speedup[verdict="slower"] { color: #a15c07; font-weight: 600; }
QFrame#statsStrip QLabel#speedup[verdict="much-slower"] { color: #b3261e; font-weight: 600; }
QFrame#statsStrip QLabel#speedup[verdict="unknown"] { color: #8a929c; }
QLabel#verifyVerdict { font-weight: bold; }
QLabel#verifyVerdict[verdict="exact"] { color: #1f7a4a; }
QLabel#verifyVerdict[verdict="top_k_match"] { color: #a15c07; }
QLabel#verifyVerdict[verdict="fail"], QLabel#verifyVerdict[verdict="error"] { color: #b3261e; }
QLabel#verifyVerdict[verdict="cancelled"] { color: #6b7280; }
QFrame#composer { background: #ffffff; border: 1px solid #d5d9df; border-radius: 10px; }
QFrame#composer QPlainTextEdit { border: none; }
QLabel#composerNotice { color: #b3261e; }
QToolButton#thumbnail { border: 1px solid #d5d9df; border-radius: 6px; padding: 2px; background: #ffffff; }
QToolButton#thumbnail:hover { border-color: #7a8594; }
QToolButton#thumbnailRemove { background: rgba(32, 33, 36, 0.72); border: none; border-radius: 9px; }
QToolButton#thumbnailRemove:hover { background: rgba(179, 38, 30, 0.9); }
QFrame#documentChip { border: 1px solid #d5d9df; border-radius: 6px; background: #ffffff; }
QFrame#documentChip:hover { border-color: #7a8594; }
QFrame#documentChip[reading="true"] { background: #f6f8fa; }
QFrame#documentChip QLabel#documentFacts { color: #6b7280; font-size: 12px; }
QToolButton#documentRemove { padding: 2px; }
QToolButton#documentRemove:hover { background: #fdecea; }
QToolButton#sourcesToggle { color: #4b5563; font-weight: 600; padding: 2px 4px; }
QToolButton#sourcesToggle:checked { background: transparent; }
QToolButton#sourcesToggle:hover { background: #e8ebf0; }
QFrame#sourcesList { background: #f6f8fa; border: 1px solid #e6e9ed; border-radius: 6px; }
QFrame#sourceRow { border-radius: 4px; }
QFrame#sourceRow:hover { background: #e8ebf0; }
QFrame#sourceRow QLabel#sourcePlace { color: #1d4f9c; }
QScrollArea#chatScroll { border: none; background: #f6f7f9; }
QWidget#chatColumn { background: #f6f7f9; }
"""

#: each colour of the light sheet and its dark counterpart (one pass, so no colour is swapped twice)
_DARK = {
    "#ffffff": "#24272c",  # surfaces: cards, inputs, the assistant's bubble
    "#f6f7f9": "#1b1d21",  # the window and the chat column
    "#1f2328": "#e6e8eb",  # strong text
    "#4b5563": "#b4bac2",  # secondary text
    "#6b7280": "#9aa1a9",  # muted text
    "#9aa1a9": "#6b7280",  # disabled text
    "#30363d": "#d0d4da",
    "#e1e4e8": "#3a3f46",  # borders
    "#e6e9ed": "#363b42",
    "#d5d9df": "#41474f",
    "#cfd4db": "#474d56",
    "#dde1e6": "#363b42",
    "#eceef2": "#16181b",  # the navigation and the status bar
    "#e3e6eb": "#262a2f",
    "#f3f4f6": "#2b2f35",
    "#f6f8fa": "#202328",  # the stats strip
    "#fafbfc": "#272a30",
    "#f0f3f7": "#2e3238",
    "#f0f2f5": "#2b2f35",
    "#eef1f5": "#30353c",
    "#e8ebf0": "#30353c",
    "#dbe6fb": "#2b3f63",  # selection
    "#e8f0fe": "#1f3150",  # the user's bubble
    "#f7faff": "#222a38",
    "#b9cdf3": "#35507e",
    "#2f6fde": "#4c8df6",  # the accent
    "#2a63c7": "#3b78e0",
    "#9db6e6": "#2f4468",
    "#1d4f9c": "#8ab4f8",
    "#b3261e": "#f28b82",  # errors
    "#fff7f6": "#3a2422",
    "#fdecea": "#3d2220",
    "#f3b8b3": "#7a3a35",
    "#7a1d16": "#f6b8b2",
    "#a15c07": "#f0b35a",  # warnings
    "#8a5a00": "#e0b15a",
    "#1f7a4a": "#6cc997",  # good news
    "#8a929c": "#8a929c",
    "#7a8594": "#8a929c",
}
_HEX = re.compile(r"#[0-9a-fA-F]{6}")


def stylesheet(dark: bool) -> str:
    """The application's stylesheet for a light or a dark palette."""
    if not dark:
        return STYLESHEET
    return _HEX.sub(lambda m: _DARK.get(m.group(0).lower(), m.group(0)), STYLESHEET)


#: the palette roles the stylesheet does not cover (dialogs, menus, tooltips, links in rich text);
#: the light ones are Fusion's own, so the light look is the one the app always had
_ROLES: dict[bool, dict[str, str]] = {
    False: {
        "Window": "#efefef",
        "WindowText": "#000000",
        "Base": "#ffffff",
        "AlternateBase": "#f7f7f7",
        "Text": "#000000",
        "Button": "#efefef",
        "ButtonText": "#000000",
        "ToolTipBase": "#ffffdc",
        "ToolTipText": "#000000",
        "PlaceholderText": "#80000000",
        "Highlight": "#308cc6",
        "HighlightedText": "#ffffff",
        "Link": "#0000ff",
        "LinkVisited": "#ff00ff",
        "BrightText": "#ffffff",
        "Light": "#ffffff",
        "Midlight": "#cacaca",
        "Mid": "#b8b8b8",
        "Dark": "#9f9f9f",
        "Shadow": "#767676",
    },
    True: {
        "Window": "#1b1d21",
        "WindowText": "#e6e8eb",
        "Base": "#24272c",
        "AlternateBase": "#272a30",
        "Text": "#e6e8eb",
        "Button": "#2b2f35",
        "ButtonText": "#e6e8eb",
        "ToolTipBase": "#2b2f35",
        "ToolTipText": "#e6e8eb",
        "PlaceholderText": "#8a929c",
        "Highlight": "#3b78e0",
        "HighlightedText": "#ffffff",
        "Link": "#8ab4f8",
        "LinkVisited": "#c58af9",
        "BrightText": "#ffffff",
        "Light": "#3a3f46",
        "Midlight": "#30353c",
        "Mid": "#41474f",
        "Dark": "#121316",
        "Shadow": "#000000",
    },
}
_DISABLED_TEXT = {False: "#bebebe", True: "#6b7280"}


def palette(dark: bool) -> QPalette:
    """The application palette for a light or dark look."""
    out = QPalette()
    for name, colour in _ROLES[dark].items():
        role = getattr(QPalette.ColorRole, name)
        out.setColor(role, QColor.fromString(colour))
    for name in ("WindowText", "Text", "ButtonText"):
        out.setColor(
            QPalette.ColorGroup.Disabled, getattr(QPalette.ColorRole, name), QColor(_DISABLED_TEXT[dark])
        )
    return out


def is_dark(pal: QPalette) -> bool:
    """Whether ``pal`` is a dark palette (light text on a dark window)."""
    return pal.color(QPalette.ColorRole.Window).lightness() < 128


def chat_colors(pal: QPalette) -> Colors:
    """The colours rendered chat text carries for the palette it is shown on."""
    return DARK if is_dark(pal) else LIGHT
