"""The loaded model, for the window, its chat and its Local server.

* :mod:`~app.gui.engine.info`: what is known of a loaded model (:class:`ModelInfo`, Auto's pick).
* :mod:`~app.gui.engine.loading`: a model's load, unload and close, each an operation on a thread
  of its own (:class:`LoadJob` says what to load).
* :mod:`~app.gui.engine.serving`: the loaded model as it answers: its engine pool, Auto's router,
  its streams relayed from the engine loop.
* :mod:`~app.gui.engine.host`: :class:`EngineHost`, the one object the others ask: it runs the
  loads and publishes their outcome on the GUI thread.
"""

from app.gui.engine.host import EngineHost
from app.gui.engine.info import AutoPick, ModelInfo
from app.gui.engine.loading import LoadJob

__all__ = ["AutoPick", "EngineHost", "LoadJob", "ModelInfo"]
