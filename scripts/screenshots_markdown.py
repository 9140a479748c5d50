"""Screenshots of a chat answer (table, nested list, highlighted code, formula, its stats strip)
as the app shows it, light and dark, English and Japanese, into docs/screenshots.

    QT_QPA_PLATFORM=offscreen python scripts/screenshots_markdown.py [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent.parent / "docs" / "screenshots"

ANSWERS = {
    "en": (
        "Here is a comparison of the two methods:\n\n"
        "| method | tokens/s | accepted |\n|---|---:|---:|\n| plain | 41.2 | - |\n| n-gram | 63.5 | 71% |\n\n"
        "Steps:\n\n1. measure the **baseline**\n   - warm up first\n   - then three runs\n"
        "2. compare with ~~one~~ `two` drafts\n\n"
        "```python\ndef speedup(plain: float, spec: float) -> float:\n"
        '    """How many times faster."""\n    return spec / plain  # e.g. 1.54\n```\n\n'
        "The acceptance rate is $\\alpha = \\frac{accepted}{drafted}$, and the expected tokens per "
        "step are\n\n$$\\frac{1 - \\alpha^{k+1}}{1 - \\alpha}$$\n"
    ),
    "ja": (
        "2つの方法の比較です：\n\n"
        "| 方法 | トークン/秒 | 採択率 |\n|---|---:|---:|\n| 通常 | 41.2 | - |\n| n-gram | 63.5 | 71% |\n\n"
        "手順：\n\n1. **基準**を測る\n   - まずウォームアップ\n   - 次に3回実行\n"
        "2. ~~1つ~~ `2つ`のドラフトと比べる\n\n"
        "```python\ndef speedup(plain: float, spec: float) -> float:\n"
        '    """何倍速いか。"""\n    return spec / plain  # 例: 1.54\n```\n\n'
        "採択率は $\\alpha = \\frac{accepted}{drafted}$ で、1ステップあたりの期待トークン数は\n\n"
        "$$\\frac{1 - \\alpha^{k+1}}{1 - \\alpha}$$\n"
    ),
}
QUESTIONS = {
    "en": "Compare plain and n-gram decoding, with code.",
    "ja": "通常とn-gramの比較をコード付きで。",
}


def drafted(text: str) -> list[tuple[int, int]]:
    """A few drafted runs: a table cell, a list item's word, part of the code, prose."""
    spans = []
    for needle in ("63.5", "warm", "ウォーム", "return spec", "acceptance", "採択率は"):
        at = text.find(needle)
        if at >= 0:
            spans.append((at, at + len(needle)))
    return spans


def shoot(app: Any, page: Any, lay: Any, path: Path) -> None:
    page.setFixedWidth(720)
    page.show()
    app.processEvents()
    page.setFixedHeight(lay.totalHeightForWidth(720))
    app.processEvents()
    page.grab().save(str(path))
    page.close()
    page.deleteLater()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="tandem-md-shots-"))
    os.environ["TANDEM_HOME"] = str(home / "tandem")
    os.environ["HOME"] = str(home)

    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QVBoxLayout, QWidget

    from app.core.chat import AnswerStats
    from app.core.chat.answer import RoundPoint
    from app.gui.app import create_application
    from app.gui.i18n import I18n
    from app.gui.theme import Theme
    from app.gui.views.chat import MessageBubble

    app = create_application([])
    i18n = I18n()
    theme = Theme.of(app)
    stats = AnswerStats(
        completion_tokens=182,
        prompt_tokens=36,
        decode_tps=58.4,
        ttft_ms=140.0,
        total_ms=3300.0,
        rounds=60,
        drafted=180,
        accepted=121,
        speculation="ngram-mod",
        per_round=[RoundPoint(3, i % 4, i % 4 + 1) for i in range(60)],
        baseline_tps=40.1,
        baseline_samples=4,
    )
    for scheme in ("light", "dark"):
        theme.apply(scheme)
        for locale, answer in ANSWERS.items():
            i18n.set_language(locale)
            page = QWidget()
            page.setObjectName("chatColumn")  # the chat column's background from the stylesheet
            page.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
            lay = QVBoxLayout(page)
            question = MessageBubble("user", 1)
            question.set_content(QUESTIONS[locale])
            question.set_status("complete")
            bubble = MessageBubble("assistant", 2)
            bubble.set_content(answer, drafted(answer))
            bubble.set_status("complete")
            bubble.set_stats(stats)
            lay.addWidget(question)
            lay.addWidget(bubble)
            shoot(app, page, lay, args.out / f"chat-markdown-{scheme}-{locale}.png")
    theme.apply("system")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
