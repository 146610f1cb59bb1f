"""The desk window on the screens a school has: every plot it shows stays readable.

Four panels two by two where each keeps a plot of 150 px or more; on a smaller page (a
1024×768 projector used as a desk, a laptop at 1280×720) fewer panels, larger: the lesson
step's own, or those picked with the numbered buttons or D.
"""

import pyqtgraph as pg
import pytest
from PySide6.QtCore import Qt

from sqrtdk_gui.gui.panels import LIVE_PANELS

LIVE = tuple(cls.name for cls in LIVE_PANELS)
SIZES = [(1024, 768), (1280, 720), (1280, 800), (1366, 768), (1600, 900), (1920, 1080)]


def _shown(window) -> tuple[str, ...]:
    return tuple(n for n in LIVE if window.panels[n].isVisible())


def _canvases(window) -> dict[str, tuple[int, int]]:
    return {n: (window.panels[n].canvas.width(), window.panels[n].canvas.height()) for n in _shown(window)}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_plot_on_the_desk_is_readable_at_every_size(make_window, size):
    window = make_window(size=size, threaded=False)
    for step in (0, 1, 2, 3, 4, 5):
        window.lesson.go_to(step, animate=False) if step else window.lesson.restore(0, None)
        window.render_ready()
        small = {n: c for n, c in _canvases(window).items() if c[1] < 150 or c[0] < 150}
        assert small == {}, (step, small)
        assert all(window.panels[n].title.text() for n in _shown(window))  # titles never emptied
    # All four wherever they stay readable, the picker only where they do not.
    four = size[1] >= 900
    window.lesson.restore(0, None)
    window.render_ready()
    assert (_shown(window) == LIVE) == four
    assert window.panel_layout.picker.isVisible() == (not four)


def test_a_small_desk_shows_the_step_s_own_panels_and_the_picked_ones(make_window, qtbot):
    window = make_window(size=(1024, 768), threaded=False)
    window.render_ready()
    assert _shown(window) == ("histogram",)  # the first, large
    window.lesson.go_to(3, animate=False)  # the Jacobian's step
    window.render_ready()
    assert _shown(window) == ("jacobian",)
    buttons = window.panel_layout.buttons
    assert [buttons.button(i).isChecked() for i in range(4)] == [False, False, True, False]
    qtbot.mouseClick(buttons.button(3), Qt.MouseButton.LeftButton)  # "4"
    window.render_ready()
    assert _shown(window) == ("gradient",) and buttons.button(3).isChecked()
    assert window.panels["gradient"].canvas.height() >= 150
    window.lesson.go_to(1, animate=False)  # a lesson move: its own panels again
    window.render_ready()
    assert _shown(window) == ("histogram",)


def test_d_walks_a_small_desk_through_every_panel_and_the_sigma_dial(make_window):
    window = make_window(size=(1024, 768), threaded=False)
    window.render_ready()
    seen = []
    for _ in range(6):
        window.render_ready()
        seen.append("dial" if window.panel_pages.currentIndex() else _shown(window))
        window.toggle_dial()
    assert seen == [("histogram",), ("weights",), ("jacobian",), ("gradient",), "dial", ("histogram",)]
    # Side by side where two fit: D goes two at a time.
    window.resize(1280, 720)
    window.render_ready()
    assert _shown(window) == ("histogram", "weights")
    window.toggle_dial()
    window.render_ready()
    assert _shown(window) == ("jacobian", "gradient")
    a, b = (window.panels[n].geometry() for n in ("jacobian", "gradient"))
    assert a.top() == b.top() and a.right() < b.left()  # side by side


def test_larger_text_never_squeezes_a_desk_plot(make_window):
    window = make_window(size=(1024, 768), threaded=False)
    window.render_ready()
    for _ in range(4):  # Ctrl+= four times: fewer panels or a refusal, never a squeezed plot
        window.zoom_in()
        window.render_ready()
        small = {n: c for n, c in _canvases(window).items() if c[1] < 150 or c[0] < 150}
        assert small == {}, (window.style_.zoom, small)
    window.zoom_reset()
    window.resize(1920, 1080)
    window.render_ready()
    assert _shown(window) == LIVE  # the room returned: all four again


@pytest.mark.parametrize("size", [(1024, 768), (1280, 720), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_head_size_ticks_never_run_together(make_window, size):
    # "8 64512" on a narrow d_k axis: the labels kept are the ones that fit side by side.
    from PySide6.QtGui import QFontMetrics

    window = make_window(size=size, threaded=False)
    window.lesson.choose_scenario("small_heads")  # panels 3 and 4 and the pane's chart
    window.render_ready()
    plots = [window.panels["jacobian"].sat_plot, window.panels["jacobian"].versus.plot,
             window.panels["gradient"].versus.plot, window.lesson_pane.chart.getPlotItem()]
    for plot in plots:
        if not plot.isVisible() or plot.getViewBox().width() <= 0:
            continue
        axis, box = plot.getAxis("bottom"), plot.getViewBox()
        metrics = QFontMetrics(axis.style["tickFont"])
        spans = sorted((box.mapViewToScene(pg.Point(x, 0)).x() - metrics.horizontalAdvance(text) / 2,
                        box.mapViewToScene(pg.Point(x, 0)).x() + metrics.horizontalAdvance(text) / 2)
                       for x, text in axis._tickLevels[0])
        assert spans and all(b[0] > a[1] for a, b in zip(spans, spans[1:])), (size, [t for _, t in axis._tickLevels[0]])
        if size[0] >= 1920 and plot is not window.lesson_pane.chart.getPlotItem():
            assert len(spans) == 5  # room for every head size


def test_a_chart_title_with_a_less_than_sign_is_shown_as_words(make_window):
    # "median ‖J‖_F ratio (< 1: raw ahead)": a label is rich text, where "<" began a tag and
    # swallowed the rest; too long for the pane it ends in "…", whole in its tooltip.
    window = make_window(size=(1280, 720), threaded=False)
    window.lesson.choose_scenario("small_heads")
    window.render_ready()
    title = window.lesson_pane.chart.getPlotItem().titleLabel
    full = window.lesson_pane._chart_title
    assert "<" in full
    shown = title.item.toPlainText()
    assert shown == full or (shown.endswith("…") and full.startswith(shown[:-1]) and title.toolTip() == full)
    assert "(<" in shown or "(" not in shown[:-1]


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_jacobian_map_and_its_colour_bar_stay_inside_their_canvas(make_window, size):
    # On a narrow panel the map's title widened the map's plot past its canvas, cutting the
    # map and hiding the colour bar.
    window = make_window(size=size, threaded=False)
    window.lesson.choose_scenario("small_heads")
    window.render_ready()
    panel = window.panels["jacobian"]
    canvas = panel.heat_canvas
    assert panel.heat_plot.width() <= canvas.width() + 1
    bar = panel.colorbar.sceneBoundingRect()
    assert bar.right() <= canvas.width() + 1 and bar.width() > 5
