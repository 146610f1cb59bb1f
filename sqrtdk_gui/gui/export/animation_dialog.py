"""The choice before an animation export: which sweep, at which size."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication
from PySide6.QtWidgets import QComboBox, QDialog, QDialogButtonBox, QFormLayout, QWidget

from sqrtdk_gui.core.lesson.clips import CLIPS

__all__ = ["AnimationChoice", "CLIP_LABELS"]

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")

CLIP_LABELS = {
    "dk": QT_TRANSLATE_NOOP("AnimationChoice", "Step 1: d_k from 1 to 512, raw logits (the bell widens)"),
    "dk-scaled": QT_TRANSLATE_NOOP("AnimationChoice", "Step 4: d_k from 4 to 4096, ÷√d_k (the bell stays put)"),
    "autoplay": QT_TRANSLATE_NOOP("AnimationChoice", "Autoplay: d_k from 1 to 4096 and back, as now"),
    "flip": QT_TRANSLATE_NOOP("AnimationChoice", "Raw logits and ÷√d_k in turn, at the current d_k"),
}

class AnimationChoice(QDialog):
    """Two lists and OK: ``clip`` and ``frame_size`` once accepted."""

    def __init__(self, sizes: dict[str, tuple[int, int]], suggested: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(translate("AnimationChoice", "Export animation"))
        self._sizes = sizes
        self.clips = QComboBox()
        for name in CLIPS:
            self.clips.addItem(translate("AnimationChoice", str(CLIP_LABELS[name])), name)
        self.clips.setCurrentIndex(list(CLIPS).index(suggested))
        self.sizes = QComboBox()
        self.sizes.addItems(list(sizes))
        self.sizes.setCurrentText(next((label for label, size in sizes.items() if size == (1024, 768)),
                                       self.sizes.itemText(0)))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow(translate("AnimationChoice", "&Sweep:"), self.clips)
        form.addRow(translate("AnimationChoice", "Frame si&ze:"), self.sizes)
        form.addRow(buttons)

    @property
    def clip(self) -> str:
        return str(self.clips.currentData())

    @property
    def frame_size(self) -> tuple[int, int]:
        return self._sizes[self.sizes.currentText()]
