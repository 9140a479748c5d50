"""Delete confirmation for a downloaded model: Tandem's entries by default, disk space on request.

Tandem's entries only hold links into the hub's cache (Hugging Face, ModelScope), which other
tools share. So the safe default removes the entries and leaves the files; "Also free disk space"
deletes the hub files no remaining Tandem entry uses, and says plainly that other tools lose them.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.core.units import human_bytes
from app.gui import icons
from app.gui.widgets import InlineMessage

HUB_NAMES = {"huggingface": "Hugging Face", "modelscope": "ModelScope"}


class DeleteDialog(QDialog):
    """Read :attr:`free_disk` after ``accepted``. ``size`` is the bytes of the model's files in
    the hub cache, its drafters' and projector's included (0 when unknown); ``has_entry`` is False
    when only the hub cache holds the model (another tool fetched it), so removing Tandem's entry
    alone would change nothing; ``loaded``: it is the model loaded now (said, and unloaded first)."""

    WIDTH = 500

    def __init__(
        self,
        name: str,
        quant: str,
        hub: str,
        size: int = 0,
        has_entry: bool = True,
        parent: QWidget | None = None,
        loaded: bool = False,
    ) -> None:
        super().__init__(parent)
        self._name, self._quant, self._size, self._has_entry = name, quant, size, has_entry
        #: the model is the one loaded now: it is unloaded before its files go
        self._loaded = loaded
        self._hub = HUB_NAMES.get(hub, hub)
        root = QVBoxLayout(self)
        root.setContentsMargins(18, 16, 18, 14)
        root.setSpacing(10)
        head = QHBoxLayout()
        icon = QLabel()
        icon.setPixmap(icons.icon("trash", icons.DANGER).pixmap(28, 28))
        icon.setContentsMargins(0, 2, 4, 0)
        head.addWidget(icon, 0, Qt.AlignmentFlag.AlignTop)
        texts = QVBoxLayout()
        self.heading = QLabel()
        self.heading.setObjectName("sectionTitle")
        self.heading.setWordWrap(True)
        self.body = QLabel()
        self.body.setWordWrap(True)
        self.free_disk_box = QCheckBox()
        self.warning = InlineMessage()
        texts.setSpacing(8)
        self._root, self._head, self._texts = root, head, texts
        for w in (self.heading, self.body, self.free_disk_box, self.warning):
            texts.addWidget(w)  # one text column, aligned right of the icon
        texts.addStretch(1)
        head.addLayout(texts, 1)
        root.addLayout(head)
        root.addSpacing(6)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.delete_button = QPushButton()
        self.delete_button.setObjectName("danger")
        self.buttons.addButton(self.delete_button, QDialogButtonBox.ButtonRole.AcceptRole)
        cancel = self.buttons.button(QDialogButtonBox.StandardButton.Cancel)
        cancel.setAutoDefault(False)  # Enter confirms the safe default, never "Cancel" by focus
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        root.addWidget(self.buttons)
        self.free_disk_box.toggled.connect(lambda _on: self._update())
        self.retranslate()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.delete_button.setDefault(True)
        self.delete_button.setFocus()

    @property
    def free_disk(self) -> bool:
        return self.free_disk_box.isChecked()

    def _update(self) -> None:
        if self.free_disk:
            self.warning.show_message(
                self.tr(
                    "Also deletes the model and drafter files from the {hub} cache, unless another Tandem "
                    "model still uses them. Other tools that share this cache (the hf command, Python "
                    "scripts, other apps) lose these files and must download them again."
                ).format(hub=self._hub),
                "warn",
            )
            self.delete_button.setText(self.tr("Delete files"))
        else:
            self.warning.clear_message()
            self.delete_button.setText(self.tr("Remove from Tandem"))
        self._fit_height()

    def _fit_height(self) -> None:
        """A fixed size like a message box: the wrapped texts' real height at the dialog's width,
        so there is no gap above the buttons whether the warning shows or not."""
        layout = self._root
        for lay in (self._texts, self._head, layout):  # the warning was just shown or hidden
            lay.invalidate()
        height = layout.totalHeightForWidth(self.WIDTH) if layout.hasHeightForWidth() else -1
        self.setFixedSize(self.WIDTH, max(height, layout.totalMinimumSize().height()))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Delete model"))
        model = f"{self._name} {self._quant}"
        self.heading.setText(self.tr("Remove {model} from Tandem?").format(model=model))
        if self._has_entry:
            body = self.tr(
                "Tandem's entry for this model and its drafter is removed. The downloaded files stay in "
                "the {hub} cache, where other tools can still use them."
            ).format(hub=self._hub)
        else:
            body = self.tr(
                "Tandem found this model in the {hub} cache (another tool downloaded it) and has no entry "
                "of its own to remove. Choose “Also free disk space” to delete the files."
            ).format(hub=self._hub)
        if self._size:
            body += " " + self.tr("The files take {size}.").format(size=human_bytes(self._size))
        if self._loaded:
            body += " " + self.tr("It is the loaded model: Tandem unloads it first.")
        self.body.setText(body)
        self.free_disk_box.setText(self.tr("Also free disk space"))
        self._update()
