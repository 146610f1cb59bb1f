"""Render the training-lab screenshots of the user guide (offscreen, no display needed).

    QT_QPA_PLATFORM=offscreen python docs/lab_screenshots.py

writes docs/training_lab.png (1920x1080, normal zoom) and docs/training_lab_presentation.png
(1280x720 in presentation mode: the projector's type size, the tables' verdict lines). Both show a
learning-rate sweep of raw logits, ÷√d_k and QK-norm at d_k 256 over seeds 0-4 (SGD, 400
steps) and, below it, the curves over training at lr 5.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PySide6.QtWidgets import QApplication  # noqa: E402

import sqrtdk_gui  # noqa: E402,F401  (pins BLAS to one thread before numpy loads)
from sqrtdk_gui.gui.window.main_window import MainWindow  # noqa: E402

SHOTS = (("training_lab.png", 1920, 1080, False),
         ("training_lab_presentation.png", 1280, 720, True))


def render(app: QApplication, name: str, width: int, height: int, present: bool) -> float:
    window = MainWindow(threaded=False)
    window.resize(width, height)
    window.show()
    window.tabs.setCurrentIndex(1)
    page = window.lab_page
    if present:  # presentation mode, in the window's size (the projector's screen)
        window.presentation.enter(full_screen=False)
    app.processEvents()
    page.controls.set_values(mode="sweep", d_k=256, optimizer="sgd", steps=400, n_seeds=5,
                             qk_norm=True, layers=1, learn_v=False)
    started = time.perf_counter()
    page.run_button.click()
    while page.runner.is_running:
        app.processEvents()
        time.sleep(0.02)
    for _ in range(10):
        app.processEvents()
        time.sleep(0.02)
    window.grab().save(str(ROOT / "docs" / name))
    window.close()
    window.deleteLater()
    app.processEvents()
    return time.perf_counter() - started


def main() -> int:
    app = QApplication.instance() or QApplication([])
    for name, width, height, present in SHOTS:
        seconds = render(app, name, width, height, present)
        print(f"docs/{name}: {width}x{height}, sweep took {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
