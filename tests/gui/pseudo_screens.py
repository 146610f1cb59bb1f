"""What the pseudo language shows on screen: texts that skipped translation, texts cut off.

Under the pseudo language every translated text is bracketed ⟦…⟧ and 40 % longer, so a text
with words outside brackets did not go through translation, and a text that does not fit
its widget would be cut in a long language. Used by tests/gui/test_pseudo_locale.py and by
docs/language_screenshots.py.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QGraphicsTextItem,
    QGraphicsView,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QStyle,
    QStyleOptionButton,
    QTabBar,
    QTextBrowser,
    QToolButton,
    QWidget,
)

from sqrtdk_gui.core.i18n import LANGUAGES, PSEUDO_CLOSE, PSEUDO_OPEN

# Words that are never translated: symbols and names written in letters, units, products.
NEVER_TRANSLATED = {
    "d_k", "d_model", "d_v", "log", "exp", "max", "min", "softmax", "Softmax", "SGD", "Adam", "QK", "LayerNorm",
    "bf16", "fp8", "fp16", "fp32", "bfloat16", "float16", "float32", "float64", "float8_e4m3fn", "float8_e5m2",
    "e4m3", "e5m2", "NaN", "inf", "PyTorch", "NumPy", "Qt", "sqrtdk", "gui", "sqrt_dk", "ms", "px",
    "seq_len", "log_n", "qk_norm", "none", "dk", "sqrt_dmodel", "after_softmax", "YaRN", "μP", "MSE",
    "PNG", "SVG", "CSV", "JSON", "HTML", "Markdown", "Ctrl", "Shift", "Alt", "Esc", "Tab", "Home", "End",
    "PgUp", "PgDown", "Return", "Space", "Del", "Backspace", "Enter", "Up", "Down", "Left", "Right",
    "float", "bfloat", "logit", "W_q", "W_k", "W_v", "W_Q", "W_K", "W_V",
    *(w for name in LANGUAGES.values() for w in name.split()),
}
_BRACKETED = re.compile(re.escape(PSEUDO_OPEN) + r"[^" + re.escape(PSEUDO_OPEN + PSEUDO_CLOSE) + r"]*"
                        + re.escape(PSEUDO_CLOSE))
_WORD = re.compile(r"[A-Za-z][A-Za-z_]{2,}")
_TAG = re.compile(r"<[^>]*>")
# What word wrap cannot break: runs without spaces, each ending after a hyphen or a soft hyphen
# ("End-" and "Genauigkeit" go on two lines; Chinese and Japanese break between any two characters, and at
# their full-width punctuation).
_UNBREAKABLE = re.compile(r"[^\s\u00ad\u2e80-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef-]+[\u00ad-]?|-+")


def plain(text: str) -> str:
    """Rich text as the reader sees it."""
    return html.unescape(_TAG.sub(" ", text)) if "<" in text else text


def untranslated_words(text: str) -> list[str]:
    """Words of ``text`` outside every ⟦…⟧ (innermost first) that are not symbols or names."""
    text = plain(text).replace("&&", "&")
    if text.endswith("…") and text.count(PSEUDO_OPEN) > text.count(PSEUDO_CLOSE):
        text += PSEUDO_CLOSE  # an elided text lost its closing bracket, not its translation
    while True:
        stripped = _BRACKETED.sub(" ", text)
        if stripped == text:
            break
        text = stripped
    return [w for w in _WORD.findall(text) if w not in NEVER_TRANSLATED and not w.startswith(("http", "www"))]


@dataclass(frozen=True)
class Finding:
    where: str  # the widget's class and object name
    text: str
    problem: str

    def __str__(self) -> str:
        return f"{self.problem}: {self.where}: {self.text[:90]!r}"


def _where(w) -> str:
    name = w.objectName() if isinstance(w, QWidget) else ""
    parent = w.parentWidget() if isinstance(w, QWidget) else None
    chain = []
    while parent is not None and len(chain) < 3:
        chain.append(type(parent).__name__)
        parent = parent.parentWidget()
    return f"{type(w).__name__}{'#' + name if name else ''} in {'/'.join(chain)}"


def _shown(w: QWidget) -> bool:
    return w.isVisible() and w.width() > 0 and w.height() > 0


def _texts(w: QWidget) -> list[str]:
    if isinstance(w, QLabel):
        return [w.text()]
    if isinstance(w, QAbstractButton):
        return [w.text()]
    if isinstance(w, QGroupBox):
        return [w.title()]
    if isinstance(w, QLineEdit):
        return [w.placeholderText()] if not w.text() else []
    if isinstance(w, QComboBox):
        return [w.currentText()]
    if isinstance(w, QTabBar):
        return [w.tabText(i) for i in range(w.count())]
    if isinstance(w, QTextBrowser):
        return [w.toPlainText()]
    return []


def _clipped(w: QWidget) -> bool:
    """Whether a one-line text needs more room than its widget has (Qt's own size hint)."""
    if isinstance(w, QToolButton) and w.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonIconOnly:
        return False  # its text is a tooltip
    if isinstance(w, QLabel):
        if not w.text() or w.pixmap() is not None and not w.pixmap().isNull():
            return False
        if w.wordWrap():  # wrapped: cut if a word is wider than it or its lines need more height
            words = _UNBREAKABLE.findall(plain(w.text()))
            wide = max((w.fontMetrics().horizontalAdvance(word) for word in words), default=0)
            return wide > w.contentsRect().width() + 2 or w.heightForWidth(w.width()) > w.height() + 2
        return w.sizeHint().width() > w.contentsRect().width() + w.contentsMargins().left() \
            + w.contentsMargins().right() + 2
    if isinstance(w, QPushButton) and w.text():
        # The widest line shown (a wrapping button's own breaks) against the room inside its frame.
        option = QStyleOptionButton()
        w.initStyleOption(option)
        room = w.style().subElementRect(QStyle.SubElement.SE_PushButtonContents, option, w).width()
        icon = option.iconSize.width() + 4 if not option.icon.isNull() else 0
        lines = QPushButton.text(w).replace("&", "").split("\n")
        return max(w.fontMetrics().horizontalAdvance(line) for line in lines) + icon > room + 2
    if isinstance(w, QAbstractButton) and w.text():
        return w.sizeHint().width() > w.width() + 2
    if isinstance(w, QTabBar):
        fm = w.fontMetrics()
        return any(fm.horizontalAdvance(w.tabText(i).replace("&", "")) > w.tabRect(i).width() - 8 + 2
                   for i in range(w.count()))
    if isinstance(w, QScrollArea) and w.widget() is not None \
            and w.horizontalScrollBarPolicy() == Qt.ScrollBarPolicy.ScrollBarAlwaysOff:
        return w.widget().minimumSizeHint().width() > w.viewport().width() + 2  # its right edge cut
    if isinstance(w, QGroupBox) and w.title():
        return w.fontMetrics().horizontalAdvance(w.title()) > w.width() + 2
    return False


def _plot_texts(view: QGraphicsView) -> list[tuple[str, bool]]:
    """(text, cut off by the view's edge) of every visible text item of a plot canvas."""
    out = []
    visible = QRectF(view.mapToScene(view.viewport().rect()).boundingRect())
    for item in view.scene().items():
        if isinstance(item, QGraphicsTextItem) and item.isVisible() and item.toPlainText().strip():
            # Without the document's margin: blank padding around the glyphs may leave the view.
            margin = item.document().documentMargin() * item.scale()
            rect = item.sceneBoundingRect().adjusted(margin, margin, -margin, -margin)
            inside = visible.adjusted(-2, -2, 2, 2).contains(rect)
            out.append((item.toPlainText(), not inside))
    return out


def findings(root: QWidget, clip: bool = True) -> list[Finding]:
    """Every untranslated or cut-off text of the visible widgets under ``root``."""
    out: list[Finding] = []
    for w in [root, *root.findChildren(QWidget)]:
        if not _shown(w):
            continue
        for text in _texts(w):
            words = untranslated_words(text)
            if words:
                out.append(Finding(_where(w), text, f"untranslated {words[:3]}"))
        if clip and _clipped(w):
            out.append(Finding(_where(w), " | ".join(_texts(w)), "cut off"))
        if isinstance(w, pg.GraphicsView):
            for text, cut in _plot_texts(w):
                words = untranslated_words(text)
                if words:
                    out.append(Finding(_where(w), text, f"untranslated {words[:3]}"))
                if clip and cut:
                    out.append(Finding(_where(w), text, "cut off by the plot's edge"))
    return out


def menu_findings(window) -> list[Finding]:
    """Untranslated texts of the menus (every action, shown or not)."""
    out = []
    for menu_action in window.menuBar().actions():
        menu = menu_action.menu()
        for action in [menu_action, *(menu.actions() if menu else [])]:
            for text in (action.text(), action.statusTip(), action.toolTip()):
                words = untranslated_words(text.split("\t")[0])
                if words:
                    out.append(Finding("menu " + menu_action.text(), text, f"untranslated {words[:3]}"))
    return out


# A number written with a decimal point, outside code ("22.6", "0.5×"; not "6.11.3", "e4m3", "fp8").
_POINT_DECIMAL = re.compile(r"(?<![\w.‧])\d+\.\d+(?![\w‧]|\.\d)")
_CODE = re.compile(r"<(code|pre|tt)\b[^>]*>.*?</\1>", re.DOTALL | re.IGNORECASE)


def point_decimals(text: str) -> list[str]:
    """The numbers of ``text`` (rich or plain) written with a decimal point, outside code."""
    return _POINT_DECIMAL.findall(plain(_CODE.sub(" ", text)) if "<" in text else text)


def _axis_texts(view: QGraphicsView) -> list[str]:
    """The tick labels every visible axis of a plot canvas draws now."""
    from PySide6.QtGui import QImage, QPainter

    out = []
    image = QImage(8, 8, QImage.Format.Format_ARGB32)
    for item in view.scene().items():
        if isinstance(item, pg.AxisItem) and item.isVisible() and item.style.get("showValues", True):
            painter = QPainter(image)
            try:
                specs = item.generateDrawSpecs(painter)
            finally:
                painter.end()
            if specs is not None:
                out += [text for _, _, text in specs[2]]
    return out


def _cell_texts(view) -> list[str]:
    """The texts of a table or list: its cells and headers."""
    from PySide6.QtCore import QModelIndex
    from PySide6.QtCore import Qt as _Qt

    model = view.model()
    if model is None:
        return []
    rows = model.rowCount(QModelIndex())
    try:
        columns = model.columnCount(QModelIndex())
    except TypeError:  # a list model: one column
        columns = 1
    out = [str(model.headerData(c, _Qt.Orientation.Horizontal) or "") for c in range(columns)]
    out += [str(model.data(model.index(r, c)) or "") for r in range(rows) for c in range(columns)]
    return out


def decimal_findings(root: QWidget) -> list[Finding]:
    """Every number shown under ``root`` with a decimal point: in the pseudo language, whose
    decimal mark is no language's, a number that bypassed the language's mark."""
    from PySide6.QtWidgets import QAbstractItemView

    out: list[Finding] = []
    for w in [root, *root.findChildren(QWidget)]:
        if not _shown(w):
            continue
        texts = list(_texts(w))
        if isinstance(w, QTextBrowser):
            texts = [w.toHtml()]  # its code spans are monospace (no <code> left): see below
        if isinstance(w, QAbstractItemView):
            texts += _cell_texts(w)
        if isinstance(w, pg.GraphicsView):
            texts += [text for text, _ in _plot_texts(w)] + _axis_texts(w)
        for text in texts:
            numbers = point_decimals(text)
            if numbers:
                out.append(Finding(_where(w), text, f"decimal point {numbers[:3]}"))
    return out
