"""The files the window ships with, read as package data: its fonts and its icon.

**Fonts.** Whether a projected page fits 1024×768 depends on the font it is set in, so the
window never uses whatever the machine has: it registers the DejaVu fonts it ships (Sans for
text, Sans Mono for code) and a subset of Noto Sans CJK SC (the characters of the Chinese
texts), and makes them the application's fonts on every system. DejaVu, kept to the Latin,
Greek, Cyrillic, punctuation, mathematical, arrow and box-drawing blocks, covers every other
character the texts use; the CJK subset comes next in
the family list, so Chinese characters come from it rather than from a system fallback. Rich
text's generic families (``<code>`` asks for "monospace") are mapped to the shipped fonts too.
Horizontal metrics are left unhinted: a line is as wide on Windows and macOS as on Linux.
"""

from __future__ import annotations

import os
import sys
from importlib import resources
from typing import TYPE_CHECKING, cast

from PySide6.QtCore import QByteArray
from PySide6.QtGui import QFont, QFontDatabase, QGuiApplication, QIcon, QPixmap

if TYPE_CHECKING:
    if sys.version_info >= (3, 11):
        from importlib.resources.abc import Traversable
    else:
        from importlib.abc import Traversable

__all__ = ["SANS", "MONO", "CJK", "FONT_FILES", "asset", "register_fonts", "install_fonts", "code_font",
           "icon", "icon_bytes", "point_offscreen_at_shipped_fonts"]

SANS, MONO, CJK = "DejaVu Sans", "DejaVu Sans Mono", "Noto Sans CJK SC"
# Subsets of DejaVu and Noto Sans CJK SC to what the program's texts need
# (packaging/build_fonts.py); code is never bold (Qt would embolden the regular face).
FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansMono.ttf",
              "NotoSansCJKsc-Regular-subset.otf", "NotoSansCJKsc-Bold-subset.otf")
ICON = "sqrtdk-gui.svg"
# Crisp vertically, unhinted across: widths match between systems (QFont's documentation).
HINTING = QFont.HintingPreference.PreferVerticalHinting

_registered: dict[str, str] = {}  # file -> family, once per process


def asset(name: str) -> Traversable:
    """A file shipped in this package (``"fonts/DejaVuSans.ttf"``, ``"sqrtdk-gui.svg"``)."""
    node = resources.files(__name__)
    for part in name.split("/"):
        node = node / part
    return node


def point_offscreen_at_shipped_fonts() -> None:
    """On Windows, give Qt's offscreen platform (screenshots, slides, the smoke test) the
    shipped fonts as its font folder, before the QApplication exists: it reads fonts only from
    ``QT_QPA_FONTDIR`` or ``<Qt>/lib/fonts``, never ``C:\\Windows\\Fonts``, and warns when
    neither exists. A folder the caller chose is kept; elsewhere the system's font service
    serves every platform."""
    if sys.platform != "win32" or os.environ.get("QT_QPA_FONTDIR"):
        return
    folder = asset("fonts")
    if isinstance(folder, os.PathLike) and os.path.isdir(folder):
        os.environ["QT_QPA_FONTDIR"] = os.fspath(folder)


def register_fonts() -> dict[str, str]:
    """Register the shipped fonts with Qt once; the family of each file that loaded.

    A file that does not load (damaged, or removed from a bundle) is left out: the window then
    falls back to the system's fonts, and the smoke test says which file is missing."""
    if not _registered:
        for name in FONT_FILES:
            try:
                data = asset(f"fonts/{name}").read_bytes()
            except OSError:
                continue
            font_id = QFontDatabase.addApplicationFontFromData(QByteArray(data))
            families = QFontDatabase.applicationFontFamilies(font_id) if font_id >= 0 else []
            if families:
                _registered[name] = families[0]
    return dict(_registered)


def _families(*first: str) -> list[str]:
    known = set(register_fonts().values())
    return [f for f in (*first, CJK) if f in known]


def install_fonts(app: QGuiApplication | None = None) -> QFont:
    """Make the shipped fonts the application's (keeping its point size); the font set."""
    app = app or cast("QGuiApplication | None", QGuiApplication.instance())  # the stub says QCoreApplication
    # Rich text asks for generic families (``<code>`` is "monospace"), which the system would
    # otherwise resolve to fonts of its own.
    for generic, shipped in (("monospace", MONO), ("sans-serif", SANS)):
        if _families(shipped) and QFont.substitutes(generic)[:1] != [shipped]:
            QFont.insertSubstitutions(generic, _families(shipped))
    font = QFont(app.font()) if app is not None else QFont()
    families = _families(SANS)
    if families:
        font.setFamilies(families)
    font.setHintingPreference(HINTING)
    if app is not None:
        app.setFont(font)
    return font


def code_font(point_size: int) -> QFont:
    """The monospaced font code is shown in, at ``point_size``."""
    families = _families(MONO)
    font = QFont(families) if families else QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    font.setStyleHint(QFont.StyleHint.Monospace)
    font.setHintingPreference(HINTING)
    font.setPointSize(point_size)
    return font


def icon_bytes() -> bytes:
    """The program's icon as SVG."""
    return asset(ICON).read_bytes()


def icon() -> QIcon:
    """The program's icon, drawn from its SVG at every size asked for."""
    with resources.as_file(asset(ICON)) as path:
        result = QIcon(str(path))
    if result.isNull():  # no SVG icon engine: one large raster instead
        pixmap = QPixmap()
        pixmap.loadFromData(icon_bytes(), "SVG")
        result = QIcon(pixmap)
    return result
