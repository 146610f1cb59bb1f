"""The progress of an export run from the window: page i of n, its name, and Cancel.

The caller names what is counted with an English unit, "Slide" or "Page" (any other word
is shown as given; "Frame" for an animation); the dialog says it in the language spoken.

Window-modal, so the state being exported cannot change under it, while the event loop
runs (the export is an ``ExportRun``). Cancel (the button, Escape or closing the dialog)
asks the export to stop; the dialog stays, saying so, until the export has stopped and the
window is restored, which takes at most the file being written.
"""

from __future__ import annotations

from typing import cast

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QProgressBar, QVBoxLayout, QWidget

from sqrtdk_gui.gui.export.run import ExportRun

__all__ = ["ExportDialog"]

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")

# Per unit: (progress, what the bar counts, what Cancel keeps); {index}, {count}, {name}.
_UNITS = {
    "Slide": (QT_TRANSLATE_NOOP("ExportDialog", "Slide {index} of {count}: {name}"),
              QT_TRANSLATE_NOOP("ExportDialog", "Slides done"),
              QT_TRANSLATE_NOOP("ExportDialog", "Stop the export; the slides written so far stay")),
    "Page": (QT_TRANSLATE_NOOP("ExportDialog", "Page {index} of {count}: {name}"),
             QT_TRANSLATE_NOOP("ExportDialog", "Pages done"),
             QT_TRANSLATE_NOOP("ExportDialog", "Stop the export; the pages written so far stay")),
    "Frame": (QT_TRANSLATE_NOOP("ExportDialog", "Frame {index} of {count}: {name}"),
              QT_TRANSLATE_NOOP("ExportDialog", "Frames drawn"),
              QT_TRANSLATE_NOOP("ExportDialog", "Stop the export; no animation is written")),
}
# Any other unit ({unit}: the word as the caller gives it).
_OTHER_UNIT = (QT_TRANSLATE_NOOP("ExportDialog", "{unit} {index} of {count}: {name}"),
               QT_TRANSLATE_NOOP("ExportDialog", "{unit}s done"),
               QT_TRANSLATE_NOOP("ExportDialog", "Stop the export; the {unit}s written so far stay"))


class ExportDialog(QDialog):
    """Follows one ``ExportRun``; closes itself when it finishes."""

    canceled = Signal()

    def __init__(self, title: str, unit: str, count: int, run: ExportRun, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setWindowModality(Qt.WindowModality.WindowModal)
        self._unit = unit
        # QT_TRANSLATE_NOOP returned each text (the stub says object).
        progress, done, keeps = (translate("ExportDialog", cast(str, text)) for text in _UNITS.get(unit, _OTHER_UNIT))
        self._progress = progress
        self._finished = False
        self.label = QLabel(translate("ExportDialog", "{title}…").format(title=title))
        self.label.setMinimumWidth(420)
        self.bar = QProgressBar()
        self.bar.setRange(0, max(count, 1))
        self.bar.setValue(0)
        self.bar.setAccessibleName(done.format(unit=unit))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.cancel_button = buttons.button(QDialogButtonBox.StandardButton.Cancel)
        self.cancel_button.setAccessibleDescription(keeps.format(unit=unit.lower()))
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.label)
        layout.addWidget(self.bar)
        layout.addWidget(buttons)
        self.canceled.connect(run.cancel)
        run.progressed.connect(self.show_page)
        run.finished.connect(self._done)

    def show_page(self, index: int, count: int, name: str) -> None:
        self.bar.setValue(index)
        if name:
            self.label.setText(self._progress.format(unit=self._unit, index=min(index + 1, count), count=count,
                                                     name=name))

    def reject(self) -> None:  # the button, Escape
        if not self._finished and self.cancel_button.isEnabled():
            self.cancel_button.setEnabled(False)
            self.label.setText(translate("ExportDialog", "Cancelling…"))
            self.canceled.emit()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt API
        if self._finished:
            event.accept()
            return
        event.ignore()  # the export ends first; then the dialog closes itself
        self.reject()

    def _done(self, *_outcome: object) -> None:
        self._finished = True
        self.done(QDialog.DialogCode.Accepted)
        self.deleteLater()
