"""The lesson pages' texts: package data beside their modules, read with ``importlib.resources``.

A page is its module and its HTML of the same name in ``lesson/pages/`` (``step1.py`` and
``step1.html``); a translation is ``lesson/pages/<lang>/step1.html`` (made from the PO files
by ``packaging/build_translations.py``). The same files are read from a checkout, a wheel
and a frozen bundle, with no path arithmetic.
"""

from __future__ import annotations

import sys
from importlib import resources
from typing import TYPE_CHECKING

from sqrtdk_gui.core import i18n
from sqrtdk_gui.core.lesson.figures import fill

if TYPE_CHECKING:
    if sys.version_info >= (3, 11):
        from importlib.resources.abc import Traversable
    else:
        from importlib.abc import Traversable

__all__ = ["REVEAL_MARK", "page_file", "read_page", "page_languages", "lesson_source", "lesson_text",
           "before_reveal"]

PAGES_PACKAGE = "sqrtdk_gui.core.lesson.pages"
# In a step's text: what follows may not be read while its question is open.
REVEAL_MARK = "<!-- reveal -->"


def page_file(name: str, lang: str = "en") -> Traversable:
    """The file of the page text ``name`` (``"step1.html"``) in ``lang`` (English: the original)."""
    folder = resources.files(PAGES_PACKAGE)
    return folder / name if lang == "en" else folder / lang / name


def read_page(name: str, lang: str = "en") -> str:
    """The UTF-8 text of page ``name`` in ``lang`` as written (KeyError if there is none)."""
    try:
        return page_file(name, lang).read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError) as exc:
        raise KeyError(f"no lesson text {name!r} in {lang!r}") from exc


def page_languages(name: str) -> tuple[str, ...]:
    """The languages page ``name`` is written in, English first."""
    folder = resources.files(PAGES_PACKAGE)
    found = [entry.name for entry in folder.iterdir() if entry.is_dir() and (entry / name).is_file()]
    return ("en", *sorted(found)) if (folder / name).is_file() else tuple(sorted(found))


def lesson_source(name: str) -> str:
    """Page ``name`` as written (placeholders unfilled) in the language spoken, or in English
    where it has no translation."""
    lang = i18n.language()
    text = None
    if lang not in ("en", i18n.PSEUDO):
        try:
            text = read_page(name, lang)
        except KeyError:
            pass
    if text is None:
        text = read_page(name)
    return i18n.pseudo_html(text) if lang == i18n.PSEUDO else text


def lesson_text(name: str) -> str:
    """Page ``name`` with its ``{figure}`` placeholders filled (ranges over seeds), in the
    language spoken (English where the page has no translation)."""
    return fill(lesson_source(name))


def before_reveal(text: str) -> str:
    """A step's text up to its reveal mark: what may be read while the question is open."""
    return text.split(REVEAL_MARK, 1)[0]
