"""The chat's rendered Markdown as Qt shows it: a real table, coloured code, the drafted shading
in a table cell and inside code, and each code block's Copy link copying the exact source."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QGuiApplication, QTextDocument, QTextTable

from app.core.chat.render import code_id
from app.gui.style import DRAFT_HIGHLIGHT
from app.gui.views.chat import MessageBubble

PY = "def area(r: float) -> float:\n    # a circle\n    return 3.14159 * r ** 2\n"
SH = "echo 'two  spaces'\tand a tab\n"
ANSWER = (
    "## Sizes\n\n| shape | area |\n|---|---:|\n| circle | 3.14 |\n| square | 1 |\n\n"
    f"Code:\n\n```python\n{PY}```\n\n- outer\n  - inner\n\n```sh\n{SH}```\n\nDone."
)


def _document(html: str) -> QTextDocument:
    doc = QTextDocument()
    doc.setHtml(html)
    return doc


def _tables(doc: QTextDocument) -> list[QTextTable]:
    return [f for f in doc.rootFrame().childFrames() if isinstance(f, QTextTable)]


def _colours_in(doc: QTextDocument, needle: str) -> set[str]:
    """The foreground colours of the characters of the block holding ``needle`` and after."""
    colours: set[str] = set()
    block = doc.find(needle).block()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fmt = it.fragment().charFormat()
            if fmt.foreground().style().value:  # a colour was set on this run
                colours.add(fmt.foreground().color().name())
            it += 1
        block = block.next()
        if "return" in block.text():
            break
    return colours


def test_table_code_colours_and_drafted_cell_as_qt_shows_them(qtbot: Any) -> None:
    bubble = MessageBubble("assistant", 1)
    qtbot.addWidget(bubble)
    cell = ANSWER.index("3.14 |")
    code = ANSWER.index("circle\n")  # in the Python comment: "# a circle"
    bubble.set_content(ANSWER, [(cell, cell + 4), (code, code + 6)])
    html = bubble.body.text()
    assert (
        f'<td style="text-align:right"><span style="background-color:{DRAFT_HIGHLIGHT};">3.14</span></td>'
        in html
    )
    drafted_code = (
        f'<span style="background-color:{DRAFT_HIGHLIGHT};text-decoration:underline;">circle</span>'
    )
    assert drafted_code in html.split("<pre", 1)[1]
    doc = _document(html)
    tables = _tables(doc)
    assert len(tables) == 1 and (tables[0].rows(), tables[0].columns()) == (3, 2)
    assert tables[0].cellAt(1, 1).firstCursorPosition().block().text() == "3.14"
    assert len(_colours_in(doc, "def area")) >= 3


def test_copy_links_copy_each_block_exactly_even_from_frozen_parts(qtbot: Any) -> None:
    bubble = MessageBubble("assistant", 1)
    qtbot.addWidget(bubble)
    bubble.set_status("streaming")
    for end in range(0, len(ANSWER) + 1, 7):
        bubble.set_content(ANSWER[: end or 1])
    bubble.set_content(ANSWER)
    labels = [*bubble._frozen, bubble.body]
    for source in (PY, SH):
        href = f"copy:{code_id(source)}"
        owner = next(label for label in labels if href in label.text() and label.isVisibleTo(bubble))
        QGuiApplication.clipboard().clear()
        owner.linkActivated.emit(href)
        assert QGuiApplication.clipboard().text() == source
    QGuiApplication.clipboard().setText("unchanged")
    bubble.body.linkActivated.emit("copy:000000000000")  # no such block: nothing copied
    assert QGuiApplication.clipboard().text() == "unchanged"
