"""Accessible names and descriptions for every control, and a keyboard-only tab order.

Screen readers announce a widget by its accessible name and description. Controls get a
name that says what they set (``NAMES``, by object name) and their tooltip as description;
anything else that takes focus is named from its text, its form label or its placeholder.
The plots themselves are not interactive (no mouse panning in class), so they leave the
tab order: Tab walks controls, the panels' *Numbers* buttons, the tables and the lesson. The
names are read aloud: they are in the current language.
"""

from __future__ import annotations

from typing import cast

import pyqtgraph as pg
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt
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

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")

# Scroll areas take focus to scroll with the keyboard (the controls column, the lesson text).
INTERACTIVE = (QAbstractButton, QAbstractSlider, QAbstractSpinBox, QComboBox, QLineEdit, QTabBar,
               QAbstractScrollArea)

# By object name; English, marked for lupdate: ``_name`` translates them. QT_TRANSLATE_NOOP
# returns its text (the stub says object).
NAMES = cast("dict[str, str]", {
    "dk_slider": QT_TRANSLATE_NOOP("Accessibility", "Head size d_k"),
    "dk_spin": QT_TRANSLATE_NOOP("Accessibility", "Head size d_k, exact value"),
    "autoplay": QT_TRANSLATE_NOOP("Accessibility", "Autoplay d_k"),
    "autoplay_speed": QT_TRANSLATE_NOOP("Accessibility", "Autoplay speed, seconds per sweep"),
    "scaling_none": QT_TRANSLATE_NOOP("Accessibility", "Raw logits"),
    "scaling_sqrt_dk": QT_TRANSLATE_NOOP("Accessibility", "Divide by square root of d_k"),
    "scaling_combo": QT_TRANSLATE_NOOP("Accessibility", "Scaling mode"),
    "temp_slider": QT_TRANSLATE_NOOP("Accessibility", "Temperature tau"),
    "temp_reset": QT_TRANSLATE_NOOP("Accessibility", "Reset temperature to 1"),
    "keys_spin": QT_TRANSLATE_NOOP("Accessibility", "Number of keys n"),
    "row_spin": QT_TRANSLATE_NOOP("Accessibility", "Query row shown in panels 2 and 3"),
    "seed_spin": QT_TRANSLATE_NOOP("Accessibility", "Random seed"),
    "new_sample": QT_TRANSLATE_NOOP("Accessibility", "New sample"),
    "heads_spin": QT_TRANSLATE_NOOP("Accessibility", "Heads h"),
    "gain_spin": QT_TRANSLATE_NOOP("Accessibility", "QK-norm gain g"),
    "alignment_spin": QT_TRANSLATE_NOOP("Accessibility", "Alignment rho"),
    "softmax_combo": QT_TRANSLATE_NOOP("Accessibility", "Softmax variant"),
    "dtype_combo": QT_TRANSLATE_NOOP("Accessibility", "Float type"),
    "reveal": QT_TRANSLATE_NOOP("Accessibility", "Reveal answer"),
    "guesses": QT_TRANSLATE_NOOP("Accessibility", "Guesses"),
    "previous": QT_TRANSLATE_NOOP("Accessibility", "Previous lesson step"),
    "next": QT_TRANSLATE_NOOP("Accessibility", "Next lesson step"),
    "lessonText": QT_TRANSLATE_NOOP("Accessibility", "Lesson text"),
    "predictScroll": QT_TRANSLATE_NOOP("Accessibility", "Prediction question"),
    "predictInner": QT_TRANSLATE_NOOP("Accessibility", "Prediction question and answer"),  # the scroll area around it
    "controlsScroll": QT_TRANSLATE_NOOP("Accessibility", "Controls"),
})


def _name(object_name: str) -> str:
    """The accessible name NAMES gives ``object_name``, in the current language ("" : none)."""
    name = NAMES.get(object_name, "")
    return translate("Accessibility", name) if name else ""


def _clean(text: str) -> str:
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").strip()


def _form_label(widget: QWidget) -> str:
    for form in widget.window().findChildren(QFormLayout):
        label = form.labelForField(widget)
        if label is not None and hasattr(label, "text"):
            return cast(str, label.text())  # a QLabel or a button: hasattr leaves it Any
    return ""


def _fallback_name(widget: QWidget) -> str:
    if isinstance(widget, QAbstractButton):
        return _clean(widget.text()) or widget.toolTip()
    if isinstance(widget, QLineEdit):
        return widget.placeholderText() or widget.toolTip()
    if isinstance(widget, QTabBar):
        return translate("Accessibility", "Pages")
    if isinstance(widget, QAbstractScrollArea):  # named after what it scrolls
        inner = widget.widget() if hasattr(widget, "widget") else None
        name = _name(inner.objectName()) if inner is not None else ""
        return name or _form_label(widget) or widget.toolTip() or translate("Accessibility", "Scrollable area")
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
            widget.setAccessibleName(translate("Accessibility", "Chart: {title}").format(title=title) if title
                                     else translate("Accessibility", "Chart"))
            widget.setAccessibleDescription(translate("Accessibility", "A plot; the Numbers button above it shows its "
                                                      "data as a table"))
            continue
        if not isinstance(widget, INTERACTIVE) or isinstance(widget.parentWidget(), QAbstractSpinBox):
            continue
        if not widget.accessibleName():
            widget.setAccessibleName(_name(widget.objectName()) or _fallback_name(widget))
        if not widget.accessibleDescription() and widget.toolTip():
            widget.setAccessibleDescription(widget.toolTip())
