"""Qt's own graphics items for what moves or changes on every frame of a slider drag.

pyqtgraph's items answer Qt's paint and bounding-rect calls in Python, several times a
frame each; these draw from what Qt keeps (a line, paths, an array of rectangles), with
bounding rectangles padded by pixels rather than by data units. The curves and bars draw
the pixels of the pyqtgraph items they replace (tests/gui/test_fast_items.py). Coordinates are
the view box's.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import pyqtgraph as pg
from pyqtgraph.Qt import internals
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QImage, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsEllipseItem, QGraphicsItem, QGraphicsLineItem, QStyleOptionGraphicsItem, QWidget

if TYPE_CHECKING:
    from numpy.typing import ArrayLike


def _pixel_size(box: pg.ViewBox) -> tuple[float, float]:
    """Data units per pixel along x and y; (0, 0) until the view box is on a screen (its
    first resize changes the transform, and the items refit then).

    Remembered until the view box's transform changes: pyqtgraph works it out in Python
    (≈ 7 µs), and a frame refits about ten items on four view boxes.
    """
    size = getattr(box, "_fast_pixel_size", None)
    if size is None:
        if box.pixelVectors()[0] is None:
            return 0.0, 0.0
        size = box._fast_pixel_size = tuple(box.viewPixelSize())
    return size


def _forget_pixel_size(box: pg.ViewBox) -> None:
    box._fast_pixel_size = None


class _PaddedByPixels:
    """Mixin for a QGraphicsItem: its bounding rectangle is its shape's data rectangle grown
    by half the pen's width and two pixels (antialiasing, rounding), in the view box's data
    units. Qt's own items pad by half the width in data units: a 2.5 px pen on a log-d_k axis
    became two decades, on a 0–0.7 weight axis most of the plot, and that much was repainted.

    ``refit()`` after the shape or the pen changes; a change of the view box's transform
    refits by itself.
    """

    def _follow(self, view_box: pg.ViewBox) -> None:
        self._box = view_box
        self._bounds = QRectF()
        if not hasattr(view_box, "_fast_pixel_size"):
            # Connected before any item's refit: Qt calls slots in the order connected.
            view_box._fast_pixel_size = None
            view_box.sigTransformChanged.connect(_forget_pixel_size)
        view_box.sigTransformChanged.connect(self.refit)

    def _extent(self) -> tuple[QRectF, float]:
        """The shape's rectangle in data units, and the pen's width in pixels."""
        raise NotImplementedError

    def refit(self, *_args: object) -> None:
        rect, pen_width = self._extent()
        px, py = _pixel_size(self._box)
        pad = pen_width / 2 + 2.0
        bounds = rect.adjusted(-pad * px, -pad * py, pad * px, pad * py)
        if bounds != self._bounds:
            cast(QGraphicsItem, self).prepareGeometryChange()  # the item this is mixed into
            self._bounds = bounds

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt API
        return self._bounds


class PixelLine(_PaddedByPixels, QGraphicsLineItem):
    """A line whose bounding rectangle pads its (cosmetic) pen by pixels, not by data units.

    Qt's padding in data units made each step of the d_k marker repaint two 300-pixel-wide
    blocks of its plot (≈ 0.2 ms a plot and frame) instead of two strips.
    """

    def __init__(self, view_box: pg.ViewBox) -> None:
        super().__init__()
        self._follow(view_box)

    def setLine(self, *args: Any) -> None:  # noqa: N802 - Qt API
        super().setLine(*args)
        self.refit()

    def setPen(self, pen: QPen | Qt.PenStyle | QColor) -> None:  # noqa: N802 - Qt API
        super().setPen(pen)
        self.refit()

    def _extent(self) -> tuple[QRectF, float]:
        line = self.line()
        return QRectF(line.p1(), line.p2()).normalized(), self.pen().widthF()


class FastCurve(_PaddedByPixels, QGraphicsItem):
    """A curve, or a histogram's filled steps, that changes every frame: drawn by Qt from paths.

    pyqtgraph's PlotCurveItem spends ≈ 50 µs of Python on each new array (checks, bounds,
    signals) and again on each paint (fill paths in chunks, options); the histogram's three
    curves change on every frame of a drag. Here a new array builds the paths once
    (``pg.arrayToQPath``), and a paint is three QPainter calls. Steps are drawn as pyqtgraph
    draws ``stepMode="center"`` with ``fillLevel``: from the baseline up, across each bin and
    down again, filled to the baseline. The bounding rectangle pads the pen by pixels.
    """

    def __init__(self, view_box: pg.ViewBox, steps: bool = False, antialias: bool = True) -> None:
        super().__init__()
        self._box = view_box
        self._steps = steps
        self._antialias = antialias
        self._pen, self._brush = QPen(Qt.PenStyle.NoPen), QBrush(Qt.BrushStyle.NoBrush)
        self._path = self._fill = QPainterPath()
        self.xData, self.yData = np.zeros(0), np.zeros(0)
        self._follow(view_box)

    def setData(self, x: ArrayLike, y: ArrayLike) -> None:  # noqa: N802 - pyqtgraph's name
        """``x``, ``y`` of a curve; for steps, the n + 1 bin edges and the n heights."""
        self.xData, self.yData = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
        if self._steps:
            px = np.repeat(self.xData, 2)
            py = np.zeros(px.size)
            py[1:-1] = np.repeat(self.yData, 2)  # 0 at both ends: up from the baseline, down to it
        else:
            px, py = self.xData, self.yData
        self._path = pg.arrayToQPath(px, py) if px.size else QPainterPath()
        if self._steps:
            self._fill = QPainterPath(self._path)
            self._fill.closeSubpath()  # back along the baseline
        self.refit()
        self.update()

    def getData(self) -> tuple[np.ndarray, np.ndarray]:  # noqa: N802 - pyqtgraph's name
        return self.xData, self.yData

    def outline(self) -> QPainterPath:
        """The path the pen draws (for steps: from the baseline up, across, and down again)."""
        return QPainterPath(self._path)

    def setPen(self, pen: QPen) -> None:  # noqa: N802 - Qt's name
        self._pen = QPen(pen)
        if (not self._antialias and pen.style() == Qt.PenStyle.SolidLine and pen.widthF() > 1.0
                and pen.color().alphaF() == 1.0):
            # pyqtgraph draws such a pen as separate square-capped segments: square corners
            self._pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
        self.refit()
        self.update()

    def pen(self) -> QPen:
        return QPen(self._pen)

    def setBrush(self, brush: object) -> None:  # noqa: N802 - Qt's name; what pg.mkBrush takes
        self._brush = pg.mkBrush(brush)
        self.update()

    def brush(self) -> QBrush:
        return QBrush(self._brush)

    def _extent(self) -> tuple[QRectF, float]:
        return self._path.controlPointRect(), self._pen.widthF()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, self._antialias)
        if self._steps and self._brush.style() != Qt.BrushStyle.NoBrush:
            painter.fillPath(self._fill, self._brush)
        if self._pen.style() != Qt.PenStyle.NoPen:
            painter.setPen(self._pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPath(self._path)


class VerticalMarker:
    """A vertical line across a plot at one x, and dots on it, drawn by Qt's own items.

    pyqtgraph's InfiniteLine and ScatterPlotItem answer Qt's many bounding-rect and paint
    calls in Python: moving the d_k marker of three plots cost ≈ 1.5 ms of every frame of a
    d_k drag. Coordinates are the view's (log10 values on a log axis); the line spans the
    view's y range at the time it is placed, which these plots keep fixed.
    """

    Z = 20  # above the curves and bands

    def __init__(self, plot: pg.PlotItem) -> None:
        self.plot = plot
        self.line = PixelLine(plot.getViewBox())
        self.line.setZValue(self.Z)
        plot.addItem(self.line, ignoreBounds=True)
        self.dots: list[QGraphicsEllipseItem] = []
        self._diameter, self._dot_pen = 10.0, QPen()
        self._brushes: dict[str, QBrush] = {}

    def set_pen(self, pen: QPen) -> None:
        self.line.setPen(pen)

    def pen(self) -> QPen:
        return self.line.pen()

    def set_dot_style(self, diameter: float, pen: QPen) -> None:
        self._diameter, self._dot_pen = diameter, pen
        for dot in self.dots:
            self._shape(dot)

    def _shape(self, dot: QGraphicsEllipseItem) -> None:
        r = self._diameter / 2
        dot.setRect(-r, -r, 2 * r, 2 * r)
        dot.setPen(self._dot_pen)

    def _dot(self, i: int) -> QGraphicsEllipseItem:
        while len(self.dots) <= i:
            dot = QGraphicsEllipseItem()
            dot.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)  # pixels
            dot.setZValue(self.Z + 1)
            self._shape(dot)
            self.plot.addItem(dot, ignoreBounds=True)
            self.dots.append(dot)
        return self.dots[i]

    def place(self, x: float, dots: Sequence[tuple[float, str]] = ()) -> None:
        """Line at ``x``; one dot per (y, colour), in view coordinates."""
        y0, y1 = self.plot.getViewBox().viewRange()[1]
        self.line.setLine(x, y0, x, y1)
        for i, (y, colour) in enumerate(dots):
            dot = self._dot(i)
            brush = self._brushes.get(colour)
            if brush is None:
                brush = self._brushes[colour] = QBrush(QColor(colour))
            dot.setBrush(brush)
            dot.setPos(x, y)
            dot.setVisible(True)
        for dot in self.dots[len(dots):]:
            dot.setVisible(False)

    def dot_positions(self) -> list[tuple[float, float]]:
        """(x, y) of the dots shown, in view coordinates."""
        return [(d.pos().x(), d.pos().y()) for d in self.dots if d.isVisible()]


SNAP_MIN_PX = 4.0  # bars at least this wide are filled on whole pixels (not antialiased)


class Bars(_PaddedByPixels, QGraphicsItem):
    """Bars from 0 up to each height at x = 0, 1, 2, …, filled by Qt as rectangles, with one
    step line in the pen along their tops.

    pyqtgraph's BarGraphItem works out its rectangles, colours and bounding rectangle in
    Python on every change and paint (5 % of a d_k drag's frame for one row's 64 bars).
    Filled as BarGraphItem fills them, with one ``drawRects`` over a numpy-backed array (as
    one path they cost 6× more at 4K: Qt fills rectangles fast, paths not). The pen (its
    style tells raw logits, dashed, from ÷√d_k) runs once along the tops instead of around
    every bar: dashed outlines of 64 tall bars cost three times their fill and cover the
    colour of bars a few pixels wide, and bars 4 pixels or wider are filled on whole pixels,
    2.4 times faster than antialiased. The bounding rectangle pads the line by pixels. Add it
    with ``ignoreBounds=True``: the plot's range is set by the panel.
    """

    def __init__(self, view_box: pg.ViewBox, width: float = 0.8) -> None:
        super().__init__()
        self._pen, self._brush = QPen(Qt.PenStyle.NoPen), QBrush(Qt.BrushStyle.NoBrush)
        self._rects = internals.PrimitiveArray(QRectF, 4)  # what BarGraphItem draws from
        self.width = width
        self.heights = np.zeros(0)
        self._lines: tuple[tuple[float, float], list[QPolygonF]] | None = None  # the tops' polylines, and their scale
        self._follow(view_box)

    def set_bars(self, heights: np.ndarray, brush: Any, pen: QPen) -> None:  # brush: what pg.mkBrush takes
        heights = np.asarray(heights, dtype=np.float64)
        brush, pen = pg.mkBrush(brush), QPen(pen)
        if (heights.shape == self.heights.shape and np.array_equal(heights, self.heights)
                and brush == self._brush and pen == self._pen):
            return  # the same bars: no repaint (a saturated row's weights often repeat exactly)
        self.heights = heights
        self._rects.resize(self.heights.size)
        rects = self._rects.ndarray()  # x, y, width, height of each bar
        rects[:, 0] = np.arange(self.heights.size) - self.width / 2
        rects[:, 1] = 0.0
        rects[:, 2] = self.width
        rects[:, 3] = self.heights
        self._brush, self._pen = brush, pen
        self._lines = None
        self.refit()
        self.update()

    def rects(self) -> np.ndarray:
        """(x, y, width, height) of each bar drawn, in data units."""
        return cast(np.ndarray, self._rects.ndarray().copy())

    def pen(self) -> QPen:
        return QPen(self._pen)

    def _extent(self) -> tuple[QRectF, float]:
        if not self.heights.size:
            return QRectF(), self._pen.widthF()
        return (QRectF(-self.width / 2, min(0.0, float(self.heights.min())), self.heights.size,
                       float(np.abs(self.heights).max())), self._pen.widthF())

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        transform = painter.transform()
        snapped = self.snapped_at(abs(transform.m11()))
        painter.save()
        if snapped:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(self._brush)
        painter.drawRects(*self._rects.drawargs())
        painter.restore()
        if self._pen.style() != Qt.PenStyle.NoPen:
            scale = (abs(transform.m11()), abs(transform.m22()))
            if self._lines is None or self._lines[0] != scale:  # worked out once per data and scale
                self._lines = (scale, [pg.functions.arrayToQPolygonF(xs, ys) for xs, ys in self.tops(*scale)])
            painter.setPen(self._pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            for line in self._lines[1]:
                painter.drawPolyline(line)

    def snapped_at(self, pixels_per_bar: float) -> bool:
        """Whether bars ``pixels_per_bar`` apart on screen are filled on whole pixels: only
        narrower ones need antialiasing (snapped, bars under a pixel would vanish or double)."""
        return pixels_per_bar * self.width >= SNAP_MIN_PX

    def tops(self, pixels_per_bar: float, pixels_per_unit: float) -> list[tuple[np.ndarray, np.ndarray]]:
        """The line along the bars' tops, as (x, y) of one polyline per run of bars at least a
        pixel tall at ``pixels_per_unit`` (along the baseline it would hide the axis).

        Bars ``pixels_per_bar`` ≥ 2 apart: a step line across each bar's top, stepping midway
        between neighbours. Narrower bars: through the tallest of each group of bars at least
        two pixels wide, at the group's middle (a thousand steps, most under a pixel, would
        cost more than the bars' fill and draw a zigzag, not an edge).
        """
        tall = np.abs(self.heights) * pixels_per_unit >= 1.0
        edges = np.flatnonzero(np.diff(np.concatenate(([0], tall.view(np.int8), [0]))))
        group = 1 if pixels_per_bar >= 2.0 else math.ceil(2.0 / max(pixels_per_bar, 1e-3))
        lines = []
        for start, stop in zip(edges[::2], edges[1::2]):
            if group == 1:
                xs = np.repeat(np.arange(start, stop, dtype=np.float64), 2)
                xs[0::2] -= 0.5
                xs[1::2] += 0.5
                ys = np.repeat(self.heights[start:stop], 2)
            else:
                firsts = np.arange(start, stop, group)
                tallest = np.maximum.reduceat(self.heights[start:stop], firsts - start)
                middles = (firsts + np.minimum(firsts + group, stop) - 1) / 2.0
                xs = np.concatenate(([start], middles, [stop - 1]), dtype=np.float64)
                ys = np.concatenate((tallest[:1], tallest, tallest[-1:]))
            xs[0], xs[-1] = start - self.width / 2, stop - 1 + self.width / 2
            lines.append((xs, ys))
        return lines


class FastImage(QGraphicsItem):
    """An RGBA image drawn over the rectangle (0, 0)–(columns, rows), a pixel per cell.

    Drawn as pyqtgraph's ImageItem draws an RGBA uint8 image without levels (one
    ``drawImage`` over that rectangle), without its Python per change and per paint
    (≈ 0.15 ms a frame for the Jacobian map: checks, levels, a new QImage at each paint).
    """

    def __init__(self) -> None:
        super().__init__()
        self.qimage = QImage()
        self._rgba: np.ndarray = np.zeros((0, 0, 4), np.uint8)

    def set_colours(self, rgba: np.ndarray) -> None:
        """The image: rows × columns × 4 uint8 (red, green, blue, alpha)."""
        rgba = np.array(rgba, dtype=np.uint8, order="C")  # a copy: compared with the next one
        if rgba.shape == self._rgba.shape and np.array_equal(rgba, self._rgba):
            return  # the same pixels: nothing to repaint (a saturated row's J ≈ 0, frame after frame)
        rows, columns = rgba.shape[:2]
        if rgba.shape[:2] != self._rgba.shape[:2]:
            self.prepareGeometryChange()
        self._rgba = rgba
        # Converted once to the painter's own format: drawn scaled from RGBA8888, the 12 × 12
        # map cost 80 µs a paint (converted on the fly). The same pixels as ImageItem's in an
        # upright view; under an inverted axis Qt's blit rounds some cell edges the other way.
        self.qimage = QImage(rgba.data, columns, rows, 4 * columns, QImage.Format.Format_RGBA8888).convertToFormat(
            QImage.Format.Format_ARGB32_Premultiplied)
        self.update()

    @property
    def colours(self) -> np.ndarray:
        """The RGBA array shown (read-only view)."""
        view: np.ndarray = self._rgba.view()
        view.setflags(write=False)
        return view

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt API
        rows, columns = self._rgba.shape[:2]
        return QRectF(0.0, 0.0, columns, rows)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        if not self.qimage.isNull():
            painter.drawImage(self.boundingRect(), self.qimage)
