"""Extract the texts to translate, merge them into each language's PO files, compile them.

Translators edit PO files only (docs/translating.md): ``resources/i18n/<lang>/`` holds

- ``qt.po``      the window's texts (Qt's ``translate("Context", ...)``, extracted by pyside6-lupdate)
- ``core.po``    the Qt-free core and the command line (gettext ``_``/``N_``, extracted by Babel)
- ``lesson.po``  the lesson's pages, paragraph by paragraph (translate-toolkit's html2po)

and ``resources/i18n/templates/`` the three templates. This script compiles them into

- ``sqrtdk_gui/locale/sqrtdk_gui_<lang>.qm``              (pyside6-lrelease)
- ``sqrtdk_gui/locale/<lang>/LC_MESSAGES/sqrtdk_gui.mo``  (Babel)
- ``sqrtdk_gui/core/lesson/pages/<lang>/<page>.html``    (po2html)

A text a PO file lacks stays English, string by string.

    python packaging/build_translations.py            # extract, merge, compile
    python packaging/build_translations.py --compile  # compile only (after editing a PO file)
    python packaging/build_translations.py --check    # exit 1 if a template or a compiled file is stale

Needs the ``i18n`` extra (Babel, translate-toolkit) and PySide6-Essentials' lupdate/lrelease.
"""

from __future__ import annotations

import argparse
import io
import re
import shutil
import subprocess
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the checkout's package, installed or not
from sqrtdk_gui.core.i18n import LANGUAGES  # noqa: E402 - the table of languages

I18N = ROOT / "resources" / "i18n"
TEMPLATES = I18N / "templates"
LESSON = ROOT / "sqrtdk_gui" / "core" / "lesson" / "pages"
LOCALE = ROOT / "sqrtdk_gui" / "locale"
DOMAIN = "sqrtdk_gui"
LANGS = tuple(code for code in LANGUAGES if code != "en")  # sqrtdk_gui.core.i18n.SPOKEN: one table
# Dates in headers would change every file at every run: the catalogues carry a fixed one.
EPOCH = datetime(2026, 1, 1, tzinfo=timezone.utc)
CORE_SOURCES = ("sqrtdk_gui/core", "sqrtdk_gui/cli")
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}


def tool(name: str) -> str:
    """A PySide6 tool (pyside6-lupdate, pyside6-lrelease) of the running interpreter's environment."""
    here = Path(sys.executable).with_name(name)
    found = str(here) if here.exists() else shutil.which(name)
    if not found:
        raise SystemExit(f"{name} not found: install PySide6-Essentials")
    return found


def lesson_pages() -> list[Path]:
    return sorted(LESSON.glob("*.html"))


# --- extraction -------------------------------------------------------------------------

def extract_qt():
    """The window's texts (lupdate), as a Babel catalogue: a text with ``%n`` is a plural entry
    (lupdate marks only ``self.tr``'s as plural), locations are files without line numbers."""
    sources = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "sqrtdk_gui" / "gui").rglob("*.py"))
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "qt.po"  # lupdate picks its format from the suffix; .pot is not one
        subprocess.run([tool("pyside6-lupdate"), "-locations", "absolute", "-no-obsolete", "-silent", *sources,
                        "-ts", str(out)], check=True, cwd=ROOT)
        found = read_po(out)
    catalog = _catalog()
    for m in found:
        if not m.id:
            continue
        text = str(m.id[0] if isinstance(m.id, tuple) else m.id)
        files = sorted({_relative(path) for path, _line in m.locations})
        catalog.add((text, text) if "%n" in text else text, locations=[(f, None) for f in files],
                    flags=m.flags, context=m.context, auto_comments=m.auto_comments)
    return catalog


def _relative(path: str) -> str:
    p = Path(path)
    return str(p.resolve().relative_to(ROOT)) if p.is_absolute() else str(p)


def _catalog(locale: str | None = None):
    from babel.messages.catalog import Catalog

    from sqrtdk_gui import __version__

    return Catalog(locale=locale, project="sqrtdk-gui", version=__version__, creation_date=EPOCH,
                   revision_date=EPOCH, charset="utf-8", fuzzy=False)


def extract_core():
    """The core's and the command line's gettext texts as a Babel catalogue."""
    from babel.messages.extract import extract_from_dir

    catalog = _catalog()
    for folder in CORE_SOURCES:
        for filename, _lineno, message, comments, context in extract_from_dir(
                ROOT / folder, method_map=[("**.py", "python")], keywords=KEYWORDS, comment_tags=("Translators:",)):
            catalog.add(message, locations=[(f"{folder}/{filename}", None)], auto_comments=comments,
                        context=context)
    return catalog


def extract_lesson():
    """The lesson pages' paragraphs (html2po's units) as a Babel catalogue."""
    from translate.storage import html

    catalog = _catalog()
    for page in lesson_pages():
        for unit in html.htmlfile(inputfile=io.BytesIO(page.read_bytes())).units:
            if unit.source.strip():
                catalog.add(unit.source, locations=[(page.name, None)])
    return catalog


# Qt's plural forms per language (lrelease's numerus rules), which can differ from CLDR's that
# Babel knows (Spanish: two in Qt, three in recent CLDR).
QT_PLURALS = {"de": (2, "(n != 1)"), "es": (2, "(n != 1)"), "zh_CN": (1, "0")}


# What makes a text a %-format (argparse's help texts): "%%" or "%(name)s".
PERCENT_FORMAT = re.compile(r"%%|%\([a-z_]+\)[sdr]")


def write_po(catalog, path: Path, qt: bool = False, lang: str | None = None) -> None:
    """Write ``catalog``; ``qt``: with the headers lrelease needs (Qt's "context|" msgctxt, the
    language whose plural forms the entries hold)."""
    from babel.messages.pofile import write_po as babel_write

    path.parent.mkdir(parents=True, exist_ok=True)
    for message in catalog:
        # Babel flags any "%" followed by a letter ("90 % accuracy") as a Python format, and
        # `msgfmt -c` then fails on the translations: only argparse's help texts are %-formatted.
        text_id = message.id if isinstance(message.id, str) else message.id[0]
        if "python-format" in message.flags and not PERCENT_FORMAT.search(text_id or ""):
            message.flags.discard("python-format")
    buf = io.BytesIO()
    if qt and lang is not None:
        catalog._num_plurals, catalog._plural_expr = QT_PLURALS[lang]
    babel_write(buf, catalog, width=100, omit_header=False, sort_output=False, include_lineno=False,
                ignore_obsolete=True)
    text = buf.getvalue().decode("utf-8")
    if qt:
        extra = '"X-Qt-Contexts: true\\n"\n'
        if lang is not None:
            extra += f'"X-Language: {lang}\\n"\n'
        text = text.replace('"Content-Type:', extra + '"Content-Type:', 1)
    path.write_text(text, encoding="utf-8")


def read_po(path: Path, locale: str | None = None):
    from babel.messages.pofile import read_po as babel_read

    with path.open("rb") as f:
        return babel_read(f, locale=locale)


def extract(out_dir: Path) -> None:
    """Write the three templates into ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    write_po(extract_qt(), out_dir / "qt.pot", qt=True)
    write_po(extract_core(), out_dir / "core.pot")
    write_po(extract_lesson(), out_dir / "lesson.pot")


def merge(lang: str) -> None:
    """Bring ``lang``'s PO files up to the templates (new texts empty, gone texts dropped)."""
    folder = I18N / lang
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("qt", "core", "lesson"):
        template = read_po(TEMPLATES / f"{name}.pot")
        po = folder / f"{name}.po"
        catalog = read_po(po, locale=lang) if po.exists() else _catalog(lang)
        catalog.update(template, no_fuzzy_matching=True)
        catalog.revision_date = EPOCH
        write_po(catalog, po, qt=name == "qt", lang=lang)


# --- compilation ------------------------------------------------------------------------

def compile_lang(lang: str, locale_dir: Path, lesson_dir: Path) -> None:
    """The .qm, the .mo and the translated lesson pages of ``lang``."""
    from babel.messages.mofile import write_mo
    from translate.convert.po2html import po2html
    from translate.storage import po as tt_po

    folder = I18N / lang
    locale_dir.mkdir(parents=True, exist_ok=True)
    subprocess.run([tool("pyside6-lrelease"), "-silent", "-nounfinished", str(folder / "qt.po"),
                    "-qm", str(locale_dir / f"{DOMAIN}_{lang}.qm")], check=True)
    mo = locale_dir / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    mo.parent.mkdir(parents=True, exist_ok=True)
    with mo.open("wb") as f:
        write_mo(f, read_po(folder / "core.po", locale=lang), use_fuzzy=False)
    store = tt_po.pofile(io.BytesIO((folder / "lesson.po").read_bytes()))
    out = lesson_dir / lang
    out.mkdir(parents=True, exist_ok=True)
    for page in lesson_pages():
        text = po2html().mergestore(store, io.BytesIO(page.read_bytes()), includefuzzy=False)
        (out / page.name).write_text(text, encoding="utf-8")


def compile_all(locale_dir: Path = LOCALE, lesson_dir: Path = LESSON) -> None:
    for lang in LANGS:
        compile_lang(lang, locale_dir, lesson_dir)


# --- staleness --------------------------------------------------------------------------

def _messages(path: Path) -> list[tuple[str, str]]:
    """The (context, text) pairs of a PO file, without its header."""
    return sorted((m.context or "", str(m.id)) for m in read_po(path) if m.id)


def check() -> list[str]:
    """What is stale: templates behind the code, compiled files behind the PO files."""
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp)
        extract(fresh / "templates")
        for name in ("qt.pot", "core.pot", "lesson.pot"):
            if _messages(fresh / "templates" / name) != _messages(TEMPLATES / name):
                problems.append(f"resources/i18n/templates/{name} is behind the code")
        compile_all(fresh / "locale", fresh / "lesson")
        for lang in LANGS:
            pairs = [(fresh / "locale" / f"{DOMAIN}_{lang}.qm", LOCALE / f"{DOMAIN}_{lang}.qm"),
                     (fresh / "locale" / lang / "LC_MESSAGES" / f"{DOMAIN}.mo",
                      LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.mo")]
            pairs += [(fresh / "lesson" / lang / p.name, LESSON / lang / p.name) for p in lesson_pages()]
            for new, old in pairs:
                if not old.exists() or new.read_bytes() != old.read_bytes():
                    problems.append(f"{old.relative_to(ROOT)} is stale")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="only check that templates and compiled files are current")
    mode.add_argument("--compile", action="store_true", help="only compile the PO files")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    if args.check:
        problems = check()
        for p in problems:
            print(p)
        if problems:
            print("run: python packaging/build_translations.py")
            return 1
        print("translations are current")
        return 0
    if not args.compile:
        extract(TEMPLATES)
        for lang in LANGS:
            merge(lang)
    compile_all()
    print("compiled")
    return 0


if __name__ == "__main__":
    sys.exit(main())
