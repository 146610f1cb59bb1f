"""Every language the program speaks: Qt's translators, numbers, lesson pages, fonts."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QLocale
from PySide6.QtWidgets import QDialogButtonBox

from sqrtdk_gui.core import i18n
from sqrtdk_gui.core.lesson.content import SCENARIOS, STEPS
from sqrtdk_gui.core.lesson.texts import REVEAL_MARK, read_page
from sqrtdk_gui.gui.launch import translations

ROOT = Path(__file__).resolve().parents[2]
OTHERS = [lang for lang in i18n.LANGUAGES if lang != "en"]
PAGES = [s.resource for s in (*STEPS, *SCENARIOS)]


@pytest.fixture
def speak(qapp):
    """Install a language for one test; English again afterwards."""
    yield translations.install
    translations.install("en")


@pytest.mark.parametrize("lang", sorted(i18n.LANGUAGES))
def test_the_cores_decimal_marks_are_qts(lang):
    assert i18n.decimal_mark(lang) == QLocale(lang).decimalPoint()


@pytest.mark.parametrize("lang, cancel", [("de", "Abbrechen"), ("es", "Cancelar"), ("zh_CN", "取消"), ("en", "Cancel")])
def test_qts_own_dialogs_speak_the_language(speak, qtbot, lang, cancel):
    speak(lang)
    box = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
    qtbot.addWidget(box)
    assert box.button(QDialogButtonBox.StandardButton.Cancel).text().replace("&", "") == cancel
    assert QLocale().decimalPoint() == i18n.decimal_mark(lang)
    assert i18n.language() == lang


def test_an_unknown_language_changes_nothing(speak):
    speak("de")
    with pytest.raises(ValueError):
        translations.install("xx")
    assert i18n.language() == "de" and QLocale().decimalPoint() == ","


def test_the_language_asked_for_wins_then_the_one_chosen_before_then_the_systems():
    assert translations.resolve("es", "de") == "es"
    assert translations.resolve(None, "de") == "de"
    assert translations.resolve("pseudo", None) == "pseudo"
    assert translations.resolve("xx", "yy") == i18n.first_supported(QLocale.system().uiLanguages())


def _fields(text: str) -> list[str]:
    return sorted(re.findall(r"\{[a-z0-9_]+\}", text))


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("page", PAGES)
def test_each_translated_page_has_the_english_fields_and_reveal_mark(lang, page):
    english = read_page(page)
    translated = read_page(page, lang)
    assert _fields(translated) == _fields(english)
    assert translated.count(REVEAL_MARK) == english.count(REVEAL_MARK) <= 1
    assert re.findall(r'href="([^"]+)"', translated) == re.findall(r'href="([^"]+)"', english)


def test_translations_and_the_templates_are_current():
    done = subprocess.run([sys.executable, str(ROOT / "packaging" / "build_translations.py"), "--check"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("name", ["qt.po", "core.po", "lesson.po"])
@pytest.mark.parametrize("lang", OTHERS)
def test_translations_keep_fields_markup_and_mnemonics(lang, name):
    from babel.messages.pofile import read_po

    with (ROOT / "resources" / "i18n" / lang / name).open("rb") as f:
        catalog = read_po(f)
    tags = re.compile(r"</?[a-z][a-z0-9]*")
    for m in catalog:
        if not m.id or not m.string:
            continue
        sources = m.id if isinstance(m.id, tuple) else (m.id,)
        targets = [t for t in (m.string if isinstance(m.string, tuple) else (m.string,)) if t]
        for t in targets:
            assert _fields(t) == _fields(sources[0]), (m.id, t)
            assert sorted(tags.findall(t)) == sorted(tags.findall(sources[0])), (m.id, t)
            assert ("%n" in t) == ("%n" in sources[0]), (m.id, t)
            if re.search(r"&[A-Za-z]", sources[0]) and name == "qt.po":
                assert re.search(r"&\w", t) or "(&" in t, (m.id, t)


def test_chinese_renders_on_a_machine_without_cjk_fonts(tmp_path):
    """Only DejaVu (if any) is visible to fontconfig: the shipped subset draws the Chinese glyphs."""
    conf = tmp_path / "fonts.conf"
    conf.write_text('<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>'
                    "<dir>/usr/share/fonts/truetype/dejavu</dir>"
                    f"<cachedir>{tmp_path / 'cache'}</cachedir></fontconfig>")
    script = (
        "import sys\n"
        "from PySide6.QtGui import QFontDatabase, QTextLayout, QFont\n"
        "from sqrtdk_gui.gui.launch.bootstrap import application\n"
        "from sqrtdk_gui.gui.launch import translations\n"
        "app = application()\n"
        "translations.install('zh_CN')\n"
        "text = '缩放点积注意力简体中文'\n"
        "layout = QTextLayout(text, app.font())\n"
        "layout.beginLayout(); layout.createLine(); layout.endLayout()\n"
        "families = {r.rawFont().familyName() for r in layout.glyphRuns()}\n"
        "missing = [g for r in layout.glyphRuns() for g in r.glyphIndexes() if g == 0]\n"
        "print(sorted(families), len(missing))\n"
        "sys.exit(0 if not missing and any('CJK' in f for f in families) else 1)\n")
    env = dict(os.environ, FONTCONFIG_FILE=str(conf), QT_QPA_PLATFORM="offscreen")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          env=env, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


RELAUNCH_SCRIPT = """
import json, sys
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from sqrtdk_gui.core import i18n
from sqrtdk_gui.gui.launch.app import Launch, run_window

seen, tries = [], [0]

def shown():
    return [w for w in QApplication.topLevelWidgets() if type(w).__name__ == "MainWindow" and w.isVisible()]

def choose():
    window = shown()[0]
    window.lesson.go_to(3, animate=False)
    window.choose_language(i18n.PSEUDO)
    QTimer.singleShot(50, check)

def check():  # until the rebuilt window is up (a bounded number of tries), then quit
    windows = shown()
    tries[0] += 1
    rebuilt = windows and windows[0].menuBar().actions()[0].text().startswith(i18n.PSEUDO_OPEN)
    if rebuilt or tries[0] > 400:
        if windows:
            w = windows[0]
            seen.append([w.menuBar().actions()[0].text(), w.lesson.step, w.language_choice, i18n.language()])
        QApplication.instance().quit()
    else:
        QTimer.singleShot(50, check)

QTimer.singleShot(0, choose)
status = run_window(Launch())
print(json.dumps({"status": status, "seen": seen}))
"""


def test_view_language_rebuilds_the_window_in_the_new_language_with_its_state(tmp_path):
    """No restart: View → Language rebuilds the window in the language chosen, at the same
    lesson step, and remembers the choice for the next start (a process of its own: the
    window's event loop runs and quits)."""
    import json

    from sqrtdk_gui.core.io import presets
    from sqrtdk_gui.gui.window.settings import Settings

    settings = tmp_path / "settings.ini"
    env = dict(os.environ, SQRTDK_GUI_SETTINGS=str(settings), QT_QPA_PLATFORM="offscreen", LANGUAGE="en")
    done = subprocess.run([sys.executable, "-c", RELAUNCH_SCRIPT], capture_output=True, text=True, timeout=180,
                          env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out == {"status": 0, "seen": [[i18n.pseudo("&File"), 3, i18n.PSEUDO, i18n.PSEUDO]]}
    _, state, _ = Settings(str(settings)).load()
    assert isinstance(state, presets.State) and state.language == i18n.PSEUDO and state.step == 3


EXPORT_SCRIPT = """
import json, sys
from concurrent.futures import Future
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from sqrtdk_gui.core import i18n
from sqrtdk_gui.gui.export.run import Page
from sqrtdk_gui.gui.launch.app import Launch, run_window

seen, ended, work, tries = [], [], Future(), [0]

def shown():
    return [w for w in QApplication.topLevelWidgets() if type(w).__name__ == "MainWindow" and w.isVisible()]

def export():  # two slides; the second waits for work this script finishes
    yield Page(0, 2, "first")
    yield work
    yield Page(1, 2, "second")
    return ["first.png", "second.png"]

def start():
    window = shown()[0]

    def done(written, cancelled):
        ended.append([written, cancelled])
        window.statusBar().showMessage(f"Wrote {len(written)} of 2 slides")

    window.exports.start(export(), "Rendering lesson slides", "Slide", 2, done, str)
    window.choose_language(i18n.PSEUDO)  # View -> Language while the export runs
    QTimer.singleShot(0, during)

def during():
    windows = shown()
    run = windows[0].exports.running
    seen.append([len(windows), run is not None and run.running, windows[0].statusBar().currentMessage()])
    work.set_result(None)
    QTimer.singleShot(50, check)

def check():  # until the rebuilt window is up (a bounded number of tries), then quit
    windows = shown()
    tries[0] += 1
    rebuilt = windows and windows[0].menuBar().actions()[0].text().startswith(i18n.PSEUDO_OPEN)
    if rebuilt or tries[0] > 400:
        if windows:
            seen.append([bool(rebuilt), windows[0].statusBar().currentMessage()])
        QApplication.instance().quit()
    else:
        QTimer.singleShot(50, check)

QTimer.singleShot(0, start)
status = run_window(Launch())
print(json.dumps({"status": status, "seen": seen, "ended": ended}))
"""


def test_view_language_during_an_export_rebuilds_the_window_once_the_export_has_finished(tmp_path):
    """Switching the language rebuilds the window, which would abandon a running export: the
    window waits for the export to end, says so, and the rebuilt window shows what the
    export said (a process of its own: the launcher's loop runs)."""
    import json

    env = dict(os.environ, SQRTDK_GUI_SETTINGS=str(tmp_path / "settings.ini"), QT_QPA_PLATFORM="offscreen",
               LANGUAGE="en")
    done = subprocess.run([sys.executable, "-c", EXPORT_SCRIPT], capture_output=True, text=True, timeout=180,
                          env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["status"] == 0
    assert out["seen"][0] == [1, True, "The window switches to the new language once the export has finished"]
    assert out["ended"] == [[["first.png", "second.png"], False]]  # finished, not abandoned
    assert out["seen"][1] == [True, "Wrote 2 of 2 slides"]


def test_lang_speaks_for_one_run_and_view_language_is_remembered(qtbot, tmp_path, monkeypatch):
    from PySide6.QtCore import QByteArray

    from sqrtdk_gui.core.io import presets
    from sqrtdk_gui.gui.launch.app import Launch, prepare_window
    from sqrtdk_gui.gui.window.settings import Settings

    ini = tmp_path / "settings.ini"
    Settings(str(ini)).save(QByteArray(), presets.State(language="es"))
    monkeypatch.setenv("SQRTDK_GUI_SETTINGS", str(ini))
    try:
        window, settings = prepare_window(Launch(lang="de"), interactive=True)
        qtbot.addWidget(window)
        assert i18n.language() == "de" and window.actions.languages["de"].isChecked()
        assert window.current_state().language == "es"  # what was chosen before stays the choice
        settings.save(window.saveGeometry(), window.current_state())
        window.close()
        again, _ = prepare_window(Launch(), interactive=True)  # the next plain start
        qtbot.addWidget(again)
        assert i18n.language() == "es" and again.actions.languages["es"].isChecked()
        again.show_language_choice("de")  # View -> Language is remembered
        assert again.current_state().language == "de"
        again.close()
    finally:
        translations.install("en")
