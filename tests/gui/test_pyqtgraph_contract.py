"""What the drawing layer (``gui/plotting``) relies on inside pyqtgraph still exists.

The fast path subclasses pyqtgraph items and overrides methods that are not public API; a
new pyqtgraph release may rename them, and the override would then silently never run (the
frame would get slower, not fail). These checks fail first. Only ``gui/plotting`` may touch
pyqtgraph's internals (``tests/test_layers.py`` checks the rest of the package).
"""

from __future__ import annotations

import inspect

import pyqtgraph as pg
from pyqtgraph.Qt import internals
from PySide6.QtCore import QRectF


def _parameters(function) -> list[str]:
    return list(inspect.signature(function).parameters)


def test_the_axis_draws_through_draw_picture_and_drops_its_picture_by_assignment():
    # RememberingAxis keeps drawings per range by intercepting ``self.picture = None`` and
    # replays them through ``drawPicture``.
    assert _parameters(pg.AxisItem.drawPicture) == ["self", "p", "axisSpec", "tickSpecs", "textSpecs"]
    source = inspect.getsource(pg.AxisItem)
    assert "self.picture = None" in source and "self.picture" in inspect.getsource(pg.AxisItem.paint)
    for name in ("linkedViewChanged", "resizeEvent", "setRange", "boundingRect", "_updateLabel", "tickStrings"):
        assert callable(getattr(pg.AxisItem, name)), name
    # A label that does not fit its axis is scaled: pyqtgraph places it from its bounding rectangle.
    assert "self.label.setPos" in inspect.getsource(pg.AxisItem.resizeEvent)


def test_the_view_box_applies_ranges_in_update_view_range():
    assert _parameters(pg.ViewBox.updateViewRange)[:3] == ["self", "forceX", "forceY"]
    assert callable(pg.ViewBox.updateMatrix) and callable(pg.ViewBox.viewPixelSize)


def test_primitive_array_holds_rectangles_as_bar_graphs_draw_them():
    rects = internals.PrimitiveArray(QRectF, 4)
    rects.resize(3)
    array = rects.ndarray()
    assert array.shape == (3, 4)
    array[:] = [[0, 0, 1, 2], [1, 0, 1, 3], [2, 0, 1, 4]]
    first, count = rects.drawargs()  # what QPainter.drawRects takes: the first rectangle, a count
    assert isinstance(first, QRectF) and count == 3 and first.height() == 2


def test_scatter_and_data_items_keep_the_hooks_the_fast_items_override():
    for name in ("boundingRect", "prepareGeometryChange", "invalidate"):
        assert callable(getattr(pg.ScatterPlotItem, name)), name
    assert callable(pg.PlotDataItem.setData)
