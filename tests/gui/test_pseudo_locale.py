"""Every screen a lecture shows, in every language: nothing untranslated, nothing cut off.

Every translated text is bracketed and 40 % longer in the pseudo language (PhET's
"stringTest=long"): a word outside brackets skipped translation (hard-coded English), a text
wider than its widget would be cut in a long language, and a number with a decimal point
skipped the language's decimal mark (the pseudo language's is "‧", no language's). German, Spanish and Chinese are checked
as they are. Each step (question and answer), trap, follow-up, the σ dial, the training lab
and practice mode, in presentation mode at 1280×720 and 1024×768, and the desktop window at
1920×1080.
"""

import pytest
from PySide6.QtWidgets import QApplication

from sqrtdk_gui.core import i18n
from sqrtdk_gui.core.lesson.content import SCENARIOS, STEPS
from sqrtdk_gui.gui.launch import translations
from tests.gui.pseudo_screens import decimal_findings, findings, menu_findings, untranslated_words

# The lecture's screens (presentation mode) and the desktop window at full HD.
SIZES = {"1280x720-presentation": ((1280, 720), True), "1024x768-presentation": ((1024, 768), True),
         "1920x1080": ((1920, 1080), False)}
# Screens whose layout can still cut a long language's text, known and checked all the same:
# the test reports them as expected failures, and every other screen, language and size must
# pass. (None at present.)
CUT_OFF_STILL: dict[tuple[str, str, str], str] = {}
LANGS = (i18n.PSEUDO, "de", "es", "zh_CN")
SCREENS = ([f"step{s.number}-{state}" for s in STEPS for state in ("question", "answer")]
           + [f"scenario-{s.key}" for s in SCENARIOS] + ["lab", "lab-sweep", "practice", "practice-revealed"])


@pytest.fixture(scope="module", params=LANGS)
def lang(request):
    return request.param


@pytest.fixture(scope="module", autouse=True)
def _english_afterwards(qapp):
    yield
    translations.install("en")


@pytest.fixture(scope="module", params=list(SIZES))
def pseudo_window(request, qapp):
    yield from _window(request.param, qapp, i18n.PSEUDO)


@pytest.fixture(scope="module", params=list(SIZES))
def lang_window(request, lang, qapp):
    yield from _window(request.param, qapp, lang)


@pytest.fixture(autouse=True)
def _speak_the_window_s_language(request):
    """Each test in the language of the window it uses, whatever order the tests run in (a
    window of another language may have been built since): its texts are read as it runs."""
    if "pseudo_window" in request.fixturenames:
        translations.install(i18n.PSEUDO)
    elif "lang_window" in request.fixturenames:
        translations.install(request.getfixturevalue("lang"))


def _window(key, qapp, language):
    from sqrtdk_gui.gui.window.main_window import MainWindow

    translations.install(language)  # a window is built in the language spoken
    size, presenting = SIZES[key]
    window = MainWindow(threaded=False)
    window.resize(*size)
    window.show()
    if presenting:
        window.presentation.enter(full_screen=False)
    yield window
    if presenting:
        window.presentation.leave()
    window.close()
    window.deleteLater()
    qapp.processEvents()


def _show(window, screen: str) -> None:
    window.tabs.setCurrentWidget(window.live_page)
    if screen.startswith("step"):
        number, state = screen[4:].split("-")
        window.lesson.go_to(int(number), animate=False)
        if state == "answer":
            window.lesson.reveal(animate=False)
    elif screen.startswith("scenario-"):
        window.lesson.choose_scenario(screen.removeprefix("scenario-"))
    elif screen.startswith("lab"):
        window.tabs.setCurrentWidget(window._lab_holder)
        if screen == "lab-sweep":  # its table, its rate plots with the "plots below" mark
            window.lab_page.controls.set_values(mode="sweep")
            window.lab_page.steps_lr_panel.select(5.0)
        else:
            window.lab_page.controls.set_values(mode="single", lr=5.0)
    elif screen.startswith("practice"):
        window.practice.open()
        if screen == "practice-revealed":
            window.practice.page.presenter.commit_choice(0)
    window.render_ready()
    for _ in range(3):  # what a shown window does next: pending layouts and refits (one turn each)
        QApplication.processEvents()


def test_the_pseudo_language_brackets_every_kind_of_text():
    assert untranslated_words(i18n.pseudo("Open preset")) == []
    assert untranslated_words("Open preset") == ["Open", "preset"]
    assert untranslated_words("d_k = 512 · " + i18n.pseudo("raw logits")) == []
    assert untranslated_words(i18n.pseudo("a " + i18n.pseudo("nested") + " text")) == []


def test_every_menu_text_is_translated(pseudo_window):
    problems = menu_findings(pseudo_window)
    assert not problems, "\n".join(map(str, problems))


@pytest.mark.parametrize("screen", SCREENS)
def test_every_screen_is_translated_and_nothing_is_cut_off(request, lang, lang_window, screen):
    _show(lang_window, screen)
    if lang == i18n.PSEUDO:
        problems = findings(lang_window, clip=False)
        assert not problems, f"{len(problems)} untranslated:\n" + "\n".join(map(str, problems))
        # The pseudo language's decimal mark is no language's: a point is a number that
        # bypassed the language's mark (the slides are these screens, drawn the same way).
        problems = decimal_findings(lang_window)
        assert not problems, f"{len(problems)} numbers with a decimal point:\n" + "\n".join(map(str, problems))
    size_key = request.node.callspec.params["lang_window"]
    if (lang, size_key, screen) in CUT_OFF_STILL:
        request.applymarker(pytest.mark.xfail(reason=CUT_OFF_STILL[lang, size_key, screen], strict=False))
    # The window keeps the screen's size: a long language never makes it larger than a projector.
    assert (lang_window.width(), lang_window.height()) == SIZES[size_key][0]
    problems = [f for f in findings(lang_window) if not f.problem.startswith("untranslated")]
    assert not problems, f"{len(problems)} cut off:\n" + "\n".join(map(str, problems))
