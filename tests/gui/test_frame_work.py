"""What one frame of a slider drag touches: only what changed is repainted or laid out again.

Structural checks, no timings (those are in benchmarks/frame_latency.py): each test names a
piece of work that once ran on every frame and would come back unnoticed.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import QEvent, QObject, QPointF
from PySide6.QtGui import QPixmapCache
from PySide6.QtWidgets import QApplication, QGraphicsItem, QWidget

from sqrtdk_gui.core.attention.result import MEDIAN_ROW
from sqrtdk_gui.gui.panels.base import LabelSlot
from sqrtdk_gui.gui.window.controls import TEMP_MAX_POS, TEMP_MIN_POS


class _Events(QObject):
    """Counts events of some types per watched object."""

    def __init__(self, types) -> None:
        super().__init__()
        self.types = set(types)
        self.seen: dict[QObject, int] = {}

    def watch(self, objects) -> _Events:
        for obj in objects:
            obj.installEventFilter(self)
        return self

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt API
        if event.type() in self.types:
            self.seen[obj] = self.seen.get(obj, 0) + 1
        return False


def _settle(qtbot, widgets, quiet_ms: int = 200, rounds: int = 50) -> None:
    """Wait until ``widgets`` have gone ``quiet_ms`` without a paint, resize or layout request
    (a window's first layouts, a font change's relayout), however long a busy machine takes."""
    events = _Events({QEvent.Type.Paint, QEvent.Type.Resize, QEvent.Type.LayoutRequest}).watch(widgets)
    try:
        for _ in range(rounds):
            seen = sum(events.seen.values())
            qtbot.wait(quiet_ms)
            if sum(events.seen.values()) == seen:
                return
        raise AssertionError(f"still repainting after {rounds} rounds of {quiet_ms} ms")
    finally:
        for widget in widgets:
            widget.removeEventFilter(events)


def _step(window, slider, pos: int) -> None:
    slider.setValue(pos)
    window.controller.flush()
    QApplication.processEvents()
    QApplication.processEvents()  # the repaint the new data asked for


def test_a_temperature_step_repaints_only_its_own_controls(qtbot, window):
    c = window.controls
    _step(window, c.temp_slider, c.temp_slider.value() - 4)
    others = [c.dk_spin, c.keys_spin, c.seed_spin, c.heads_spin, c.gain_spin, c.align_spin, c.row_spin]
    paints = _Events([QEvent.Type.Paint]).watch(others + [c.temp_slider])
    _step(window, c.temp_slider, c.temp_slider.value() - 6)
    assert paints.seen.get(c.temp_slider, 0) >= 1  # the counter does see paints
    assert {w.objectName() or type(w).__name__: n for w, n in paints.seen.items() if w is not c.temp_slider} == {}


def test_a_d_k_step_repaints_its_controls_not_the_group_or_column_beneath(qtbot, window):
    from PySide6.QtWidgets import QGroupBox

    c = window.controls
    _step(window, c.dk_slider, c.dk_slider.value() + 2)
    moving = [c.dk_slider, c.dk_label, c.dk_spin]
    paints = _Events([QEvent.Type.Paint]).watch(moving + [c] + c.findChildren(QGroupBox))
    _step(window, c.dk_slider, c.dk_slider.value() + 3)
    assert all(paints.seen.get(w, 0) >= 1 for w in moving)  # the counter does see paints
    assert {w.objectName() or type(w).__name__: n for w, n in paints.seen.items() if w not in moving} == {}


def test_changing_readouts_do_not_lay_out_the_window_again(qtbot, window):
    """Labels whose text changes every frame sit in layout-free holders; a relayout of the
    central widget would repaint the whole window on every frame."""
    for delta in (-4, -4, 8):  # settle: the window's first frames may still lay it out once
        _step(window, window.controls.temp_slider, window.controls.temp_slider.value() + delta)
    central = window.centralWidget()
    watched = [central] + central.findChildren(QWidget)
    layouts = _Events([QEvent.Type.LayoutRequest]).watch(watched)
    readouts = [p.readout for p in window.panels.values() if hasattr(p, "readout")]
    paints = _Events([QEvent.Type.Paint]).watch(readouts)
    # Opaque labels: a new text does not repaint its holder, the panel or the window beneath.
    slots = [r.parent() for r in readouts] + window.summary.findChildren(LabelSlot)
    beneath = _Events([QEvent.Type.Paint]).watch([r.parent().parent() for r in readouts] + [window.summary]
                                                 + slots)
    for delta in (-6, -6, 12):
        _step(window, window.controls.temp_slider, window.controls.temp_slider.value() + delta)
    assert paints.seen, "the readouts changed and were repainted"
    # A label asks its parent to lay out again; the holder absorbs it, nothing above it does.
    beyond = {w.objectName() or type(w).__name__: n for w, n in layouts.seen.items() if not isinstance(w, LabelSlot)}
    assert beyond == {}
    assert beneath.seen == {}


def test_a_temperature_drag_lays_out_each_colour_key_once(qtbot, window, monkeypatch):
    """The keys name the τ (a rich-text label each); only its digits change in a drag, so
    their wrapped height is laid out once, and it is the height a fresh layout gives."""
    slider = window.controls.temp_slider
    _step(window, slider, slider.value() - 4)  # τ ≠ 1: the note is in every key
    keyed = [p for p in window.panels.values() if p.isVisible() and "τ" in p.key.text()]
    assert len(keyed) >= 3
    calls: list[object] = []
    originals = {}
    for panel in keyed:
        originals[panel] = panel.key.heightForWidth
        monkeypatch.setattr(panel.key, "heightForWidth",
                            lambda w, p=panel: calls.append(p) or originals[p](w))
    texts = {p: p.key.text() for p in keyed}
    for delta in (-2, -2, -2):  # τ 0.5x: two digits after the point, as above
        _step(window, slider, slider.value() + delta)
    assert all(p.key.text() != texts[p] for p in keyed)  # the note did change
    assert calls == []
    for panel in keyed:
        width = panel.key_slot.width()
        assert panel.key_slot.height() >= originals[panel](width)


def test_a_new_range_moves_the_items_at_once(qtbot, window):
    """pyqtgraph applies a new range at the next paint, where moving the items asks for a
    second whole repaint; the panels' view boxes apply it when it is set."""
    plot = window.panels["histogram"].plot
    box = plot.getViewBox()
    plot.setYRange(0.0, 7.0, padding=0)
    top = box.childGroup.transform().map(QPointF(0.0, 7.0))  # no event processed since
    assert top.y() == pytest.approx(0.0, abs=1e-6)
    plot.setYRange(0.0, 3.5, padding=0)
    assert box.childGroup.transform().map(QPointF(0.0, 3.5)).y() == pytest.approx(0.0, abs=1e-6)


def test_tick_text_room_never_shrinks_during_a_drag(qtbot, window):
    """A plot whose axis gave back room as its labels got shorter was re-laid out (and jumped
    sideways) a tenth of the frames of a temperature drag."""
    slider = window.controls.temp_slider
    axes = [window.panels[name].plot.getAxis("left") for name in ("histogram", "weights")]
    widths = {id(a): [] for a in axes}
    ranges = {id(a): set() for a in axes}
    positions = list(range(TEMP_MIN_POS, TEMP_MAX_POS + 1, 8))
    for pos in positions + positions[::-1]:
        _step(window, slider, pos)
        for a in axes:
            widths[id(a)].append(a.width())
            ranges[id(a)].add(tuple(a.range))
    for a in axes:
        seen = widths[id(a)]
        assert seen == sorted(seen), f"the {a.labelText!r} axis shrank during the drag: {seen}"
        assert len(ranges[id(a)]) >= 4  # the drag did move its labels (0.1 … 0.0005)


def test_pixmap_cache_holds_a_large_window(qtbot, make_window):
    window = make_window(size=(1600, 900))
    window.resize(3840, 2160)
    QApplication.processEvents()
    ratio = window.devicePixelRatioF()
    assert QPixmapCache.cacheLimit() >= 2 * 4 * 3840 * 2160 * ratio ** 2 / 1024


def test_sweep_curves_are_drawn_from_a_cache(qtbot, window):
    """The d_k marker repaints a strip of each "versus d_k" plot every frame of a drag."""
    versus = window.panels["gradient"].versus
    series = [*versus.series.values(), versus.other]
    cached = QGraphicsItem.CacheMode.DeviceCoordinateCache
    for s in series:
        for item in (s.median, s.low, s.high, s.mean):
            assert item.curve.cacheMode() == cached and item.scatter.cacheMode() == cached
    # the marker moves every frame: it is drawn by Qt's own items, not cached
    assert versus.marker.line.cacheMode() == QGraphicsItem.CacheMode.NoCache


def test_the_d_k_marker_meets_the_current_median(qtbot, window):
    import numpy as np

    _step(window, window.controls.dk_slider, window.controls.dk_slider.value() + 9)
    result = window.controller.result
    d_k = result.params.d_k
    for name, quantity in (("gradient", "grad_q"), ("jacobian", "jacobian_fro")):
        versus = window.panels[name].versus
        line = versus.marker.line.line()
        assert line.x1() == line.x2() == pytest.approx(np.log10(d_k))
        y0, y1 = versus.plot.getViewBox().viewRange()[1]
        assert (line.y1(), line.y2()) == pytest.approx((y0, y1))  # across the whole plot
        [(x, y)] = versus.marker.dot_positions()
        assert (x, y) == pytest.approx((np.log10(d_k), np.log10(result.summary[quantity].median)))
    sat = window.panels["jacobian"].sat_marker.line.line()
    assert sat.x1() == pytest.approx(np.log10(d_k)) and sat.y2() - sat.y1() == pytest.approx(100)


def test_the_sigma_lines_stand_at_plus_minus_sigma_across_the_histogram(qtbot, window):
    """Through a y-range step too: the lines are placed after the range is."""
    panel = window.panels["histogram"]
    window.actions.raw.trigger()
    tops = set()
    for pos in (20, 50, 30):  # d_k 1 ... 4096 moves σ and steps the y range
        _step(window, window.controls.dk_slider, pos)
        sigma = window.controller.result.logit_std
        y0, y1 = panel.plot.getViewBox().viewRange()[1]
        tops.add(y1)
        for marker, x in zip(panel.sigma_lines, (-sigma, sigma)):
            line = marker.line.line()
            assert line.x1() == line.x2() == pytest.approx(x)
            assert (line.y1(), line.y2()) == pytest.approx((y0, y1))
            assert marker.line.isVisible()
    assert len(tops) == 3


def test_an_axis_redraws_a_range_it_showed_from_memory_and_identically(qtbot, window):
    panel = window.panels["histogram"]
    plot, axis = panel.plot, panel.plot.getAxis("left")

    def show(top: float):
        plot.setYRange(0.0, top, padding=0)
        QApplication.processEvents()
        return axis.picture, panel.canvas.grab().toImage()

    show(0.3), show(0.5)  # the room for the widest labels is taken once (a resize forgets)
    first, image = show(0.3)
    other, _ = show(0.5)
    again, image_again = show(0.3)
    assert other is not first and again is first  # ticks and labels not worked out again
    assert image_again == image
    axis.setTickFont(window.style_.font(14))  # a change other than the range forgets them all
    QApplication.processEvents()
    bigger, _ = show(0.5)
    assert bigger is not other
    assert show(0.3)[0] is not first


def test_sweep_symbols_remember_their_bounds_until_something_changes_them(qtbot, window):
    """A remembered rectangle must follow every change pyqtgraph's own would."""

    from sqrtdk_gui.gui.plotting.plot_items import RememberingScatter

    window.render_ready()  # the sweeps drawn
    plot = window.panels["gradient"].versus.plot
    median = window.panels["gradient"].versus.series["sqrt_dk"].median
    scatter = median.scatter
    assert isinstance(scatter, RememberingScatter) and scatter.isVisible()

    def fresh():  # what pyqtgraph works out now
        return pg.ScatterPlotItem.boundingRect(scatter)

    assert scatter.boundingRect() == fresh()
    x, y = median.getData()
    changes = (
        lambda: scatter.setSize(3 * median.opts["symbolSize"]),  # symbols: invalidate() only
        lambda: median.setData(10 ** x, 10 ** (y + 1.0)),  # data: prepareGeometryChange()
        lambda: plot.setXRange(0.5, 2.0, padding=0),  # the view: its transform
        lambda: window.resize(window.width() - 200, window.height() - 100),
    )
    for change in changes:
        before = scatter.boundingRect()
        change()
        QApplication.processEvents()
        assert scatter.boundingRect() == fresh()
        assert scatter.boundingRect() != before


def test_flat_capped_dashes_cover_the_pixels_of_qt_dashes(qapp):
    """``set_line_style`` draws the same line as Qt's square-capped dash styles, faster."""
    import numpy as np
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QColor, QImage, QPainter

    from sqrtdk_gui.gui.style import set_line_style

    x = np.linspace(-1, 1, 240)
    path = pg.arrayToQPath(300 + 280 * x, 190 - 170 * np.exp(-0.5 * (x / 0.3) ** 2))

    def ink(pen, antialias):
        image = QImage(600, 200, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(QColor("white"))
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, antialias)
        painter.setPen(pen)
        painter.drawPath(path)
        painter.end()
        return np.frombuffer(image.constBits(), np.uint8).reshape(200, 600, 4)[..., :3].astype(int)

    for style in (Qt.PenStyle.DashLine, Qt.PenStyle.DotLine, Qt.PenStyle.DashDotLine):
        for width, antialias in ((1.5, False), (2.5, False), (3.0, True)):
            qt_pen = pg.mkPen("#202020", width=width)
            qt_pen.setStyle(style)
            ours = set_line_style(pg.mkPen("#202020", width=width), style)
            assert ours.capStyle() == Qt.PenCapStyle.FlatCap
            a, b = ink(qt_pen, antialias), ink(ours, antialias)
            inked = (a < 250).any(axis=2) | (b < 250).any(axis=2)
            differ = (np.abs(a - b) > 16).any(axis=2)
            # the same dashes, shifted or resized, would differ in a quarter of the pixels
            assert differ.sum() < 0.01 * inked.sum(), (style, width, antialias)


def test_a_moving_marker_repaints_a_strip_not_a_block_of_the_plot(qtbot, window):
    """Qt pads a line by half its pen width in data units (two decades of a log d_k axis):
    the markers pad by pixels, at any size of the plot and for any pen."""
    marker = window.panels["gradient"].versus.marker
    view = window.panels["gradient"].canvas
    histogram = window.panels["histogram"]

    def pixel_width(line, canvas):
        return canvas.mapFromScene(line.sceneBoundingRect()).boundingRect().width()

    for size in ((1600, 900), (1100, 700)):
        window.resize(*size)
        _step(window, window.controls.dk_slider, window.controls.dk_slider.value() + 5)
        for line, canvas in ((marker.line, view), (histogram.sigma_lines[0].line, histogram.canvas)):
            pen = line.pen().widthF()
            assert pen + 2 <= pixel_width(line, canvas) <= pen + 8
            # tall as the plot: the line spans the view's y range
            top, bottom = (canvas.mapFromScene(line.mapToScene(line.line().p1())).y(),
                           canvas.mapFromScene(line.mapToScene(line.line().p2())).y())
            assert canvas.mapFromScene(line.sceneBoundingRect()).boundingRect().height() >= abs(bottom - top)


@pytest.mark.parametrize("size, zoom", [((1280, 720), 1.0), ((1920, 1080), 1.5)])
def test_the_uniform_level_spans_the_weights_plot_and_its_label_fits(qtbot, make_window, size, zoom):
    window = make_window(size=size)
    window.set_zoom(zoom)
    for keys in (16, 64):
        window.controller.set_params(keys=keys)
        window.controller.flush()
        QApplication.processEvents()
        panel = window.panels["weights"]
        line = panel.uniform.line()
        (left, right), _ = panel.plot.getViewBox().viewRange()
        assert line.y1() == line.y2() == pytest.approx(1.0 / keys)
        assert (line.x1(), line.x2()) == pytest.approx((left, right))
        inside = panel.plot.getViewBox().sceneBoundingRect()
        label = panel.uniform_label.mapRectToScene(panel.uniform_label.boundingRect())
        assert inside.contains(label), (label, inside)  # "uniform 1/n" is not cut at the edge


def test_opaque_readouts_paint_their_holders_colour(qtbot, window):
    """A label that paints its own background must paint the colour of what it covers (its
    style sheet once made it paint the window's grey over the white panel)."""
    from PySide6.QtGui import QColor

    palette = window.style_.palette
    labels = [(p.readout, palette.bg) for p in window.panels.values() if hasattr(p, "readout")]
    labels += [(slot.label, palette.strip) for slot in window.summary.findChildren(LabelSlot)]
    for label, colour in labels:
        image = label.grab().toImage()
        corner = QColor(image.pixel(image.width() - 2, image.height() - 2))  # right of the text
        assert corner.name() == QColor(colour).name(), (label.objectName(), corner.name(), colour)


def test_a_d_k_step_repaints_one_rectangle_of_each_canvas(qtbot, window):
    """A marker and its dot made the changed region a dozen rectangles, and Qt clipped every
    cached curve and axis drawn there to that complex region (twice the cost of one strip)."""

    class Regions(QObject):
        def __init__(self) -> None:
            super().__init__()
            self.seen: list[tuple[QObject, int]] = []

        def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt API
            if event.type() == QEvent.Type.Paint:
                self.seen.append((obj, event.region().rectCount()))
            return False

    canvases = window.findChildren(pg.GraphicsView)
    regions = Regions()
    for canvas in canvases:
        canvas.viewport().installEventFilter(regions)
    slider = window.controls.dk_slider
    _step(window, slider, 20)
    regions.seen.clear()
    for pos in (24, 31, 40):
        _step(window, slider, pos)
    gradient = window.panels["gradient"].canvas.viewport()
    assert any(obj is gradient for obj, _ in regions.seen)  # the marker's canvas did repaint
    assert {count for _, count in regions.seen} == {1}


def test_a_panel_the_window_hides_draws_nothing_until_shown_then_the_current_numbers(qtbot, window, monkeypatch):
    window.arrange_panels(("histogram", "weights"))  # as presentation mode shows a step's own
    jacobian = window.panels["jacobian"]
    assert not jacobian.isVisible()
    drawn = []
    real = jacobian.show_result
    monkeypatch.setattr(jacobian, "show_result", lambda result, row: drawn.append(result) or real(result, row))
    for d_k in (96, 160, 700):
        window.controller.set_params(d_k=d_k)
        window.controller.flush()
    assert drawn == [] and window.panels["histogram"].values["sqrt_dk"] == pytest.approx(700 ** 0.5)
    window.arrange_panels(tuple(window.panels)[:4])
    assert jacobian.isVisible()
    assert [r.params.d_k for r in drawn] == [700]
    row = window.controller.result.resolve_row(window.controller.row)
    assert jacobian.values["row_fro"] == pytest.approx(float(window.controller.result.jacobian_fro[row]))


def test_panels_behind_the_sigma_dial_s_page_catch_up_on_a_new_row_and_their_numbers_table(window):
    jacobian = window.panels["jacobian"]
    jacobian.set_numbers_shown(True)
    window.show_panel_page("sigma_dial")
    assert not jacobian.isVisible()
    c = window.controller
    c.set_params(d_k=900)
    c.flush()
    c.set_row(5)
    window.show_panel_page(None)
    assert jacobian.isVisible() and jacobian._behind is False
    assert jacobian.values["row_fro"] == pytest.approx(float(c.result.jacobian_fro[5]))
    label = c.result.row_label(5)
    assert label != c.result.row_label(MEDIAN_ROW) and label in jacobian.data_view.tabs.tabText(0)


def test_the_same_sweeps_again_leave_the_curves_alone_and_new_ones_redraw_them(window):
    """Sweeps are cached: a lesson page whose curves are those already shown gets the very
    same objects, and setting them again would lay out and repaint four plots for nothing."""
    controller = window.controller
    controller.set_params(scaling="sqrt_dk")
    controller.wait_for_sweeps()
    first = controller.sweeps
    gradient, jacobian = window.panels["gradient"], window.panels["jacobian"]
    series = gradient.versus.series["sqrt_dk"]
    sat = jacobian.sat_curves["sqrt_dk"]
    changes = []
    series.median.sigPlotChanged.connect(lambda *_: changes.append("median"))
    sat.sigPlotChanged.connect(lambda *_: changes.append("saturated"))
    for panel in (gradient, jacobian):
        panel.show_sweeps(first)
    assert changes == []
    controller.set_params(keys=128)  # other curves
    controller.wait_for_sweeps()
    assert controller.sweeps["sqrt_dk"] is not first["sqrt_dk"]
    assert "median" in changes and "saturated" in changes
    changes.clear()
    for panel in (gradient, jacobian):  # back to the first: drawn again, with its numbers
        panel.show_sweeps(first)
    assert "median" in changes and "saturated" in changes
    sw = first["sqrt_dk"]
    assert np.allclose(series.median.getData()[0], np.log10(sw.d_k))  # drawn on a log axis
    assert np.allclose(sat.getData()[1], 100 * sw.saturated_fraction)


@pytest.mark.parametrize("zoom", [1.0, 2.5])
def test_a_highlight_leaves_the_panel_s_contents_where_they_are(qtbot, window, zoom):
    """Border plus padding is the highlight's width either way: highlighting a panel
    repaints its frame but neither resizes nor lays out its plots."""
    window.resize(round(1600 * zoom), round(900 * zoom))  # room for all four panels at this zoom
    window.set_zoom(zoom)
    panel = window.panels["weights"]
    border = max(3, round(4 * window.style_.zoom))
    assert panel.highlight_width() == border

    def margins():
        inner = panel.contentsRect()
        return inner.left(), inner.top(), panel.width() - inner.right() - 1, panel.height() - inner.bottom() - 1

    _settle(qtbot, panel.findChildren(pg.GraphicsView))  # the zoom's own layout may take a while
    resizes = _Events({QEvent.Type.Resize}).watch(panel.findChildren(pg.GraphicsView))
    assert margins() == (border,) * 4
    window.highlight({"weights"})
    qtbot.wait(10)
    assert margins() == (border,) * 4
    window.highlight(())
    qtbot.wait(10)
    assert margins() == (border,) * 4 and resizes.seen == {}


def test_a_panel_asking_for_more_room_repaints_neither_its_neighbours_nor_the_controls(qtbot, window):
    """A key that takes more lines makes its panel, and so the page of panels, ask for more
    height; the tab widgets holding that page place nothing anew, so they do not repaint
    every panel and control in them (QTabWidget repaints itself at every layout request)."""
    hist = window.panels["histogram"]
    others = [window.panels[name] for name in ("weights", "jacobian", "gradient")] + [window.controls]
    page = window.panel_pages.currentWidget()
    from sqrtdk_gui.gui.panels import PAGE_PANELS

    # The window's first layouts and paints are over, the page panels' deferred plots made.
    qtbot.waitUntil(lambda: all(window.panels[cls.name].dial_plots for cls in PAGE_PANELS), timeout=30000)
    _settle(qtbot, [window, *others, hist])
    paints = _Events({QEvent.Type.Paint}).watch(others + [hist])
    needed = page.minimumSizeHint().height()
    height = hist.key.height()
    hist.set_key([("#D55E00", "━", "a long entry of the colour key " * 2)] * 6)
    qtbot.waitUntil(lambda: hist.key.height() > height, timeout=60_000)
    qtbot.wait(100)
    assert page.minimumSizeHint().height() > needed  # the page did ask for more room
    assert paints.seen.get(hist, 0) >= 1  # the panel itself repainted
    assert {o: n for o, n in paints.seen.items() if o is not hist} == {}
