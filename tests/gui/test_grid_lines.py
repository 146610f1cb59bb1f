"""grid_lines: vertical grid lines tiled from one pixel row are Qt's lines, pixel for pixel."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen, QPicture

from sqrtdk_gui.gui.plotting.grid_lines import draw_vertical_lines, stretchable
from sqrtdk_gui.gui.plotting.plot_items import add_plot
from sqrtdk_gui.gui.style import Style


def _played(draw, dx: float, dy: float) -> np.ndarray:
    """Record ``draw(painter)`` in a QPicture, as an axis does, and play it shifted by (dx, dy)."""
    picture = QPicture()
    painter = QPainter(picture)
    draw(painter)
    painter.end()
    image = QImage(320, 240, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.translate(dx, dy)
    picture.play(painter)
    painter.end()
    return np.frombuffer(image.constBits(), np.uint8).reshape(240, 320, 4).copy()


@pytest.mark.parametrize("width", [1.2, 1.5, 1.8, 2.4, 3.0])
def test_tiled_lines_cover_qts_pixels_at_any_offset(qapp, monkeypatch, width):
    from sqrtdk_gui.gui.plotting import grid_lines

    probes = []
    play = grid_lines._play
    monkeypatch.setattr(grid_lines, "_play", lambda *args: (probes.append(1), play(*args)))
    rng = np.random.default_rng(int(width * 10))
    for trial in range(12):
        xs = np.arange(14) * 20.0 + rng.uniform(2, 20)
        if trial % 3 == 2:  # two lines that may share a column: drawn as Qt's lines
            xs[5] = xs[4] + 0.7
        probes.clear()
        y0, y1 = rng.uniform(-30, 10), rng.uniform(150, 200)
        lines = []
        for i, x in enumerate(xs):
            pen = QPen(QColor(20, 30, 40, (45, 22, 9)[i % 3]), width)
            pen.setCosmetic(True)
            pen.setCapStyle((Qt.PenCapStyle.SquareCap, Qt.PenCapStyle.FlatCap)[trial % 2])
            lines.append((pen, QPointF(x, y0), QPointF(x, y1)))
        assert all(stretchable(*line) for line in lines)
        dx, dy = rng.integers(0, 6) + rng.uniform(0, 1), rng.integers(0, 6) + rng.uniform(0, 1)

        def qt_lines(p):
            for pen, a, b in lines:
                p.setPen(pen)
                p.drawLine(a, b)

        theirs = _played(qt_lines, dx, dy)
        ours = _played(lambda p: draw_vertical_lines(p, lines, (dx % 1.0, dy % 1.0)), dx, dy)
        assert (theirs[..., 3] > 0).sum() > 1000
        assert np.array_equal(ours, theirs)
        assert bool(probes) == (trial % 3 != 2)  # tiled, unless lines may share a column
    # lines over other rows (another end, width or cap) are another row, tiled in turn
    assert len(_groups(width)) == 3


def _groups(width: float) -> list:
    from sqrtdk_gui.gui.plotting import grid_lines

    seen = []
    original = grid_lines._draw_group
    grid_lines._draw_group = lambda painter, group, offset: seen.append(len(group))
    try:
        pens = [QPen(QColor("black"), w) for w in (width, width, width + 0.5, width)]
        pens[3].setCapStyle(Qt.PenCapStyle.FlatCap)
        lines = [(pen, QPointF(10.0 * i, 0), QPointF(10.0 * i, 50)) for i, pen in enumerate(pens)]
        draw_vertical_lines(QPainter(), lines, (0.0, 0.0))
    finally:
        grid_lines._draw_group = original
    return seen


def test_only_vertical_solid_lines_wider_than_a_pixel_are_tiled(qapp):
    a, b = QPointF(3, 0), QPointF(3, 100)
    assert stretchable(QPen(QColor("black"), 1.2), a, b)
    assert not stretchable(QPen(QColor("black"), 1.0), a, b)  # Qt's thin-line path
    assert not stretchable(QPen(QColor("black"), 1.2), a, QPointF(4, 100))
    dashed = QPen(QColor("black"), 1.2)
    dashed.setStyle(Qt.PenStyle.DashLine)
    assert not stretchable(dashed, a, b)
    rounded = QPen(QColor("black"), 5.0)  # pyqtgraph's pens over 4 px: the end rows are narrower
    rounded.setCapStyle(Qt.PenCapStyle.RoundCap)
    assert not stretchable(rounded, a, b)


def _plot_image(axes: str, size, scale: float = 1.0) -> np.ndarray:
    """A styled plot with a grid, its axes pyqtgraph's or the program's, rendered."""
    canvas = pg.GraphicsLayoutWidget()
    canvas.resize(*size)
    plot = add_plot(canvas) if axes == "ours" else canvas.addPlot()
    Style().style_plot(plot, left="density", bottom="logit z")
    plot.setXRange(-37.5, 37.5, padding=0)
    plot.setYRange(0, 0.061, padding=0)
    canvas.show()
    pg.QtWidgets.QApplication.processEvents()
    image = QImage(round(size[0] * scale), round(size[1] * scale), QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.scale(scale, scale)  # 2: as a PNG export at twice the size
    canvas.render(painter)
    painter.end()
    canvas.close()
    return np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.width(), 4).copy()


@pytest.mark.parametrize("size, scale", [((523, 341), 1.0), ((611, 287), 1.0), ((523, 341), 2.0)])
def test_an_axis_draws_its_grid_as_pyqtgraphs_axis_does(qapp, size, scale):
    """At odd sizes (the axes sit at fractions of a pixel) and on a scaled painter (an
    export: pyqtgraph's own lines, whose cosmetic width does not scale)."""
    ours, theirs = _plot_image("ours", size, scale), _plot_image("pyqtgraph", size, scale)
    assert (np.abs(ours.astype(int) - 255) > 8).any(axis=2).sum() > 2000  # a grid was drawn
    assert np.array_equal(ours, theirs)
