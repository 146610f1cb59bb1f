"""Speak a language: Qt's translators, Qt's own dialogs, numbers, the core's catalogue.

``install(lang)`` is the one switch: it replaces the translators the application has, sets
the default QLocale (what spin boxes show and accept) and installs the core's gettext
catalogue. Every language is set in the fonts the program ships (``gui.assets``), Chinese
included.
"""

from __future__ import annotations

from importlib import resources

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from sqrtdk_gui.core import i18n

__all__ = ["install", "PseudoTranslator", "resolve", "qt_locale"]

_installed: list[QTranslator] = []


class PseudoTranslator(QTranslator):
    """Every Qt text through ``i18n.pseudo``: shows what is not translated and what would clip."""

    def translate(self, context: str, source_text: str, disambiguation: str | None = None,  # noqa: D102 - Qt API
                  n: int = -1) -> str:
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

