"""Vertical grid lines drawn as one pixel row tiled down, pixel for pixel as Qt's lines.

An axis draws each grid line across its plot. Qt fills a vertical wide line as a polygon,
one short span per pixel row, each blended on its own: ≈ 10–25 µs a line at 1920 × 1080 and
four times that at 3840 × 2160 (a histogram's x axis drawn again at a new range took 1 ms
and 3.5 ms, the slow frames of a drag). Every row of a set of vertical lines is the same, so
this has Qt draw the lines into a one-pixel-high row, and tiles that row over the rows the
lines cover: one blend per row. Which pixels a line covers depends on where it falls on the
device's pixel grid; the painter must map a pixel to a pixel, offset by a known fraction.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QImage, QPainter, QPen, QPicture, QPixmap


def stretchable(pen: QPen, a: QPointF, b: QPointF) -> bool:
    """Whether a line a–b in ``pen`` is the same in every pixel row it covers: vertical,
    solid, one colour, wider than a pixel (a pixel or less takes Qt's thin-line path), with
    square or flat ends (a round end's rows are narrower; pyqtgraph rounds pens over 4 px)."""
    return (a.x() == b.x() and pen.widthF() > 1.0 and pen.style() == Qt.PenStyle.SolidLine
            and pen.brush().style() == Qt.BrushStyle.SolidPattern
            and pen.capStyle() in (Qt.PenCapStyle.SquareCap, Qt.PenCapStyle.FlatCap))


def draw_vertical_lines(painter: QPainter, lines: Iterable[tuple[QPen, QPointF, QPointF]],
                        offset: tuple[float, float]) -> None:
    """Draw ``lines`` — (pen, a, b), each ``stretchable`` — in order and without
    antialiasing, for a painter whose device coordinates are these plus ``offset`` plus
    whole pixels. Lines over the same rows share one pixel row."""
    group: list[tuple[QPen, QPointF, QPointF]] = []
    for pen, a, b in lines:
        if group and not _same_rows(group[0], (pen, a, b)):
            _draw_group(painter, group, offset)
            group = []
        group.append((pen, a, b))
    if group:
        _draw_group(painter, group, offset)


def _same_rows(one: tuple[QPen, QPointF, QPointF], other: tuple[QPen, QPointF, QPointF]) -> bool:
    (pen, a, b), (pen2, a2, b2) = one, other
    return (a.y(), b.y(), pen.widthF(), pen.capStyle()) == (a2.y(), b2.y(), pen2.widthF(), pen2.capStyle())


def _covered(image: QImage) -> np.ndarray:
    """Alpha of each pixel of an ARGB32 image (rows × columns)."""
    bits = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine())
    return bits[:, 3:4 * image.width():4]  # little-endian ARGB32: alpha is the 4th byte


def _play(image: QImage, lines: Iterable[tuple[QPen, QPointF, QPointF]], dx: float, dy: float) -> None:
    """Draw ``lines`` into ``image`` shifted by (dx, dy) as the axis does: recorded in a
    QPicture, played (the pixels differ from drawing them directly: a line at x = 10.896,
    1.2 wide, covers one column drawn, two played)."""
    picture = QPicture()
    record = QPainter(picture)
    for pen, a, b in lines:
        record.setPen(pen)
        record.drawLine(a, b)
    record.end()
    draw = QPainter(image)
    draw.translate(dx, dy)
    picture.play(draw)
    draw.end()


def _draw_group(painter: QPainter, group: Sequence[tuple[QPen, QPointF, QPointF]], offset: tuple[float, float]) -> None:
    fx, fy = offset
    pen, a, b = group[0]
    reach = pen.widthF()  # how far a line's pixels can reach beyond its ends and sides
    xs = np.sort([a.x() for _, a, _ in group])
    if np.any(np.diff(xs) < reach + 1.0):
        # Lines that may share a column: blended into the row first, a shared pixel could
        # round one level off. Drawn as Qt's lines (grid lines are pixels apart).
        for pen, a, b in group:
            painter.setPen(pen)
            painter.drawLine(a, b)
        return
    # Qt decides a line's pixels from its whole geometry and its place on the pixel grid:
    # each probe below draws whole lines, shifted by whole pixels, into a small image.
    # The rows: the first line, into a few columns around it.
    top, bottom = sorted((a.y(), b.y()))
    base = math.floor(top + fy - reach) - 1  # the device row (less whole pixels) of row 0
    near = math.floor(a.x() + fx - reach) - 1
    probe = QImage(math.ceil(2 * reach) + 4, math.ceil(bottom - top + 2 * reach) + 4,
                   QImage.Format.Format_ARGB32_Premultiplied)
    probe.fill(Qt.GlobalColor.transparent)
    _play(probe, [(pen, a, b)], fx - near, fy - base)
    rows = np.flatnonzero(_covered(probe).any(axis=1))
    # The row: every line of the group, in order, into one row in the middle of those.
    left = math.floor(min(a.x() for _, a, _ in group) + fx - reach) - 1  # device column of 0
    width = math.ceil(max(a.x() for _, a, _ in group) + fx + reach) + 2 - left
    if rows.size == 0 or width <= 0:
        return
    first, last = int(rows[0]), int(rows[-1])
    middle = base + (first + last) // 2
    row = QImage(width, 1, QImage.Format.Format_ARGB32_Premultiplied)
    row.fill(Qt.GlobalColor.transparent)
    _play(row, group, fx - left, fy - middle)
    painter.drawTiledPixmap(QRectF(left - fx, base + first - fy, width, last - first + 1), QPixmap.fromImage(row))
