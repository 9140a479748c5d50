"""Model text to the HTML subset Qt's rich text shows: markdown-it-py for the structure, Pygments
for code, drafted-token ranges carried from the source through the parser's source maps."""

from app.core.chat.render.colors import DARK, LIGHT, Colors
from app.core.chat.render.markdown import code_blocks, code_id, render_html, stable_end

__all__ = ["DARK", "LIGHT", "Colors", "code_blocks", "code_id", "render_html", "stable_end"]
