"""fast_items: Qt-drawn replacements of pyqtgraph items draw what those drew, pixel for pixel."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage, QPainter

from sqrtdk_gui.gui.plotting.fast_items import Bars, FastCurve, FastImage
from sqrtdk_gui.gui.style import Style, faint


def _plot_of(make, x_range, y_range):
    """A 640 x 400 plot showing x_range x y_range, holding the item ``make(view_box)`` returns."""
    plot = pg.PlotWidget(background="w")
    plot.resize(640, 400)
    item = make(plot.getViewBox())
    plot.addItem(item, ignoreBounds=True)
    plot.setXRange(*x_range, padding=0)
    plot.setYRange(*y_range, padding=0)
    return plot, item


def _render(make, x_range, y_range) -> np.ndarray:
    """Render the item ``make(view_box)`` returns, alone in a 640 x 400 plot."""
    plot, _ = _plot_of(make, x_range, y_range)
    image = QImage(640, 400, QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)  # as the app's views
    plot.render(painter)
    painter.end()
    return np.frombuffer(image.constBits(), np.uint8).reshape(400, 640, 4)[..., :3].astype(int)


def _compare(ours, theirs, x_range, y_range):
    a, b = _render(ours, x_range, y_range), _render(theirs, x_range, y_range)
    inked = (b < 250).any(axis=2)
    differ = (np.abs(a - b) > 24).any(axis=2)
    return int(inked.sum()), int(differ.sum())


@pytest.mark.parametrize("scaling", ["none", "sqrt_dk"])  # dashed and solid opaque outlines
def test_steps_draw_what_pyqtgraphs_filled_step_curve_drew(qapp, scaling):
    edges = np.linspace(-4, 4, 62)
    heights = np.exp(-0.5 * (0.5 * (edges[:-1] + edges[1:])) ** 2) * (
        1 + 0.2 * np.random.default_rng(0).standard_normal(61))
    style = Style()
    pen, brush = style.series_pen(scaling, 2.5), faint(style.colour_for(scaling), 90)
    def theirs(box):
        return pg.PlotCurveItem(x=edges, y=heights, stepMode="center", fillLevel=0, antialias=False,
                                pen=pen, brush=brush)

    def ours(box):
        curve = FastCurve(box, steps=True, antialias=False)
        curve.setPen(pen)
        curve.setBrush(brush)
        curve.setData(edges, heights)
        return curve

    curve = ours(pg.ViewBox())
    assert np.array_equal(curve.getData()[0], edges) and np.array_equal(curve.getData()[1], heights)
    # the outline: up from the baseline at the first edge, across each bin, down at the last
    path = curve.outline()
    points = [(path.elementAt(i).x, path.elementAt(i).y) for i in range(path.elementCount())]
    assert points[0] == (edges[0], 0.0) and points[-1] == (edges[-1], 0.0)
    assert points[1:3] == [(edges[0], heights[0]), (edges[1], heights[0])]
    inked, differ = _compare(ours, theirs, (-4.2, 4.2), (0, 1.5))
    assert inked > 5000 and differ == 0, (inked, differ)


def test_a_dashed_antialiased_curve_draws_what_pyqtgraphs_drew(qapp):
    x = np.linspace(-4, 4, 240)
    pen = Style().pen("#202020", 3, dashed=True)
    def theirs(box):
        return pg.PlotCurveItem(x=x, y=np.exp(-0.5 * x * x), pen=pen, antialias=True)

    def ours(box):
        curve = FastCurve(box)
        curve.setPen(pen)
        curve.setData(x, np.exp(-0.5 * x * x))
        return curve

    inked, differ = _compare(ours, theirs, (-4.2, 4.2), (0, 1.1))
    assert inked > 2000 and differ == 0, (inked, differ)


def test_the_bounds_pad_the_pen_by_pixels_and_follow_the_view(qapp):
    plot, curve = _plot_of(FastCurve, (0, 1), (0, 1))
    curve.setPen(pg.mkPen("k", width=3))
    curve.setData([0.0, 1.0], [0.0, 1.0])
    for x_range in ((0, 1), (0, 10)):
        plot.setXRange(*x_range, padding=0)
        plot.setYRange(0, 1, padding=0)
        pixel_x, pixel_y = plot.getViewBox().viewPixelSize()
        box = curve.boundingRect()
        assert box.left() == pytest.approx(-3.5 * pixel_x) and box.bottom() == pytest.approx(1 + 3.5 * pixel_y)
    # The pixel size is remembered per view box: a resize (same range) must refit too.
    before = curve.boundingRect().left()
    plot.resize(320, 200)
    plot.getViewBox().resize(300, 180)
    pixel_x, _ = plot.getViewBox().viewPixelSize()
    assert curve.boundingRect().left() == pytest.approx(-3.5 * pixel_x) != pytest.approx(before)
    curve.setVisible(False)
    assert curve.pen().color() == QColor(Qt.GlobalColor.black)


class _Bars(Bars):
    """Bars remembering the pixels per bar and per unit of height they were last drawn at."""

    drawn_at: tuple[float, float] | None = None

    def tops(self, pixels_per_bar, pixels_per_unit):
        type(self).drawn_at = (pixels_per_bar, pixels_per_unit)
        return super().tops(pixels_per_bar, pixels_per_unit)


def _bars(heights, brush, pen):
    """A maker of the weights panel's bars, 0.8 wide, for ``_compare``."""
    def make(box):
        bars = _Bars(box, width=0.8)
        bars.set_bars(heights, brush, pen)
        return bars
    return make


class _SnappedBarGraph(pg.BarGraphItem):
    """BarGraphItem filling its bars without antialiasing."""

    def paint(self, painter, *args):
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        super().paint(painter, *args)


def _their_bars(heights, brush, pen, snapped):
    """BarGraphItem's bars without a pen, and pyqtgraph's curve in the pen along the tops
    ``Bars.tops`` gives at the scale ours were last drawn at: a maker for ``_compare``."""
    def make(box):
        kind = _SnappedBarGraph if snapped else pg.BarGraphItem
        bars = kind(x=np.arange(heights.size), height=heights, width=0.8, brush=brush, pen=None)
        for xs, ys in Bars.tops(_bars(heights, brush, pen)(box), *_Bars.drawn_at):
            pg.PlotCurveItem(x=xs, y=ys, pen=pen, antialias=True).setParentItem(bars)
        return bars
    return make


@pytest.mark.parametrize("scaling", ["none", "sqrt_dk"])  # a dashed and a solid pen
def test_weight_bars_are_filled_and_topped_by_one_line_in_the_pen(qapp, scaling):
    """64 bars in 640 pixels: each filled where it belongs, on whole pixels, as BarGraphItem
    fills them, and one step line in the pen along their tops, as pyqtgraph draws that line."""
    heights = np.random.default_rng(3).dirichlet(np.ones(64) * 0.3)
    pen, brush = Style().series_pen(scaling, 1.2, colour="#202020"), faint("#D55E00", 200)
    ours = _bars(heights, brush, pen)
    top = 1.1 * heights.max()
    rects = ours(pg.ViewBox()).rects()
    assert rects.shape == (heights.size, 4)
    for i, (rect, h) in enumerate(zip(rects, heights)):
        assert tuple(rect) == pytest.approx((i - 0.4, 0, 0.8, h))
    inked, differ = _compare(ours, _their_bars(heights, brush, pen, snapped=True), (-0.8, 63.8), (0, top))
    assert inked > 5000 and differ == 0, (inked, differ)
    per_bar, per_unit = _Bars.drawn_at
    assert per_bar >= 2 and Bars(pg.ViewBox(), width=0.8).snapped_at(per_bar)  # a step line


@pytest.mark.parametrize("scaling", ["none", "sqrt_dk"])
def test_bars_under_a_few_pixels_are_antialiased(qapp, scaling):
    """A thousand keys in 640 pixels: bars under a pixel wide, filled antialiased as
    BarGraphItem fills them (on whole pixels some would vanish and others double), the line
    in the pen (dashed for raw) along their tops down to the last bar a pixel tall."""
    n = 1024
    heights = np.sort(np.random.default_rng(4).dirichlet(np.ones(n) * 0.05))[::-1]
    pen, brush = Style().series_pen(scaling, 1.2, colour="#202020"), faint("#D55E00", 200)
    ours = _bars(heights, brush, pen)
    top = 1.1 * heights.max()
    inked, differ = _compare(ours, _their_bars(heights, brush, pen, snapped=False), (-0.8, n - 0.2), (0, top))
    assert inked > 2000 and differ == 0, (inked, differ)
    per_bar, per_unit = _Bars.drawn_at
    bars = ours(pg.ViewBox())
    assert not bars.snapped_at(per_bar) and not bars.snapped_at(4.9) and bars.snapped_at(5.0)
    # sorted bars: one line, down to the last bar a pixel tall, through the tallest (the
    # first) of each group of bars two pixels wide, from the first bar's left edge to the
    # last one's right
    (xs, ys), = bars.tops(per_bar, per_unit)
    tall = int(np.sum(heights * per_unit >= 1.0))
    group = math.ceil(2 / per_bar)
    assert 8 * group < tall < n and group >= 3
    groups = np.arange(0, tall, group)
    assert xs[0] == pytest.approx(-0.4) and xs[-1] == pytest.approx(tall - 1 + 0.4)
    assert np.allclose(xs[1:-1], (groups + np.minimum(groups + group, tall) - 1) / 2)
    assert np.array_equal(ys[1:-1], heights[groups]) and ys[0] == ys[1] and ys[-1] == ys[-2]
    # bars two pixels apart or more: a step across each top, stepping midway between bars
    (xs, ys), = bars.tops(2.0, per_unit)
    assert np.allclose(xs[1:-1], np.repeat(np.arange(tall - 1) + 0.5, 2))
    assert np.array_equal(ys, np.repeat(heights[:tall], 2))
    assert bars.tops(per_bar, 1e-9) == []  # no bar a pixel tall: no line along the baseline


def test_the_bars_bounds_pad_their_line_by_pixels(qapp):
    """Qt's padding of 1.2 weight units covered the whole canvas: repainted every frame."""
    plot, bars = _plot_of(Bars, (-0.8, 3.8), (0, 1))
    bars.set_bars(np.array([0.5, 0.25, 0.1, 0.05]), "r", pg.mkPen("k", width=1.2))
    pixel_x, pixel_y = plot.getViewBox().viewPixelSize()
    box = bars.boundingRect()
    assert box.top() == pytest.approx(-2.6 * pixel_y) and box.bottom() == pytest.approx(0.5 + 2.6 * pixel_y)
    assert box.left() == pytest.approx(-0.4 - 2.6 * pixel_x)


def test_the_map_image_draws_what_pyqtgraphs_image_item_drew(qapp):
    """The Jacobian map: one cell per J_ij, RGBA as given, the same pixels as ImageItem."""
    rgba = np.random.default_rng(5).integers(0, 256, (12, 12, 4)).astype(np.uint8)
    rgba[..., 3] = 255

    def ours(box):
        image = FastImage()
        image.set_colours(rgba)
        return image

    def theirs(box):
        image = pg.ImageItem(axisOrder="row-major")
        image.setImage(rgba, levels=None)
        return image

    image = ours(None)
    assert image.boundingRect().getRect() == (0, 0, 12, 12)
    assert np.array_equal(image.colours, rgba)
    inked, differ = _compare(ours, theirs, (0, 12), (0, 12))
    assert inked > 100_000 and differ == 0, (inked, differ)
    image.set_colours(rgba[:4, :6])  # a smaller block: a smaller rectangle
    assert image.boundingRect().getRect() == (0, 0, 6, 4)


def test_the_same_image_or_bars_again_ask_for_no_repaint(qapp):
    """A saturated row's J ≈ 0 and its weights repeat exactly, frame after frame: a frame
    that changes no pixel repaints nothing, and any change does repaint."""
    from PySide6.QtWidgets import QApplication, QGraphicsScene

    scene = QGraphicsScene()
    changes = []
    scene.changed.connect(changes.append)
    image, bars = FastImage(), Bars(pg.ViewBox())
    scene.addItem(image)
    scene.addItem(bars)
    rgba = np.full((12, 12, 4), 255, np.uint8)
    heights = np.array([0.7, 0.2, 0.1])
    pen = pg.mkPen("k", width=1.2)

    def repainted(change) -> bool:
        QApplication.processEvents()  # whatever an earlier change still has to report
        changes.clear()
        change()
        QApplication.processEvents()
        return bool(changes)

    assert repainted(lambda: image.set_colours(rgba))
    assert not repainted(lambda: image.set_colours(rgba.copy()))
    other = rgba.copy()
    other[3, 4, 0] = 254
    assert repainted(lambda: image.set_colours(other))
    assert np.array_equal(image.colours, other)
    assert repainted(lambda: bars.set_bars(heights, "r", pen))
    assert not repainted(lambda: bars.set_bars(heights.copy(), "r", pg.mkPen("k", width=1.2)))
    assert repainted(lambda: bars.set_bars(heights, "b", pen))  # a new colour
    assert repainted(lambda: bars.set_bars(heights + [0, 1e-12, 0], "b", pen))
    assert bars.heights[1] == 0.2 + 1e-12
