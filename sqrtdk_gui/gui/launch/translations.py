"""Speak a language: Qt's translators, Qt's own dialogs, numbers, the core's catalogue, fonts.

``install(lang)`` is the one switch: it replaces the translators the application has, sets
the default QLocale (what spin boxes show and accept), installs the core's gettext catalogue
and, for Chinese, registers the bundled CJK font when the system has none.
"""

from __future__ import annotations

from importlib import resources

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator
from PySide6.QtGui import QFontDatabase

from sqrtdk_gui.core import i18n

__all__ = ["install", "PseudoTranslator", "resolve", "qt_locale", "CJK_FONTS", "register_cjk_font"]

# Noto Sans CJK SC subset to the characters of the Chinese texts (packaging/build_cjk_font.py).
CJK_FONTS = (":/fonts/NotoSansCJKsc-Regular-subset.otf", ":/fonts/NotoSansCJKsc-Bold-subset.otf")

_installed: list[QTranslator] = []
_cjk_family: str | None = None


class PseudoTranslator(QTranslator):
    """Every Qt text through ``i18n.pseudo``: shows what is not translated and what would clip."""

    def translate(self, context, source_text, disambiguation=None, n=-1):  # noqa: D102 - Qt API
        return i18n.pseudo(source_text) if source_text else source_text

    def isEmpty(self) -> bool:  # noqa: N802 - Qt API
        return False


def qt_locale(lang: str) -> QLocale:
    """The QLocale of a supported language (the pseudo language counts as English)."""
    return QLocale("en_US" if lang in ("en", i18n.PSEUDO) else lang)


def resolve(requested: str | None, remembered: str | None = None) -> str:
    """The language to speak: the one asked for, else the one chosen before, else the system's."""
    for choice in (requested, remembered):
        if choice and i18n.speaks(choice):
            return choice
    return i18n.first_supported(QLocale.system().uiLanguages())


def install(lang: str) -> None:
    """Speak ``lang`` from now on (texts built after this call)."""
    i18n.set_language(lang)  # raises ValueError for an unknown language, before anything changes
    app = QCoreApplication.instance()
    for t in _installed:
        if app is not None:
            app.removeTranslator(t)
    _installed.clear()
    QLocale.setDefault(qt_locale(lang))
    if app is None:
        return
    if lang == i18n.PSEUDO:
        _installed.append(PseudoTranslator(app))
    elif lang != "en":
        own = QTranslator(app)
        if own.load(str(resources.files("sqrtdk_gui") / "locale" / f"{i18n.DOMAIN}_{lang}.qm")):
            _installed.append(own)
        qt = QTranslator(app)  # Qt's own dialogs: file dialogs, message box buttons
        if qt.load(qt_locale(lang), "qtbase", "_", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
            _installed.append(qt)
    for t in _installed:
        app.installTranslator(t)
    if lang == "zh_CN":
        register_cjk_font()


def register_cjk_font() -> str | None:
    """The bundled CJK font's family, registered once (None if the resource is missing)."""
    global _cjk_family
    if _cjk_family is None:
        # Registered, the subset is among the fonts Qt falls back to for a glyph the font in
        # use lacks: Latin text keeps its font, Chinese characters come from the subset.
        families: list[str] = []
        for path in CJK_FONTS:
            font_id = QFontDatabase.addApplicationFont(path)
            families += QFontDatabase.applicationFontFamilies(font_id) if font_id >= 0 else []
        _cjk_family = families[0] if families else ""
    return _cjk_family or None
