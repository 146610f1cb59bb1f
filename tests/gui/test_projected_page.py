"""Presentation mode as a classroom sees it: the projected page is a slide that fits, the
teacher's notes are elsewhere.

Every page of the lesson (the introduction, each step's question and answer, each trap and
follow-up, the closing page) in every language and on the projector sizes a school has, walked
as a clicker walks it: nothing on the projected page scrolls or is cut, no text is smaller
than 20 px, and no part of the window that only the teacher uses (dock title, tab bars,
Numbers buttons, the lesson pane) is projected.
"""

import pytest
from PySide6.QtGui import QFont, QFontInfo
from PySide6.QtWidgets import QAbstractScrollArea, QApplication, QGraphicsView, QLabel, QScrollBar, QWidget

from sqrtdk_gui.core import i18n
from sqrtdk_gui.core.lesson.content import SCENARIOS, STEPS
from sqrtdk_gui.gui.launch import translations
from sqrtdk_gui.gui.lesson.presenter_view import clock_text

SIZES = [(1024, 768), (1280, 720), (1280, 800)]
LANGS = ["en", "de", "es", "zh_CN", i18n.PSEUDO]
PAGES = (["intro"] + [f"step{s.number}-{state}" for s in STEPS for state in ("question", "answer")]
         + [s.key for s in SCENARIOS] + ["closing"])


@pytest.fixture
def presenting(make_window):
    def make(lang="en", size=(1024, 768)):
        translations.install(lang)  # a window is built in the language spoken
        window = make_window(size=size, threaded=False)
        window.presentation.enter(full_screen=False)
        return window

    yield make
    translations.install("en")


def _go(window, page: str) -> None:
    lesson = window.lesson
    if page == "intro":
        lesson.restore(0, None)
    elif page == "closing":
        lesson.close()
    elif page.startswith("step"):
        number, state = page[4:].split("-")
        lesson.go_to(int(number), animate=False)
        if state == "answer":
            lesson.reveal(animate=False)
    else:
        lesson.choose_scenario(page)
    window.render_ready()
    for _ in range(3):  # the layouts and refits a shown window does next
        QApplication.processEvents()


def _projected(window) -> list[QWidget]:
    """The visible widgets of the projected window."""
    return [w for w in window.findChildren(QWidget) if w.isVisible() and w.window() is window]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGS)
def test_every_projected_page_fits_in_every_language(presenting, lang, size):
    window = presenting(lang, size)
    slide = window.slide
    problems = []
    for page in PAGES:
        _go(window, page)
        if not slide.fits:
            problems.append(f"{page}: the words do not fit at the smallest size ({slide.words()[:80]}…)")
        for label in slide.labels():
            if label.isVisible() and label.text():
                if QFontInfo(label.font()).pixelSize() < 20:
                    problems.append(f"{page}: {label.objectName()} under 20 px")
                if label.geometry().bottom() > slide.height() or label.geometry().right() > slide.width():
                    problems.append(f"{page}: {label.objectName()} reaches beyond the slide")
        scrolling = [w.objectName() or type(w).__name__ for w in _projected(window)
                     if isinstance(w, QScrollBar) and w.maximum() > 0]
        if scrolling:
            problems.append(f"{page}: scroll bars {scrolling}")
    assert (window.width(), window.height()) == size  # the words never make the window larger
    assert problems == []


def test_the_projected_page_shows_no_window_furniture_and_no_notes(presenting):
    window = presenting()
    _go(window, "step3-answer")
    shown = _projected(window)
    assert window.lesson_dock.widget() is window.slide
    bar = window.lesson_dock.titleBarWidget()  # an empty one: no title, no × button
    assert bar is not None and bar.height() <= 1 and not bar.findChildren(QWidget)
    assert not window.tabs.tabBar().isVisible() and not window.panel_pages.tabBar().isVisible()
    assert not any(p.numbers_button.isVisible() for p in window.panels.values())
    assert window.lesson_pane not in shown and window.lesson_pane.window() is window.presenter_view
    # Nothing projected is a scrolling text (the plots are graphics views without scroll bars).
    assert not [w for w in shown if isinstance(w, QAbstractScrollArea) and not isinstance(w, QGraphicsView)]
    # The answer is whole on the slide: every word of it.
    answer = window.slide.answer.text()
    assert answer and window.slide.answer.isVisible() and "64" in answer
    window.presentation.leave()
    assert window.lesson_dock.widget() is window.lesson_scroll and window.lesson_pane.isVisible()
    assert window.tabs.tabBar().isVisible() and not window.presenter_view.isVisible()


def test_step_five_is_blind_while_its_question_is_open(presenting):
    window = presenting()
    _go(window, "step5-question")
    texts = " ".join(w.text() for w in _projected(window) if isinstance(w, QLabel) and w.text())
    buttons = " ".join(w.text() for w in _projected(window) if hasattr(w, "text") and not isinstance(w, QLabel))
    for s in SCENARIOS:
        assert i18n._(s.title) not in texts and i18n._(s.button) not in buttons, s.key
    assert window.slide.question.isVisible() and not window.slide.answer.isVisible()


def test_the_presenter_view_holds_the_notes_and_what_comes_next(presenting, qtbot):
    window = presenting()
    view = window.presenter_view
    _go(window, "step2-question")
    assert "Step 2/5" in view.now.text() and "answer" in view.next_page.text()
    notes = window.lesson_pane.text.toPlainText()
    assert len(notes) > len(window.slide.words())  # the whole text is the teacher's
    window.lesson.reveal(animate=False)
    assert "Step 3/5" in view.next_page.text()
    _go(window, SCENARIOS[-1].key)
    assert "end" in view.next_page.text().lower()
    # One screen: the notes are one key away, and never on the projected page.
    assert not view.isVisible()
    window.toggle_notes()
    assert view.isVisible() and window.lesson_pane.isVisible() and not window.slide.isHidden()
    window.toggle_notes()
    assert not view.isVisible()


def test_the_lesson_ends_on_a_closing_page(presenting):
    window = presenting()
    _go(window, SCENARIOS[-1].key)
    assert window.lesson_pane.next_button.isEnabled()  # Next goes on wherever Page Down does
    window.lesson_pane.next_button.click()
    assert window.lesson.closing and "√d" in window.slide.words() and "handout" in window.slide.words()
    assert not window.lesson_pane.next_button.isEnabled()
    window.lesson.advance()
    assert window.lesson.closing  # the end stays
    window.lesson.back()
    assert window.lesson.scenario.key == SCENARIOS[-1].key


def test_the_lesson_clock_reads_minutes_and_seconds():
    assert [clock_text(s) for s in (0, 59.9, 61, 3599, 3600, 3725)] == ["0:00", "0:59", "1:01", "59:59", "1:00:00",
                                                                       "1:02:05"]


@pytest.mark.parametrize("lang", ["es", "de"])
def test_panel_titles_are_never_emptied_and_come_back_with_the_room(presenting, lang):
    window = presenting(lang)
    for page in ["step1-question", "step1-answer", "step2-question", "step2-answer", "step3-answer",
                 "step4-answer", "intro", SCENARIOS[0].key]:
        _go(window, page)
        for panel in window.panels.values():
            if panel.isVisible():
                shown = panel.title.text()
                assert shown and shown != "…", (page, panel.name, panel.full_title)
    window.presentation.leave()
    window.resize(1920, 1080)
    _go(window, "step3-answer")
    for panel in window.panels.values():
        if panel.isVisible():  # room again: the whole title again
            assert panel.title.text() == panel.full_title, panel.name


def _pixels(points: str) -> int:
    font = QFont()
    font.setPointSizeF(float(points.removesuffix("pt")))
    return QFontInfo(font).pixelSize()


@pytest.mark.parametrize("lang", ["en", "de", i18n.PSEUDO])
def test_the_sigma_dial_projects_no_text_under_20_px(presenting, lang):
    window = presenting(lang)
    _go(window, "sigma_dial")
    dial = window.panels["sigma_dial"]
    assert dial.isVisible() and dial.dial_plots
    assert not dial.table.isVisible()  # its detail is for the desk and the notes
    small = []
    for i, d in enumerate(dial.dial_plots):
        for name in ("left", "bottom"):
            axis = d.plot.getAxis(name)
            if QFontInfo(axis.style["tickFont"]).pixelSize() < 20:
                small.append(f"plot {i} {name} ticks")
            if axis.labelText and (axis.label.scale() < 1 or _pixels(axis.labelStyle["font-size"]) < 20):
                small.append(f"plot {i} {name} title {axis.labelText!r}")
        title = d.plot.titleLabel
        if i and (not title.text or _pixels(title.opts["size"]) < 20 or "…" in title.text
                  or title.item.boundingRect().width() > d.plot.getViewBox().width() + 8):
            small.append(f"plot {i} quantity {title.text!r}")
    assert small == []
    window.presentation.leave()
    assert dial.table.isVisibleTo(dial)  # back on the desk: the table again


@pytest.mark.parametrize("lang, size, sweep", [("en", (1024, 768), False), ("de", (1024, 768), False),
                                              ("en", (1280, 720), False), ("en", (1024, 768), True),
                                              ("en", (1280, 720), True)])
def test_the_lab_demo_projects_every_plot_without_scrolling(presenting, qtbot, lang, size, sweep):
    # The one-high-rate demonstration (or a sweep of the rates): the verdict line, the plots
    # of the run and the three over training, all on the page (a clicker cannot scroll).
    window = presenting(lang, size)
    window.toggle_lab()
    page = window.lab_page
    with qtbot.waitSignal(page.run_finished, timeout=120_000):
        if sweep:
            page.controls.sweep_button.click()
            page.run()
        else:
            page.show_stall()
    for _ in range(3):
        QApplication.processEvents()
    holder = window._lab_holder
    assert holder.verticalScrollBar().maximum() == 0, (page.minimumSizeHint(), holder.viewport().size())
    table = page.sweep_table if sweep else page.table
    assert not any(h.isVisible() for h in table.headers.values())  # the verdict line only
    assert table.verdict.isVisible() and table.verdict.text()
    view = holder.viewport().rect()
    top = (page.steps_lr_panel, page.loss_lr_panel) if sweep else (page.accuracy_panel, page.loss_panel,
                                                                   page.stuck_panel)
    for panel in (*top, page.logit_panel, page.entropy_panel, page.grad_panel):
        where = panel.rect().translated(panel.mapTo(holder.viewport(), panel.rect().topLeft()))
        assert panel.isVisible() and view.contains(where), (panel.heading, where, view)
    window.presentation.leave()
    assert table.verdict.isVisible() and next(iter(table.headers.values())).isVisibleTo(page)


def test_the_projected_window_keeps_its_size_on_the_way_back_from_the_lab(presenting):
    # German at 1024×768: a follow-up, the lab, then step 3 grew the window to 840 lines
    # (panels arranged in the middle of presentation mode's new type size left it a passing
    # minimum height).
    window = presenting("de")
    _go(window, "temperature")
    window.tabs.setCurrentWidget(window._lab_holder)
    window.lab_page.controls.set_values(mode="single", lr=5.0)
    window.render_ready()
    for _ in range(3):
        QApplication.processEvents()
    window.tabs.setCurrentIndex(0)
    _go(window, "step3-question")
    assert (window.width(), window.height()) == (1024, 768)


@pytest.mark.parametrize("lang", LANGS)
def test_a_teachers_longest_lesson_fits_the_smallest_projector(presenting, lang):
    """Every page in reverse under the longest title, and a question of the longest length a
    lesson file takes, in words of a long language: the introduction and the step fit."""
    from sqrtdk_gui.core.io.lesson_file import MAX_QUESTION, MAX_TITLE
    from sqrtdk_gui.core.lesson.plan import FULL, LessonPlan, PlanPage

    words = "Vorhersage Aufmerksamkeitsgewichte Wahrscheinlichkeit "
    question = (words * 20)[:MAX_QUESTION].strip()
    pages = tuple(reversed([PlanPage(p.page, question={lang: question} if p.ident == "step:2" else {})
                            for p in FULL.pages]))
    window = presenting(lang)
    window.lesson_files.apply(LessonPlan(pages=pages, title=("Title " * 40)[:MAX_TITLE]))
    for page in ("intro", "step2-question", "step2-answer"):
        _go(window, page)
        assert window.slide.fits, (page, window.slide.words()[:80])
        assert all(QFontInfo(label.font()).pixelSize() >= 20 for label in window.slide.labels()
                   if label.isVisible() and label.text())
    assert window.slide.question.text() == question
