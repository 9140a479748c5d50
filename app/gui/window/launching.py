"""Opening a model's launch dialog from the window (:class:`LaunchDialogs`).

* The checks the dialog reads run on a worker first: each engine's availability (importing
  ``mlx_vlm`` is too slow for the GUI thread) and the family's cache statuses (its markers and
  gating); then the dialog opens, window-modal, and its choice is launched when it is accepted.
* The dialog's Re-measure and Auto's background measurement never run at once, and what the
  dialog measured for the loaded launch is what Auto uses.

Its texts are the window's (translation context ``MainWindow``).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal
from PySide6.QtWidgets import QWidget

from app.core.chat import ChatStore
from app.core.engines import capability
from app.core.registry import AnySpec, Family
from app.core.settings import Settings
from app.gui.cache_bridge import CacheBridge
from app.gui.controllers.auto_tuner import AutoTuner
from app.gui.controllers.chat import ChatController
from app.gui.ops import Ops
from app.gui.views.launch_dialog import LaunchChoice, LaunchDialog


class LaunchDialogs(QObject):
    """Signals: ``opened(LaunchDialog)``. ``launch`` receives the accepted dialog's choice; the
    dialogs are children of ``window``."""

    opened = Signal(object)

    def __init__(
        self,
        window: QWidget,
        ops: Ops,
        cache: CacheBridge,
        settings: Callable[[], Settings],
        chat: ChatController,
        store: ChatStore,
        tuner: AutoTuner,
        launch: Callable[[LaunchChoice], None],
    ) -> None:
        super().__init__(window)
        self._window = window
        self._ops = ops
        self._cache = cache
        self._settings = settings
        self._chat = chat
        self._store = store
        self._tuner = tuner
        self._launch = launch

    def open(self, family: Family, spec: AnySpec, quant: str) -> None:
        """Opens once the checks the dialog reads are done on a worker; ``opened`` carries the
        dialog."""
        self._ops.spawn(
            self._open(family, spec, quant),
            QCoreApplication.translate("MainWindow", "The model could not be loaded"),
        )

    async def _open(self, family: Family, spec: AnySpec, quant: str) -> None:
        engines = {name for s in family.specs for name in capability.engines_for_spec(s)}
        for name in sorted(engines):  # importing mlx_vlm is too slow for the GUI thread
            await self._ops.run(capability.engine_availability, name)
        await self._cache.prefetch(family)  # the dialog's markers and gating read these
        dlg = LaunchDialog(
            family,
            spec,
            quant,
            self._cache,
            self._settings(),
            self._window,
            ops=self._ops,
            chat_images=self._chat_has_images(),
        )
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dlg.accepted.connect(lambda: self._launch(dlg.choice()))
        # the dialog's Re-measure and Auto's background measurement never run at once; what the
        # dialog measured for the loaded launch is what Auto uses
        tuner = self._tuner
        dlg.auto_panel.stateChanged.connect(lambda state: tuner.hold(state == "measuring"))
        dlg.auto_panel.measured.connect(tuner.adopt)
        dlg.destroyed.connect(lambda: tuner.hold(False))
        dlg.open()
        self.opened.emit(dlg)

    def _chat_has_images(self) -> bool:
        """The open conversation has pictures (the dialog says when they cannot go to the model it
        launches)."""
        cid = self._chat.conversation_id
        return cid is not None and any(m.images for m in self._store.messages(cid))
