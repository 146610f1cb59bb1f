"""The lecture as it is given: a sealed veil, a histogram that visibly widens, a slide layout.

The keys and the clicker are tested in test_lesson.py; a real X server at 1024×768 with a
window manager in test_xvfb.py.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from PySide6.QtWidgets import QAbstractButton, QLabel

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.lesson.content import SCENARIOS, STEPS
from sqrtdk_gui.core.lesson.predict import PREDICTIONS
from sqrtdk_gui.gui.panels import LIVE_PANELS


def _plain(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text)).replace("\u202f", " ")


def visible_texts(window) -> list[tuple[str, str]]:
    """(where, text) of everything a class can read: labels, buttons, plot titles and axis
    titles, text items in plots, the lesson text and the window title. A veiled panel shows
    its title and its veil only."""
    out = [("window title", window.windowTitle()),
           ("lesson text", window.lesson_pane.text.toPlainText())]
    veiled = [p for p in window.panels.values() if p.veiled]

    def covered(widget) -> bool:
        return any(p.isAncestorOf(widget) and widget is not p.title and widget is not p.veil
                   for p in veiled)

    for widget in window.findChildren(QLabel) + window.findChildren(QAbstractButton):
        if widget.isVisible() and not covered(widget):
            out.append((widget.objectName() or type(widget).__name__, _plain(widget.text())))
    for panel in window.panels.values():
        if not panel.isVisible() or panel.veiled:
            continue
        for plot in panel.plots():
            out.append((f"{panel.name} plot title", _plain(plot.titleLabel.text)))
            for name in ("left", "bottom"):
                out.append((f"{panel.name} axis", _plain(plot.getAxis(name).labelText)))
            for item in plot.items:
                if hasattr(item, "textItem") and item.isVisible():  # pyqtgraph TextItem
                    out.append((f"{panel.name} text", _plain(item.textItem.toPlainText())))
    return out


def answer_patterns(number: int) -> list[str]:
    """What would state step ``number``'s answer: its measured value, and its words."""
    step = STEPS[number - 1]
    value = PREDICTIONS[number].measure(Params(**step.preset))
    numbers = {f"{value:.1f}", f"{value:.2f}", f"{value:.3f}"} if value < 100 else set()
    if value >= 100:  # a ratio: its digits, grouped or not
        numbers |= {f"{value:.0f}", f"{value:,.0f}".replace(",", " ")}
    words = {1: [r"spread like", r"σ\s*=\s*√", r"variance grows"],
             2: [r"saturates", r"J ≈ 0", r"one-hot", r"almost all"],
             3: [r"J ≈ 0", r"collaps", r"vanish", r"times smaller"],
             4: [r"σ\s*[≈=]\s*1\b", r"keep σ", r"variance 1", r"unit variance"]}[number]
    return [re.escape(n) for n in numbers - {"0.0", "1.0", "0.00", "1.00"}] + words


@pytest.mark.parametrize("number", sorted(PREDICTIONS))
def test_nothing_visible_states_an_open_question_s_answer(window, number):
    window.lesson.go_to(number)
    window.render_ready()
    assert not window.lesson.revealed
    texts = visible_texts(window)
    assert len(texts) > 30  # the walk really reads the window
    for pattern in answer_patterns(number):
        hits = [(where, t) for where, t in texts if re.search(pattern, t, re.IGNORECASE)]
        assert not hits, (number, pattern, hits)


@pytest.mark.parametrize("number", [n for n in sorted(PREDICTIONS) if n + 1 in PREDICTIONS])
def test_a_reveal_leaves_the_next_question_unanswered(window, number):
    window.lesson.go_to(number)
    window.lesson.reveal(animate=False)
    window.render_ready()
    texts = [(w, t) for w, t in visible_texts(window) if w != "lesson text" and w != "answer"]
    for pattern in answer_patterns(number + 1)[:-4]:  # the next step's measured value
        hits = [(where, t) for where, t in texts if re.search(pattern, t)]
        assert not hits, (number, pattern, hits)


def _x_width(window) -> float:
    lo, hi = window.panels["histogram"].plot.viewRange()[0]
    return hi - lo


def test_step_one_s_histogram_visibly_widens(window, qtbot):
    # The logit axis is held for the step, so √d_k over the axis width (the bell's width on
    # screen) grows as σ does; an axis that followed σ would keep the bell the same width.
    window.lesson.go_to(1)
    window.render_ready()
    start = math.sqrt(window.controller.params.d_k) / _x_width(window)
    window.lesson.reveal()  # plays d_k 1 → 512
    qtbot.waitUntil(lambda: not window.animator.running, timeout=20000)
    window.render_ready()
    end = math.sqrt(window.controller.params.d_k) / _x_width(window)
    assert window.controller.params.d_k == 512
    assert end / start >= 4  # measured: 22.6 (√512 / √1 on a held axis)
    # R and S flip at the same scale: ÷√d_k is the narrow bell inside the same axis.
    width = _x_width(window)
    window.controller.edit(scaling="sqrt_dk")
    window.render_ready()
    assert _x_width(window) == width
    window.lesson.choose_scenario("dmodel")  # outside the steps the axis follows σ again
    window.render_ready()
    assert window.panels["histogram"].fixed_half is None


def test_autoplay_holds_the_axis_of_its_widest_logits(window, qtbot):
    window.controller.edit(scaling="none")
    window.set_autoplay(True)
    qtbot.waitUntil(lambda: window.controller.params.d_k > 64, timeout=20000)
    assert window.panels["histogram"].fixed_half == pytest.approx(4 * 64, rel=0.3)
    window.set_autoplay(False)
    assert window.panels["histogram"].fixed_half is None


def test_held_axis_counts_the_logits_beyond_its_ends(window):
    window.lesson.go_to(4)  # held at ÷√d_k's σ = 1
    window.lesson.reveal(animate=False)
    window.controller.edit(scaling="none")  # R: raw logits escape off both sides
    window.render_ready()
    beyond = window.panels["histogram"].beyond
    assert beyond.isVisible() and "% of logits beyond ±" in beyond.textItem.toPlainText()


def test_presentation_shows_the_step_s_own_panels_large(window, qtbot):
    window.presentation.enter()
    try:
        for number in range(1, len(STEPS) + 1):
            window.lesson.go_to(number, animate=False)
            window.render_ready()
            live = {cls.name for cls in LIVE_PANELS}
            shown = {n for n in live if window.panels[n].isVisible()}
            own = set(STEPS[number - 1].slide_views) & live
            assert shown == (own or live), number
        window.lesson.go_to(1, animate=False)
        window.render_ready()
        histogram = window.panels["histogram"]
        assert histogram.width() > 0.9 * window.panel_pages.width()  # one panel fills the page
    finally:
        window.presentation.leave()
    # The full grid again, on a desk window with room for it (the offscreen platform's
    # 800×800 "screen" does not give restoreGeometry its size back).
    window.resize(1600, 900)
    qtbot.waitUntil(lambda: all(window.panels[cls.name].isVisible() for cls in LIVE_PANELS))


def test_slides_are_drawn_from_the_lesson_whatever_page_is_in_front(window, tmp_path):
    from PySide6.QtGui import QImage

    from sqrtdk_gui.gui.export.view import export_slides

    window.tabs.setCurrentIndex(1)  # the training lab in front
    window.lesson.go_to(2, animate=False)
    before = (window.controller.params, window.lesson.step, window.size(), window.style_.zoom)
    shots = []

    def progress(i, n, name):
        shots.append((window.menuBar().isVisible(), window.statusBar().isVisible(),
                      window.live_active(), window.lesson_pane.guesses.isVisible()))
        return i < 3

    written = export_slides(window, str(tmp_path), (1024, 768), progress, zoom=1.25)
    assert len(written) == 3
    images = [QImage(p) for p in written]
    assert all(im.size().toTuple() == (1024, 768) for im in images)
    assert images[0] != images[1]
    assert all(s == (False, False, True, False) for s in shots[:3])  # a slide, not the window
    # Nothing on screen changed: page, lesson position, parameters, size, zoom.
    assert window.tabs.currentIndex() == 1 and window.menuBar().isVisible()
    assert (window.controller.params, window.lesson.step, window.size(), window.style_.zoom) == before


def test_an_export_leaves_an_open_trap_s_evidence_as_it_was(window, tmp_path):
    from sqrtdk_gui.gui.export.view import export_slides

    window.lesson.choose_scenario("small_heads")
    window.render_ready()
    before = window.lesson_pane.chart_curve.getData()
    export_slides(window, str(tmp_path), (800, 600), lambda i, n, name: i < 2)
    after = window.lesson_pane.chart_curve.getData()
    assert window.lesson.scenario.key == "small_heads"
    np.testing.assert_array_equal(before[1], after[1])


def test_the_handout_counts_its_pages():
    from sqrtdk_gui.gui.export.handout import INTRO

    traps = sum(s.kind == "trap" for s in SCENARIOS)
    assert f"{traps} traps" not in INTRO  # written as words
    words = "zero one two three four five six seven eight nine ten".split()
    follow = sum(s.kind == "follow-up" for s in SCENARIOS)
    assert f"{words[traps]} traps and {words[follow]} follow-ups" in INTRO


def test_a_focused_control_wears_a_thick_ring_in_every_theme(window, qtbot):
    for theme in ("light", "dark", "high-contrast"):
        window.set_theme(theme)
        button = window.controls.raw_button
        button.setFocus()
        qtbot.waitUntil(lambda: window.focus_ring.target is button, timeout=60_000)
        ring = window.focus_ring.frame
        assert ring.isVisible() and window.style_.palette.highlight in ring.styleSheet()
        assert "3px solid" in ring.styleSheet()
        window.focus_home()  # the lesson's home: nothing to outline
        qtbot.waitUntil(lambda: not ring.isVisible(), timeout=60_000)


def test_ctrl_0_restores_the_layout_after_zooming(window, qtbot):
    qtbot.wait(50)
    dock, controls = window.lesson_dock.width(), window.controls_scroll.width()
    window.zoom_in()
    window.zoom_in()
    qtbot.wait(50)
    window.zoom_reset()
    qtbot.wait(50)
    assert abs(window.lesson_dock.width() - dock) <= 2 and abs(window.controls_scroll.width() - controls) <= 2


@pytest.mark.parametrize("height", [720, 768, 800, 1080])
def test_presentation_type_is_readable_from_the_back_row(make_window, height):
    from PySide6.QtGui import QFontInfo

    window = make_window(size=(round(height * 4 / 3), height))
    window.presentation.enter(full_screen=False)
    try:
        for panel in ("histogram", "gradient"):
            axis = window.panels[panel].plot.getAxis("bottom")
            pixels = QFontInfo(axis.style["tickFont"]).pixelSize()
            # at least 20 px, and about 2.6 % of the screen's lines on larger screens
            assert pixels >= max(20, 0.025 * height), (panel, pixels)
    finally:
        window.presentation.leave()


@pytest.mark.parametrize("size", [(1024, 768), (1280, 720), (1920, 1080)])
def test_the_introduction_in_presentation_shows_panels_readable_at_its_size(make_window, size):
    # Before step 1 no page has panels of its own: presentation's large type leaves room for
    # the lesson's first two, large, not four too small to read; the desk shows all four
    # where each keeps a readable plot, else fewer (the first), large.
    window = make_window(size=size)
    window.render_ready()
    live = tuple(cls.name for cls in LIVE_PANELS)
    desk = tuple(n for n in live if window.panels[n].isVisible())
    assert desk == (live if size[1] >= 1080 else live[:len(desk)])
    assert all(window.panels[n].canvas.height() >= 150 for n in desk), [window.panels[n].canvas.size() for n in desk]
    window.presentation.enter(full_screen=False)
    try:
        window.render_ready()
        assert window.lesson.step == 0
        assert tuple(n for n in live if window.panels[n].isVisible()) == ("histogram", "weights")
        assert window.summary.isVisible()
        window.lesson.go_to(3, animate=False)  # a step shows its own, whatever the size
        window.render_ready()
        assert {n for n in live if window.panels[n].isVisible()} == set(STEPS[2].slide_views) & set(live)
    finally:
        window.presentation.leave()
