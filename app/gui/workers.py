""":class:`~app.gui.engine.info.ModelInfo` under the module name the chat controller
(:mod:`app.gui.controllers.chat.controller`) imports it from. The engine host and everything of
the loaded model live in :mod:`app.gui.engine`; import from there."""

from app.gui.engine.info import ModelInfo

__all__ = ["ModelInfo"]
