"""Each language keeps the glossary of the translator's guide (docs/translating.md): its chosen
terms, no avoided term in any translated text, one form of address.

The rule, as the guide states it: every chosen term of the language is removed from a text
first, then no avoided term may remain. Terms in Latin letters match whole words, Chinese
terms anywhere; case counts.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from sqrtdk_gui.core.i18n import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "translating.md"
CATALOGUES = ("qt", "core", "lesson")
# The rows every language's glossary has (the English column starts with these).
REQUIRED = ("you (register)", "scaling factor", "head dimension", "spread", "saturate", "responsive",
            "class guesses", "reveal", "trap", "follow-up")
_CJK = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff]")
_TAG = re.compile(r"<[^>]*>")
_TERM = re.compile(r"`([^`]+)`")


def glossaries(text: str) -> dict[str, list[tuple[str, list[str], list[str]]]]:
    """language code -> rows (English, chosen terms, avoided terms) of the guide's glossary."""
    section = text.split("\n## Glossary\n", 1)[1].split("\n## ", 1)[0]
    out: dict[str, list[tuple[str, list[str], list[str]]]] = {}
    rows: list[tuple[str, list[str], list[str]]] = []
    for line in section.splitlines():
        heading = re.match(r"### .*\(`([\w]+)`\)\s*$", line)
        if heading:
            rows = out.setdefault(heading.group(1), [])
        elif line.startswith("| ") and not line.startswith(("| English", "|---")):
            cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
            assert len(cells) == 4, f"a glossary row needs four cells: {line[:80]!r}"
            rows.append((cells[0], _TERM.findall(cells[1]), _TERM.findall(cells[2])))
    return out


def _pattern(term: str) -> re.Pattern[str]:
    if _CJK.search(term):
        return re.compile(re.escape(term))
    return re.compile(r"(?<!\w)" + re.escape(term) + r"(?!\w)")


def avoided_terms_in(text: str, chosen: list[str], avoided: list[str]) -> list[str]:
    """The avoided terms ``text`` holds once every chosen term is taken out of it."""
    for term in sorted(chosen, key=len, reverse=True):  # "log. Skala" before "Skala"
        text = _pattern(term).sub(" ", text)
    return [term for term in avoided if _pattern(term).search(text)]


def translations(lang: str) -> list[tuple[str, str]]:
    """(catalogue, text as the reader sees it) of every translated string of ``lang``."""
    from babel.messages.pofile import read_po

    out = []
    for name in CATALOGUES:
        with open(ROOT / "resources" / "i18n" / lang / f"{name}.po", "rb") as f:
            catalog = read_po(f)
        for message in catalog:
            if not message.id:
                continue
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            for string in strings:
                if string:
                    plain = html.unescape(_TAG.sub(" ", string)).replace("\u00ad", "").replace("&", "")
                    out.append((name, plain))
    return out


GLOSSARIES = glossaries(GUIDE.read_text(encoding="utf-8"))
TRANSLATED = [code for code in LANGUAGES if code != "en"]


def test_every_language_has_a_glossary_with_the_required_rows():
    assert sorted(GLOSSARIES) == sorted(TRANSLATED)
    for lang, rows in GLOSSARIES.items():
        missing = [r for r in REQUIRED if not any(english.startswith(r) for english, _, _ in rows)]
        assert not missing, (lang, missing)
        assert all(chosen for _, chosen, _ in rows), (lang, [e for e, c, _ in rows if not c])


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_translated_text_uses_a_term_its_glossary_avoids(lang):
    rows = GLOSSARIES[lang]
    chosen = [term for _, terms, _ in rows for term in terms]
    avoided = {term: english for english, _, terms in rows for term in terms}
    problems = [f"{name}: {term!r} ({avoided[term]}) in {text[:90]!r}"
                for name, text in translations(lang)
                for term in avoided_terms_in(text, chosen, list(avoided))]
    assert not problems, f"{len(problems)} avoided terms:\n" + "\n".join(problems[:20])


def test_the_rule_removes_chosen_phrases_first_and_matches_whole_words():
    assert avoided_terms_in("Kopfdimension d_k auf log. Skala", ["log. Skala"], ["Skala"]) == []
    assert avoided_terms_in("Gar keine Skala", ["log. Skala"], ["Skala"]) == ["Skala"]
    assert avoided_terms_in("das Skalarprodukt", [], ["Skala"]) == []  # a whole word only
    assert avoided_terms_in("Finden Sie den Fehler", ["Sie"], ["Finde"]) == []
    assert avoided_terms_in("Finde den Fehler", ["Sie"], ["Finde"]) == ["Finde"]
    assert avoided_terms_in("头大小为 64", ["头维度"], ["头大小"]) == ["头大小"]  # Chinese: anywhere
