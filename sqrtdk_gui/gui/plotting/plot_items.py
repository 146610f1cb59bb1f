"""pyqtgraph items tuned for a plot that changes on every frame of a slider drag.

Each class here removes one piece of work that pyqtgraph does per frame and that the
profile of a drag showed (benchmarks/frame_latency.py); what they draw is unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QPainter, QPen, QPicture, QPixmapCache
from PySide6.QtWidgets import QGraphicsItem, QGraphicsView, QStyleOptionGraphicsItem, QWidget

from sqrtdk_gui.core.cache import BoundedCache
from sqrtdk_gui.core.i18n import localize_number
from sqrtdk_gui.gui.plotting.grid_lines import draw_vertical_lines, stretchable


class PromptViewBox(pg.ViewBox):  # type: ignore[misc]  # pyqtgraph ships no type information
    """A ViewBox that applies a new range to its items at once, not at its next paint.

    pyqtgraph defers the new transform to the paint; moving the items there marks them dirty
    again, so every axis change cost a second, whole repaint of the view on the next pass of
    the event loop (the frame after each range step of a temperature drag was ≈ 2–3 ms slower).
    """

    def updateViewRange(self, forceX: bool = False, forceY: bool = False) -> None:  # noqa: N802,N803
        super().updateViewRange(forceX, forceY)
        self.updateMatrix()  # a no-op unless the range (or size) changed


class RememberingAxis(pg.AxisItem):  # type: ignore[misc]  # pyqtgraph ships no type information
    """An AxisItem that keeps its drawing for the last few ranges it showed.

    A drag moves an axis back and forth between a handful of round ranges, and pyqtgraph
    works out the ticks and labels again at every change (≈ 0.4–0.6 ms of Python). A
    drawing is reused only for the same range, size and view geometry; anything else that
    makes it stale (font, pen, ticks, grid, style, a resize) forgets them all.

    It also keeps its bounding rectangle, which Qt asks for several times per repaint
    (pyqtgraph works it out in Python each time: 4 % of a frame for ten axes).

    Its vertical grid lines are tiled from one pixel row (``grid_lines``) where the painter
    maps a pixel to a pixel (the screen at a device pixel ratio of 1): the same pixels in a
    fraction of the time (a histogram's x axis at a new range draws in 0.4 ms where
    pyqtgraph's lines take 3.5 ms at 3840 × 2160). Scaled painters (exports, high-DPI screens)
    get pyqtgraph's lines, whose cosmetic width does not scale; the drawings are kept per pixel offset.
    """

    KEEP = 64

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._drawings: BoundedCache[tuple[object, ...], QPicture | None] = BoundedCache(self.KEEP)
        self._keep = False  # True while a ``picture = None`` leaves the other drawings valid
        self._picture: QPicture | None = None
        self._picture_offset: tuple[float, float] | None = None  # the device pixel offset the current drawing is for
        self._offset: tuple[float, float] | None = None  # while drawing: that offset (None: a scaled painter)
        self._bounds: QRectF | None = None
        super().__init__(*args, **kwargs)

    @property
    def picture(self) -> QPicture | None:
        return self._picture

    @picture.setter
    def picture(self, value: QPicture | None) -> None:
        # pyqtgraph sets ``picture = None`` wherever the drawing goes stale.
        if value is None:
            self._bounds = None
            if not self._keep:
                self._drawings.clear()
        self._picture = value

    def tickStrings(self, values: list[float], scale: float, spacing: float) -> list[str]:  # noqa: N802 - pyqtgraph API
        """pyqtgraph's labels with the decimal mark of the language spoken (0,5 in German)."""
        return [localize_number(text) for text in super().tickStrings(values, scale, spacing)]

    def setTicks(self, ticks: list[list[tuple[float, object]]] | None) -> None:  # noqa: N802 - pyqtgraph API
        """Labels chosen by the caller, in the decimal mark of the language spoken too."""
        if ticks is not None:
            ticks = [[(value, localize_number(str(label))) for value, label in level] for level in ticks]
        super().setTicks(ticks)

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt API
        if self._bounds is None:
            self._bounds = super().boundingRect()
        return QRectF(self._bounds)

    def resizeEvent(self, event: object = None) -> None:  # noqa: N802 - Qt API
        self._bounds = None
        super().resizeEvent(event)
        self._fit_label()

    def start_afresh(self) -> None:
        """Forget every drawing and the room the widest tick labels ever took (as pyqtgraph
        starts an axis): the next drawing depends on what it shows now only (slides)."""
        self.prepareGeometryChange()
        self._bounds = None
        self._drawings.clear()
        self.picture = None
        self.textWidth, self.textHeight = 30, 18  # pyqtgraph's AxisItem starts with these
        if self.orientation in ("left", "right"):
            self._updateWidth()
        else:
            self._updateHeight()

    def _updateLabel(self) -> None:  # noqa: N802 - pyqtgraph API
        super()._updateLabel()
        self.resizeEvent()  # place the new text (pyqtgraph places a label only on a resize) and fit it

    def _fit_label(self) -> None:
        """A label longer than its axis (a long word in German, a short plot) shrinks to fit,
        down to half its size, and stays centred on the axis."""
        label = self.label
        if label is None:
            return
        along = self.orientation in ("left", "right")
        length = self.size().height() if along else self.size().width()
        natural = label.boundingRect().width() - 2 * label.document().documentMargin()
        scale = 1.0 if length <= 0 or natural <= length else max(0.5, length / natural)
        if scale == label.scale() == 1.0:
            return
        label.setScale(scale)
        width = scale * label.boundingRect().width()
        pos = label.pos()
        if along:
            pos.setY(int(self.size().height() / 2 + width / 2))
        else:
            pos.setX(int(self.size().width() / 2 - width / 2))
        label.setPos(pos)

    def linkedViewChanged(self, view: Any, newRange: object = None) -> None:  # noqa: N802 - pyqtgraph API
        self._bounds = None  # the grid spans the view, which may have moved or resized
        super().linkedViewChanged(view, newRange)

    def _keeping(self, method: Callable[..., object], *args: object) -> None:
        self._keep = True
        try:
            method(*args)
        finally:
            self._keep = False

    def setRange(self, mn: float, mx: float) -> None:  # noqa: N802 - pyqtgraph API
        self._keeping(super().setRange, mn, mx)

    def _key(self) -> tuple[object, ...]:
        view = self.linkedView()
        box = None if view is None else view.mapRectToItem(self, view.boundingRect()).getRect()
        return tuple(self.range), self.size().toTuple(), box

    def paint(self, p: QPainter, opt: QStyleOptionGraphicsItem, widget: QWidget | None) -> None:
        t = p.deviceTransform()
        offset = None  # a scaled painter: pyqtgraph's drawing
        if not t.isScaling() and p.device().devicePixelRatioF() == 1.0:  # at most a shift
            offset = (round(t.dx() % 1.0, 9), round(t.dy() % 1.0, 9))
        if self._picture is None or offset != self._picture_offset:
            key = (offset, *self._key())
            self._picture, self._picture_offset = self._drawings.get(key), offset
            if self._picture is None:
                # Drawing re-fits the room for the labels (and says ``picture = None`` each
                # time); if that room really changes, the resize that follows forgets.
                self._offset = offset
                try:
                    self._keeping(super().paint, p, opt, widget)
                finally:
                    self._offset = None
                self._drawings.put(key, self._picture)
                return
        super().paint(p, opt, widget)

    def drawPicture(self, p: QPainter, axisSpec: tuple[QPen, QPointF, QPointF],  # noqa: N802,N803
                    tickSpecs: list[tuple[QPen, QPointF, QPointF]], textSpecs: list[Any]) -> None:
        if self._offset is None or not tickSpecs or not all(stretchable(*tick) for tick in tickSpecs):
            super().drawPicture(p, axisSpec, tickSpecs, textSpecs)
            return
        # pyqtgraph's order: the axis line, the ticks in turn, the text (drawn by pyqtgraph
        # after an axis line it is told has no pen, and no ticks).
        pen, start, stop = axisSpec
        p.setRenderHint(p.RenderHint.Antialiasing, False)
        p.setPen(pen)
        p.drawLine(start, stop)
        draw_vertical_lines(p, tickSpecs, self._offset)
        super().drawPicture(p, (QPen(Qt.PenStyle.NoPen), start, stop), [], textSpecs)


def make_canvas() -> pg.GraphicsLayoutWidget:
    """A GraphicsLayoutWidget that repaints the bounding rectangle of what changed.

    pyqtgraph's views repaint the exact region of the changes (MinimalViewportUpdate). A
    moving d_k marker and its dot make that region a dozen rectangles; Qt then clips every
    cached curve, band and axis it draws there to a complex region, which cost more than the
    few extra pixels of one rectangle: a marker step repaints in ≈ 70 µs instead of 140.
    """
    canvas = pg.GraphicsLayoutWidget()
    canvas.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.BoundingRectViewportUpdate)
    return canvas


def quiet_viewbox() -> pg.ViewBox:
    """A ViewBox without pyqtgraph's context menu: the plots are not meant to be edited in
    class, and building eleven menus cost a quarter of a second at start-up."""
    return PromptViewBox(enableMenu=False)


def add_plot(layout: pg.GraphicsLayout | pg.GraphicsLayoutWidget, **kwargs: Any) -> pg.PlotItem:
    """``layout.addPlot(**kwargs)`` with the view box and axes above."""
    axes = {name: RememberingAxis(name) for name in ("left", "bottom")}
    return layout.addPlot(viewBox=quiet_viewbox(), axisItems=axes, **kwargs)


class RememberingScatter(pg.ScatterPlotItem):  # type: ignore[misc]  # pyqtgraph ships no type information
    """A ScatterPlotItem that keeps its bounding rectangle until its data, symbols or view change.

    pyqtgraph works the rectangle out in Python on each of Qt's calls (≈ 10 µs, three calls
    per repaint): for the sweep curves' symbols, under a marker that moves every frame, that
    would be 3 % of a d_k drag's frame. pyqtgraph says ``prepareGeometryChange()`` when the data or
    the view's transform change and ``invalidate()`` when a symbol, size or pen does.
    """

    _bounds: QRectF | None = None

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt API
        if self._bounds is None:
            self._bounds = super().boundingRect()
        return QRectF(self._bounds)

    def prepareGeometryChange(self) -> None:  # noqa: N802 - Qt API
        self._bounds = None
        super().prepareGeometryChange()

    def invalidate(self) -> None:
        self._bounds = None
        super().invalidate()


class SweepSeries(pg.PlotDataItem):  # type: ignore[misc]  # pyqtgraph ships no type information
    """A PlotDataItem for a curve that rarely changes (a sweep over d_k), kept as a pixmap.

    A moving marker repaints the strip of the plot under it every frame; the curve and its
    symbols there are copied from Qt's cache instead of being drawn again by pyqtgraph's
    Python paint code, and the symbols' bounding rectangle is remembered.
    """

    scatter: pg.ScatterPlotItem  # pyqtgraph's at first, then a RememberingScatter

    def __init__(self) -> None:
        super().__init__()
        stock = self.scatter  # pyqtgraph builds its own; swapped before any data is set
        stock.setParentItem(None)
        self.scatter = RememberingScatter()
        self.scatter.setParentItem(self)
        self.scatter.setVisible(stock.isVisible())
        self.scatter.sigClicked.connect(self.scatterClicked)
        self.scatter.sigHovered.connect(self.sigPointsHovered)
        for part in (self.curve, self.scatter):
            part.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)


def add_sweep_series(plot: pg.PlotItem) -> SweepSeries:
    """A new, empty SweepSeries in ``plot`` (as ``plot.plot()`` adds a PlotDataItem)."""
    series = SweepSeries()
    plot.addItem(series)
    return series


def cache_text(item: pg.TextItem) -> None:
    """Draw a text label over a plot from a pixmap while its text and place are unchanged.

    Qt lays out and draws a text document on every repaint of what lies under it (the bars
    or the map change each frame): 2 % of a frame for two labels.
    """
    item.textItem.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)


def fit_pixmap_cache(width: int, height: int, device_pixel_ratio: float = 1.0) -> None:
    """Let Qt's pixmap cache hold two window-sized layers (never less than Qt's default).

    The axes (whose grid spans their plot) and the static curves are cached as pixmaps. At
    3840 × 2160 they outgrew Qt's default 10 MiB, which then evicted and redrew them every
    frame (a d_k drag's median frame 17 ms there, 10 ms with room for them).
    """
    need_kib = round(2 * 4 * width * height * device_pixel_ratio ** 2 / 1024)
    if need_kib > QPixmapCache.cacheLimit():
        QPixmapCache.setCacheLimit(need_kib)


def keep_step_ticks(plot: pg.PlotItem) -> None:
    """Label the x axis (training steps, 0 … N) at a round step that leaves room between the
    labels at the plot's width and tick font: a narrow plot on a small projector otherwise
    prints "100200300". Follows every resize and range change."""
    axis = plot.getAxis("bottom")

    def update(*_: object) -> None:
        lo, hi = plot.getViewBox().viewRange()[0]
        width = plot.getViewBox().width()
        if not width > 0 or not hi > lo:
            return
        from PySide6.QtGui import QFontMetrics

        font = axis.style.get("tickFont")
        metrics = QFontMetrics(font) if font is not None else QFontMetrics(axis.font())
        # Label centres at least 1.15 label widths apart: a gap of a few pixels at least.
        label = metrics.horizontalAdvance(f"{max(abs(lo), abs(hi)):.0f}") * 1.15
        raw = label * (hi - lo) / width  # the smallest step, in steps, that leaves that room
        step = next(m * 10 ** e for e in range(0, 7) for m in (1, 2, 5) if m * 10 ** e >= raw)
        first = int(max(lo, 0) // step + (max(lo, 0) % step > 0)) * step
        axis.setTicks([[(v, f"{v:g}") for v in range(first, int(hi) + 1, step)], []])

    plot.getViewBox().sigResized.connect(update)
    plot.getViewBox().sigXRangeChanged.connect(update)
    update()
