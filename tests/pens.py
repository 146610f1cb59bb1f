"""How a pen's line looks, for tests that compare line styles (imported by test modules)."""

from PySide6.QtCore import Qt


def line_look(pen) -> tuple:
    """(style, dash pattern): the app draws Qt's dashes as flat-capped custom patterns
    (``set_line_style``), so two dashed pens differ by their pattern, not by ``style()``."""
    solid = pen.style() in (Qt.PenStyle.SolidLine, Qt.PenStyle.NoPen)
    return pen.style(), () if solid else tuple(pen.dashPattern())
