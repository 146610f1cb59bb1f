"""The language of the room without Qt: catalogues, fallback, locale tags, numbers, pseudo."""

import re

import pytest

from sqrtdk_gui.core import i18n


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    i18n.set_language("en")


@pytest.mark.parametrize("tag, lang", [
    ("de_DE.UTF-8", "de"), ("de_AT", "de"), ("de-CH", "de"), ("es_MX.UTF-8", "es"), ("es", "es"),
    ("zh_CN.UTF-8", "zh_CN"), ("zh-Hans-CN", "zh_CN"), ("zh_SG", "zh_CN"), ("zh", "zh_CN"),
    ("zh_TW", None), ("zh-Hant-HK", None), ("fr_FR", None), ("en_GB", "en"), ("pseudo", "pseudo"),
])
def test_locale_tags_match_the_languages_spoken(tag, lang):
    assert i18n.match_language(tag) == lang


def test_the_system_language_follows_posix_precedence():
    assert i18n.system_languages({"LANGUAGE": "zh_TW:es_MX", "LANG": "de_DE.UTF-8"}) == ["es", "de"]
    assert i18n.system_languages({"LC_ALL": "de_DE.UTF-8", "LANG": "es_ES.UTF-8"}) == ["de"]
    assert i18n.system_languages({"LANG": "C"}) == []
    assert i18n.first_supported(["fr-FR", "de-DE", "en-US"]) == "de"
    assert i18n.first_supported(["fr-FR"]) == "en"


def test_an_unknown_language_is_refused_and_nothing_changes():
    i18n.set_language("de")
    with pytest.raises(ValueError, match="unknown language 'xx'"):
        i18n.set_language("xx")
    assert i18n.language() == "de"


@pytest.mark.parametrize("lang", sorted(i18n.LANGUAGES))
def test_every_language_has_a_catalogue_and_missing_strings_stay_english(lang):
    i18n.set_language(lang)
    assert i18n._("a text no catalogue has, which stays English") == "a text no catalogue has, which stays English"
    if lang != "en":
        assert type(i18n.catalogue(lang)).__name__ == "GNUTranslations"


@pytest.mark.parametrize("lang", ["de", "es", "zh_CN"])
def test_catalogue_translations_keep_every_format_field(lang):
    catalogue = i18n.catalogue(lang)
    fields = re.compile(r"\{[^{}]*\}")
    for msgid, msgstr in getattr(catalogue, "_catalog", {}).items():
        source = msgid[0] if isinstance(msgid, tuple) else msgid
        if source and msgstr:
            assert sorted(fields.findall(msgstr)) == sorted(fields.findall(source)), (lang, source)


@pytest.mark.parametrize("lang, typed, value", [
    ("de", "22,6", 22.6), ("de", "0,998", 0.998), ("de", "22.6", 22.6), ("de", "1\u202f500,5", 1500.5),
    ("es", "0,998", 0.998), ("en", "22.6", 22.6), ("zh_CN", "0.998", 0.998), ("de", " -3,5 ", -3.5),
])
def test_numbers_are_typed_in_the_language_of_the_room(lang, typed, value):
    assert i18n.parse_number(typed, lang) == pytest.approx(value)


@pytest.mark.parametrize("typed", ["", "abc", "1,2,3", "nan", "inf", "1e999"])
def test_what_is_not_one_finite_number_is_refused(typed):
    with pytest.raises(ValueError, match="number"):
        i18n.parse_number(typed, "de")


def test_numbers_shown_take_the_decimal_mark_and_leave_versions_and_names_alone():
    text = "σ ≈ 22.6 at d_k = 512; 0.998 of the weight; PySide6 6.11.3; 2.5e-3; x1.5; 1\u202f000.5."
    assert i18n.localize_number(text, "de") == (
        "σ ≈ 22,6 at d_k = 512; 0,998 of the weight; PySide6 6.11.3; 2,5e-3; x1.5; 1\u202f000,5.")
    assert i18n.localize_number(text, "zh_CN") == text
    assert i18n.localize_number(text, "en") == text
    assert i18n.decimal_mark("es") == "," and i18n.decimal_mark("en") == "."
    # Code keeps its points: an HTML code span, and a keyword argument in a sentence.
    code = "σ 0.5; <code>sm_scale = 1.0 / math.sqrt(64)</code>; pass scale=1.0 to it; ρ=0.9; d ** -0.5, d**0.5"
    assert i18n.localize_number(code, "de") == (
        "σ 0,5; <code>sm_scale = 1.0 / math.sqrt(64)</code>; pass scale=1.0 to it; ρ=0,9; d ** -0.5, d**0.5")


def test_the_pseudo_language_marks_every_text_and_keeps_its_machinery():
    i18n.set_language(i18n.PSEUDO)
    out = i18n._("Open &preset {name} at %s: %n keys, <b>d_k</b> &amp; more")
    assert out.startswith(i18n.PSEUDO_OPEN) and out.endswith(i18n.PSEUDO_CLOSE)
    for kept in ("{name}", "%s", "%n", "<b>", "</b>", "d_k", "&amp;", "&p"):
        assert kept in out
    assert "Open" not in out  # accented: a glance tells it went through translation
    source = "A text of some length to lengthen"
    assert len(i18n._(source)) >= 1.35 * len(source)
    assert i18n._("   ") == "   "
    assert i18n.ngettext("{n} key", "{n} keys", 2).count("{n}") == 1


def test_presets_carry_the_language_chosen_and_refuse_an_unknown_one():
    from sqrtdk_gui.core.io import presets

    state = presets.State(step=2, language="de")
    assert presets.from_json(presets.to_json(state)) == state
    assert presets.from_json(presets.to_json(presets.State())).language is None
    text = presets.to_json(state).replace('"de"', '"xx"')
    with pytest.raises(presets.PresetError, match="unknown language"):
        presets.from_json(text)


def test_the_command_line_speaks_the_language_asked_for_or_the_systems():
    from sqrtdk_gui.cli.args import cli_language

    assert cli_language(["--lang", "de", "stats"], {"LANG": "es_ES.UTF-8"}) == "de"
    assert cli_language(["--lang=zh_CN"], {}) == "zh_CN"
    assert cli_language(["--lang", "xx"], {"LANG": "es_ES.UTF-8"}) == "es"  # argparse then refuses xx
    assert cli_language(["stats"], {"LANGUAGE": "de", "LANG": "C"}) == "de"


@pytest.mark.parametrize("decimal, typed, guesses", [
    (",", "22,6", [22.6]), (",", "8; 22,6 0,998", [8.0, 22.6, 0.998]), (",", "8, 20, 100", [8.0, 20.0, 100.0]),
    (",", "22.6", [22.6]), (".", "22,6", [22.0, 6.0]), (".", "1,500 2.5", [1500.0, 2.5]),
])
def test_class_guesses_are_read_in_the_language_of_the_room(decimal, typed, guesses):
    from sqrtdk_gui.core.lesson.predict import parse_guesses

    assert parse_guesses(typed, decimal=decimal) == pytest.approx(guesses)


def test_lesson_figures_and_evidence_take_the_decimal_mark():
    from sqrtdk_gui.core.attention.params import Params
    from sqrtdk_gui.core.lesson.evidence import evidence
    from sqrtdk_gui.core.lesson.figures import fill

    english = fill("{step2_rest} and {step1_sigma_512}")
    i18n.set_language("de")
    german = fill("{step2_rest} and {step1_sigma_512}")
    assert german == english.replace(".", ",") and "," in german
    cells = [c for row in evidence("dmodel", Params()).rows for c in row]
    assert any("," in c for c in cells) and not any(re.search(r"\d\.\d", c) for c in cells)


def test_numbers_made_in_code_take_the_decimal_mark_of_the_language_spoken():
    # Headers and quotes formatted in code, beside translated words that have "0,9".
    from sqrtdk_gui.core.attention.params import Params
    from sqrtdk_gui.core.lesson.claims_table import claim_rows
    from sqrtdk_gui.core.lesson.pages import followup_qk_norm

    i18n.set_language("de")
    headers = followup_qk_norm.evidence(Params(**followup_qk_norm.PAGE.preset)).headers
    assert "max p, ρ=0,9" in headers and not any("0.9" in h for h in headers)
    quotes = [row.quoted for row in claim_rows()]
    assert quotes and not [q for q in quotes if re.search(r"\d\.\d", q)]


def _po_entries(path):
    """(flags, msgid, msgstrs) of each entry of a PO file, as the file states them (Babel's
    reader adds "python-format" to any text it takes for one)."""
    import ast

    for block in path.read_text(encoding="utf-8").split("\n\n"):
        flags, parts, key = set(), {}, None
        for line in block.splitlines():
            if line.startswith("#,"):
                flags |= {f.strip() for f in line[2:].split(",")}
            elif line.startswith(("msgid ", "msgid_plural ", "msgstr")):
                key, _, rest = line.partition(" ")
                parts[key] = ast.literal_eval(rest)
            elif line.startswith('"') and key is not None:
                parts[key] += ast.literal_eval(line)
        if parts.get("msgid"):
            yield flags, parts["msgid"], [v for k, v in parts.items() if k.startswith("msgstr")]


@pytest.mark.parametrize("lang", ["de", "es", "zh_CN"])
def test_only_percent_formats_are_flagged_as_such(lang):
    # `msgfmt -c` checks every entry flagged python-format: "90 % accuracy" is none (Babel
    # flags it for "% a"), argparse's help texts are ("%%", "%(default)s") and keep their "%%".
    from pathlib import Path

    percent = re.compile(r"%%|%\([a-z_]+\)[sdr]")
    root = Path(__file__).resolve().parents[2] / "resources" / "i18n" / lang
    problems = []
    for name in ("qt", "core", "lesson"):
        for flags, text, strings in _po_entries(root / f"{name}.po"):
            if "python-format" not in flags:
                continue
            if not percent.search(text):
                problems.append(f"{name}: flagged but no %-format: {text[:50]!r}")
            problems += [f"{name}: '%%' count differs: {s[:50]!r}" for s in strings
                         if s and s.count("%%") != text.count("%%")]
    assert problems == []


def test_a_language_is_one_entry_of_the_table():
    # The catalogues to build, Qt's own translations and ICU's locales in the bundle, the font
    # subset, the View menu and its tips, the decimal marks: all read i18n.SPOKEN. A module
    # that listed the codes itself would miss a language added there.
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    listed = re.compile(r"""["'](?:de|es|zh_CN)["']\s*,\s*["'](?:de|es|zh_CN)["']""")
    files = [*root.glob("sqrtdk_gui/**/*.py"), *root.glob("packaging/*.py"), root / "packaging" / "sqrtdk_gui.spec"]
    assert [str(p.relative_to(root)) for p in files if listed.search(p.read_text(encoding="utf-8"))] == []
    assert set(i18n.LANGUAGES) == set(i18n.SPOKEN) and i18n.decimal_mark("de") == ","


@pytest.mark.parametrize("lang", [code for code in i18n.LANGUAGES if code != "en"])
def test_gnu_msgfmt_finds_nothing_wrong_in_the_catalogues(lang, tmp_path):
    # `msgfmt -c`, what translators' tools and distributions run: formats, headers, plurals.
    import shutil
    import subprocess
    from pathlib import Path

    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        pytest.skip("GNU gettext's msgfmt is not installed (CI installs it)")
    root = Path(__file__).resolve().parents[2] / "resources" / "i18n" / lang
    for name in ("qt", "core", "lesson"):
        done = subprocess.run([msgfmt, "-c", "-o", str(tmp_path / f"{name}.mo"), str(root / f"{name}.po")],
                              capture_output=True, text=True, timeout=60)
        errors = [line for line in done.stderr.splitlines() if "warning" not in line and "Last-Translator" not in line]
        assert done.returncode == 0 and not errors, done.stderr
