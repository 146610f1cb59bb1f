"""Render sqrtdk_gui/gui/assets/sqrtdk-gui.svg to the PNG sizes desktops look for.

    python packaging/render_icons.py          # (re)write resources/icons/hicolor/NxN/apps/*.png
    python packaging/render_icons.py --check  # exit 1 if a PNG is missing or differs visibly

The PNGs are committed: the .desktop file and the bundle's ``share/icons`` use them, and they
must come from the same SVG as the window icon (which Qt renders from the package data).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parents[1]
SVG = ROOT / "sqrtdk_gui" / "gui" / "assets" / "sqrtdk-gui.svg"
SIZES = (16, 32, 48, 64, 128, 256)
TOLERANCE = 8  # max per-channel difference (0-255) that --check accepts (renderer drift)


def png_path(size: int) -> Path:
    return ROOT / "resources" / "icons" / "hicolor" / f"{size}x{size}" / "apps" / "sqrtdk-gui.png"


def render(size: int):
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(str(SVG))
    if not renderer.isValid():
        raise SystemExit(f"cannot read {SVG}")
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter)
    painter.end()
    return image


def _max_difference(a, b) -> int:
    worst = 0
    for y in range(a.height()):
        for x in range(a.width()):
            pa, pb = a.pixelColor(x, y), b.pixelColor(x, y)
            worst = max(worst, abs(pa.red() - pb.red()), abs(pa.green() - pb.green()),
                        abs(pa.blue() - pb.blue()), abs(pa.alpha() - pb.alpha()))
    return worst


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare with the committed PNGs")
    args = parser.parse_args()
    from PySide6.QtGui import QGuiApplication, QImage

    app = QGuiApplication.instance() or QGuiApplication([sys.argv[0]])  # noqa: F841
    problems = []
    for size in SIZES:
        image, path = render(size), png_path(size)
        if args.check:
            committed = QImage(str(path))
            if committed.isNull():
                problems.append(f"{path.relative_to(ROOT)} is missing")
            elif committed.size() != image.size():
                problems.append(f"{path.relative_to(ROOT)} is {committed.width()}x{committed.height()}")
            else:
                diff = _max_difference(committed.convertToFormat(QImage.Format.Format_ARGB32), image)
                if diff > TOLERANCE:
                    problems.append(f"{path.relative_to(ROOT)} differs from the SVG (by {diff})")
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        if not image.save(str(path), "PNG"):
            raise SystemExit(f"could not write {path}")
        print(f"wrote {path.relative_to(ROOT)}")
    for line in problems:
        print(line)
    if problems:
        print("run: python packaging/render_icons.py")
        return 1
    if args.check:
        print("icons are current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
