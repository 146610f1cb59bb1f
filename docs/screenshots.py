"""Make the user guide's pictures of the command palette, the data view and the high-contrast
theme, each at 1920×1080 and at 1280×720 (the 720 line ones in presentation layout: larger
type, controls hidden), offscreen:

    python docs/screenshots.py [FOLDER]      # default: docs/
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtCore import QPoint  # noqa: E402
from PySide6.QtGui import QPainter  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from sqrtdk_gui.core.attention.params import Params  # noqa: E402
from sqrtdk_gui.gui.launch.bootstrap import application  # noqa: E402

SIZES = {"": (1920, 1080), "_720": (1280, 720)}


def _window(size, theme="light", **params):
    from sqrtdk_gui.gui.window.main_window import MainWindow
    from sqrtdk_gui.gui.window.presentation import presentation_zoom

    window = MainWindow(Params(**params), threaded=False, theme=theme)
    window.resize(*size)
    window.show()
    if size[1] <= 720:
        window.set_zoom(presentation_zoom(size[1]))
        window.set_controls_visible(False)
    window.render_ready()
    return window


def _save(pixmap, path: Path) -> None:
    from sqrtdk_gui.gui.export.view import save_image

    save_image(pixmap, str(path))
    print(f"wrote {path}")


def palette_shot(size, path: Path) -> None:
    window = _window(size, d_k=256, scaling="none")
    palette = window.show_command_palette()
    for ch in "stable soft":
        palette.field.insert(ch)
    QApplication.processEvents()
    shot = window.grab()
    painter = QPainter(shot)  # the palette is its own top-level window: paint it where it floats
    painter.drawPixmap(QPoint((shot.width() - palette.width()) // 2, 60), palette.grab())
    painter.end()
    _save(shot, path)
    palette.close()
    window.close()


def data_view_shot(size, path: Path) -> None:
    window = _window(size, d_k=512, scaling="none", keys=16)
    for name in ("weights", "gradient"):
        window.panels[name].set_numbers_shown(True)
    window.render_ready()
    QApplication.processEvents()
    view = window.panels["gradient"].data_view.tables[0]
    view.sortByColumn(2, view.horizontalHeader().sortIndicatorOrder().AscendingOrder)
    view.selectRow(0)
    QApplication.processEvents()
    _save(window.grab(), path)
    window.close()


def high_contrast_shot(size, path: Path) -> None:
    window = _window(size, theme="high-contrast", d_k=512, scaling="none")
    window.lesson.go_to(3, animate=False)
    window.lesson.reveal(animate=False)
    window.render_ready()
    _save(window.grab(), path)
    window.close()


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else Path(__file__).resolve().parent
    application()
    for suffix, size in SIZES.items():
        palette_shot(size, folder / f"command_palette{suffix}.png")
        data_view_shot(size, folder / f"data_view{suffix}.png")
        high_contrast_shot(size, folder / f"high_contrast{suffix}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
