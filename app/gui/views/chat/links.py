"""Links in rendered chat text: a code block's Copy link puts that block's exact source on the
clipboard; any other link opens in the system's handler."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices, QGuiApplication
from PySide6.QtWidgets import QLabel

from app.core.chat.render import code_blocks, code_id
from app.gui.views.chat.rich_text import RichText

COPY_SCHEME = "copy:"


def copy_code(source_text: str, href: str) -> bool:
    """Copy the code block of ``source_text`` that ``href`` names; whether one was found. The
    link names the block by its source's hash, so it holds whichever part of a streamed answer
    the label shows."""
    wanted = href[len(COPY_SCHEME) :]
    for code in code_blocks(source_text):
        if code_id(code) == wanted:
            QGuiApplication.clipboard().setText(code)
            return True
    return False


def connect_links(label: QLabel | RichText, source: Callable[[], str]) -> None:
    """Handle ``label``'s links: Copy links against the Markdown ``source()`` returns."""
    if isinstance(label, QLabel):
        label.setOpenExternalLinks(False)

    def on_link(href: str) -> None:
        if href.startswith(COPY_SCHEME):
            copy_code(source(), href)
        else:
            QDesktopServices.openUrl(QUrl(href))

    label.linkActivated.connect(on_link)
