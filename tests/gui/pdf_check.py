"""Reading back the PDFs the program writes (Qt's PDF writer), without a PDF library."""

from __future__ import annotations

import re

A4_POINTS = (595.0, 842.0)  # 210 × 297 mm, as Qt rounds it


def pdf_pages(data: bytes) -> list[tuple[float, float]]:
    """Each page's MediaBox (width, height in points), in order; asserts a whole PDF."""
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    pages = re.findall(rb"/Type /Page\b(?!s)", data)
    boxes = [(float(w), float(h)) for w, h in re.findall(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", data)]
    assert len(boxes) == len(pages)
    return boxes
