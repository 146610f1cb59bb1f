"""Accessible names and descriptions for every control, and a keyboard-only tab order.

Screen readers announce a widget by its accessible name and description. Controls get a
name that says what they set (``NAMES``, by object name) and their tooltip as description;
anything else that takes focus is named from its text, its form label or its placeholder.
The plots themselves are not interactive (no mouse panning in class), so they leave the
tab order: Tab walks controls, the panels' *Numbers* buttons, the tables and the lesson.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractScrollArea,
    QAbstractSlider,
    QAbstractSpinBox,
    QComboBox,
    QFormLayout,
    QLineEdit,
    QTabBar,
    QWidget,
)

__all__ = ["NAMES", "describe_widgets", "interactive_widgets", "INTERACTIVE"]

# Scroll areas take focus to scroll with the keyboard (the controls column, the lesson text).
INTERACTIVE = (QAbstractButton, QAbstractSlider, QAbstractSpinBox, QComboBox, QLineEdit, QTabBar,
               QAbstractScrollArea)

NAMES = {
    "dk_slider": "Head size d_k",
    "dk_spin": "Head size d_k, exact value",
    "autoplay": "Autoplay d_k",
    "autoplay_speed": "Autoplay speed, seconds per sweep",
    "scaling_none": "Raw logits",
    "scaling_sqrt_dk": "Divide by square root of d_k",
    "scaling_combo": "Scaling mode",
    "temp_slider": "Temperature tau",
    "temp_reset": "Reset temperature to 1",
    "keys_spin": "Number of keys n",
    "row_spin": "Query row shown in panels 2 and 3",
    "seed_spin": "Random seed",
    "new_sample": "New sample",
    "heads_spin": "Heads h",
    "gain_spin": "QK-norm gain g",
    "alignment_spin": "Alignment rho",
    "softmax_combo": "Softmax variant",
    "dtype_combo": "Float type",
    "reveal": "Reveal answer",
    "guesses": "Class guesses",
    "previous": "Previous lesson step",
    "next": "Next lesson step",
    "lessonText": "Lesson text",
    "predictScroll": "Prediction question",
    "predictInner": "Prediction question and answer",  # the scroll area around it
    "controlsScroll": "Controls",
}


def _clean(text: str) -> str:
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").strip()


def _form_label(widget: QWidget) -> str:
    for form in widget.window().findChildren(QFormLayout):
        label = form.labelForField(widget)
        if label is not None and hasattr(label, "text"):
            return label.text()
    return ""


def _fallback_name(widget: QWidget) -> str:
    if isinstance(widget, QAbstractButton):
        return _clean(widget.text()) or widget.toolTip()
    if isinstance(widget, QLineEdit):
        return widget.placeholderText() or widget.toolTip()
    if isinstance(widget, QTabBar):
        return "Pages"
    if isinstance(widget, QAbstractScrollArea):  # named after what it scrolls
        inner = widget.widget() if hasattr(widget, "widget") else None
        name = NAMES.get(inner.objectName(), "") if inner is not None else ""
        return name or _form_label(widget) or widget.toolTip() or "Scrollable area"
    return _form_label(widget) or widget.toolTip() or widget.objectName().replace("_", " ")


def interactive_widgets(root: QWidget) -> list[QWidget]:
    """The widgets under ``root`` a keyboard user operates (focusable controls)."""
    found = [w for w in root.findChildren(QWidget) if isinstance(w, INTERACTIVE)]
    return [w for w in found if w.focusPolicy() & Qt.FocusPolicy.TabFocus and w.isEnabled()
            and not isinstance(w.parentWidget(), QAbstractSpinBox)  # a spin box's own field
            and not isinstance(w, pg.GraphicsView)]


def describe_widgets(window: QWidget) -> None:
    """Name and describe every control of ``window``; take the plots out of the tab order."""
    scroll = getattr(window, "controls_scroll", None)
    if scroll is not None and not scroll.objectName():
        scroll.setObjectName("controlsScroll")
    for widget in window.findChildren(QWidget):
        if isinstance(widget, pg.GraphicsView):
            widget.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            owner = widget.parentWidget()
            title = getattr(getattr(owner, "title", None), "text", lambda: "")()
            widget.setAccessibleName(f"Chart: {title}" if title else "Chart")
            widget.setAccessibleDescription("A plot; the Numbers button above it shows its data as a table")
            continue
        if not isinstance(widget, INTERACTIVE) or isinstance(widget.parentWidget(), QAbstractSpinBox):
            continue
        if not widget.accessibleName():
            widget.setAccessibleName(NAMES.get(widget.objectName()) or _fallback_name(widget))
        if not widget.accessibleDescription() and widget.toolTip():
            widget.setAccessibleDescription(widget.toolTip())
