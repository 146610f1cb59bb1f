"""The language of the room (no Qt): which language, its catalogue, its numbers.

Texts of the Qt-free core (lesson titles and questions, practice items, command-line
messages) go through the standard library's ``gettext``: module-level constants are marked
with ``N_`` (evaluated at import, translated where shown) and translated with ``_``. A string a
catalogue lacks stays English, string by string. The window's own texts go through Qt's
translators (``gui/launch/translations.py``), which install the same language here.

The compiled catalogues are package data (``sqrtdk_gui/locale/<lang>/LC_MESSAGES/*.mo``),
built from the translators' PO files by ``packaging/build_translations.py``.

``pseudo`` is a test language: every translated string is bracketed ⟦…⟧, its letters accented
and made 40 % longer, so a screen shows at once which text did not go through translation
and which text would be clipped in a longer language.
"""

from __future__ import annotations

import gettext
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources

__all__ = ["Language", "SPOKEN", "LANGUAGES", "PSEUDO", "DOMAIN", "N_", "_", "ngettext", "set_language", "language",
           "match_language", "system_languages", "speaks", "decimal_mark", "localize_number", "format_number",
           "parse_number",
           "pseudo", "pseudo_html", "PSEUDO_OPEN", "PSEUDO_CLOSE"]


def N_(text: str) -> str:
    """Mark ``text`` for translation without translating it (module-level constants)."""
    return text


@dataclass(frozen=True)
class Language:
    """A language the program speaks: adding one is an entry in SPOKEN plus its PO files."""

    name: str  # in itself: the View menu's entry, never translated
    tip: str  # the menu entry's tip (N_: shown in the window's language)
    decimal: str = "."  # CLDR's decimal mark (a GUI test checks it against QLocale's)


# Digit groups are a narrow no-break space in every language (the SI's and ISO 80000's
# rule), which no language reads as a decimal mark.
SPOKEN: dict[str, Language] = {
    "en": Language("English", N_("Switch the window to English")),
    "de": Language("Deutsch", N_("Switch the window to German"), decimal=","),
    "es": Language("Español", N_("Switch the window to Spanish"), decimal=","),
    "zh_CN": Language("简体中文", N_("Switch the window to Simplified Chinese")),
}
LANGUAGES: dict[str, str] = {code: language.name for code, language in SPOKEN.items()}
PSEUDO = "pseudo"
DOMAIN = "sqrtdk_gui"
# The pseudo language's decimal mark is one no language uses (U+2027): a number the program
# formats without the language's mark shows a point there, and a test finds it.
PSEUDO_DECIMAL = "\u2027"
_DECIMAL = {**{code: language.decimal for code, language in SPOKEN.items()}, PSEUDO: PSEUDO_DECIMAL}


class _Pseudo(gettext.NullTranslations):
    """Every message through ``pseudo``: finds untranslated and clipped text."""

    def gettext(self, message: str) -> str:
        return pseudo(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2)


_current = "en"
_catalogue: gettext.NullTranslations = gettext.NullTranslations()


def _(text: str) -> str:
    """``text`` in the current language (English where the catalogue lacks it); "" stays ""
    (gettext would give the catalogue's header for it)."""
    return _catalogue.gettext(text) if text else text


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n`` in the current language."""
    return _catalogue.ngettext(singular, plural, n)


def catalogue(code: str) -> gettext.NullTranslations:
    """The compiled catalogue of language ``code`` (an empty one for English or if missing)."""
    if code == PSEUDO:
        return _Pseudo()
    if code == "en":
        return gettext.NullTranslations()
    path = resources.files("sqrtdk_gui") / "locale" / code / "LC_MESSAGES" / f"{DOMAIN}.mo"
    try:
        with path.open("rb") as f:
            return gettext.GNUTranslations(f)
    except (FileNotFoundError, OSError):
        return gettext.NullTranslations()


def speaks(code: str) -> bool:
    """Whether ``code`` is a language the program speaks (a key of LANGUAGES, or PSEUDO)."""
    return code in LANGUAGES or code == PSEUDO


def set_language(code: str) -> None:
    """Speak ``code`` (a key of LANGUAGES, or PSEUDO) from now on."""
    global _current, _catalogue
    if not speaks(code):
        raise ValueError(f"unknown language {code[:20]!r}; known: {', '.join(LANGUAGES)}")
    _catalogue = catalogue(code)
    _current = code


def language() -> str:
    """The language spoken now."""
    return _current


def match_language(tag: str) -> str | None:
    """The supported language a locale tag asks for ('de_AT.UTF-8', 'zh-Hans-CN', 'es'), or None."""
    tag = tag.split(".")[0].split("@")[0].replace("-", "_")
    if tag == PSEUDO:
        return PSEUDO
    parts = tag.split("_")
    lang = parts[0].lower()
    if lang == "zh":
        # Simplified Chinese: mainland China, Singapore, or the Hans script; not Hant/TW/HK/MO.
        rest = {p.upper() for p in parts[1:]}
        if rest & {"HANT", "TW", "HK", "MO"}:
            return None
        return "zh_CN"
    return lang if lang in LANGUAGES else None


def system_languages(environ: Mapping[str, str]) -> list[str]:
    """The languages a POSIX environment asks for, most preferred first (LANGUAGE, LC_ALL, ...)."""
    tags: list[str] = []
    if environ.get("LANGUAGE"):
        tags += environ["LANGUAGE"].split(":")
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if environ.get(var):
            tags.append(environ[var])
            break
    return [m for m in (match_language(t) for t in tags if t and t not in ("C", "POSIX")) if m]


def first_supported(tags: Iterable[str]) -> str:
    """The first of ``tags`` that is supported, else English."""
    for tag in tags:
        found = match_language(tag)
        if found and found != PSEUDO:
            return found
    return "en"


def decimal_mark(code: str | None = None) -> str:
    """The decimal mark of ``code`` (default: the current language)."""
    return _DECIMAL.get(_current if code is None else code, ".")


# A decimal number: not part of a version ("6.11.3"), a name, a keyword argument of code
# ("scale=1.0"; a formula's "ρ=0.9" is a number) or a Python power ("** -0.5"); "2.5e-3" and
# "0.998." count.
_POINT_NUMBER = re.compile(r"(?<![\w.])(?<![A-Za-z_]=)(?<!\*\* -)(?<!\*\*-)(?<!\*\* )(?<!\*\*)"
                           r"(\d+)\.(\d+)(?=[eE][-+]?\d|[^\w.]|\.(?!\d)|$)")
_CODE = re.compile(r"(<code\b.*?</code>)", re.DOTALL)  # HTML code spans: code keeps its points


def localize_number(text: str, code: str | None = None) -> str:
    """``text`` with the decimal points of its numbers in ``code``'s mark ("0.998" → "0,998");
    HTML ``<code>`` spans are left as they are."""
    mark = decimal_mark(code)
    if mark == ".":
        return text
    parts = _CODE.split(text)  # odd indices: the code spans
    return "".join(part if i % 2 else _POINT_NUMBER.sub(lambda m: f"{m.group(1)}{mark}{m.group(2)}", part)
                   for i, part in enumerate(parts))


def format_number(value: float, spec: str = "g") -> str:
    """``value`` formatted by ``spec`` (as ``format``) in the current language's decimal mark:
    every number the program writes into a text goes through this or ``localize_number``."""
    return localize_number(format(value, spec))


def parse_number(text: str, code: str | None = None) -> float:
    """A number typed in ``code``'s convention ("22,6" in German, "22.6" in English).

    A point is accepted as the decimal mark in every language (what is printed in papers).
    ValueError names the text when it is not one finite number.
    """
    t = text.strip().replace("\u202f", "").replace("\u00a0", "").replace(" ", "")
    if decimal_mark(code) != ".":
        t = t.replace(decimal_mark(code), ".")
    try:
        value = float(t)
    except ValueError:
        raise ValueError(f"not a number: {text[:40]!r}") from None
    if not math.isfinite(value):
        raise ValueError(f"not a finite number: {text[:40]!r}")
    return value


# --- the pseudo language -----------------------------------------------------------------

PSEUDO_OPEN, PSEUDO_CLOSE = "⟦", "⟧"
_ACCENTS = str.maketrans("aceinouyAEINOUCY", "áçéíñóúýÁÉÍÑÓÚÇÝ")
# What a pseudo translation keeps as it is: HTML tags and entities, str.format fields, printf
# and Qt arguments (%s, %(n)d, %1, %n, %L1), a mnemonic's letter, and symbols such as d_k.
_KEEP = re.compile(r"<!--.*?-->|<(code|pre)\b[^>]*>(?s:.*?)</\1>|<[^>]*>|&[#\w]+;|\{[^{}]*\}"
                   r"|%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[sdifgeEr%]|%L?\d|%n|&\w|\b\w*_\w+\b")


def pseudo(text: str) -> str:
    """``text`` bracketed, accented and 40 % longer, with its markup and arguments intact."""
    if not text.strip():
        return text
    out, pos, letters = [], 0, 0
    for m in _KEEP.finditer(text):
        plain = text[pos:m.start()]
        letters += sum(c.isalpha() for c in plain)
        out += [_pseudo_plain(plain), m.group()]
        pos = m.end()
    plain = text[pos:]
    letters += sum(c.isalpha() for c in plain)
    out.append(_pseudo_plain(plain))
    # Padding in groups of five: a long text still breaks between words.
    dots = max(1, round(0.4 * letters))
    pad = " ".join("·" * min(5, dots - i) for i in range(0, dots, 5))
    return f"{PSEUDO_OPEN}{''.join(out)}{pad}{PSEUDO_CLOSE}"


def _pseudo_plain(text: str) -> str:
    """Words accented, and numbers in the pseudo language's decimal mark (as a translator
    writes the numbers of a text in their language's)."""
    return localize_number(text.translate(_ACCENTS), PSEUDO)


def pseudo_html(page: str) -> str:
    """A lesson page in the pseudo language: each paragraph's (each block's) text through
    ``pseudo`` as one unit, its tags, comments and placeholders where they were."""
    # The units a translator gets are blocks (html2po's): one bracket pair per block.
    blocks = re.compile(r"(<(h[1-6]|p|li|td|th|dd|dt|caption)\b[^>]*>)(.*?)(</\2>)", re.DOTALL)
    return blocks.sub(lambda m: m.group(1) + pseudo(m.group(3)) + m.group(4), page)
