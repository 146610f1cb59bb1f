"""Pictures of a lecture on a projector: every step with its question open and then
revealed, the traps, follow-ups, σ dial, the closing page and the training lab, in
presentation mode at 1024×768 (and 1280×720, 1280×800 with --all), offscreen; and the
teacher's presenter view at 1280×800 beside step 3's answer; step 1's sweep as the
animation export writes it (step1-sweep.gif, 8 frames a second); and a teacher's own lesson
file (example-lesson.json) with its introduction and reworded step 2:

    python docs/lecture_screenshots.py [FOLDER] [--all] [--lang de]    # default: docs/lecture/

The window stands for the projector's screen (presentation mode without full screen). The
same lecture on a real X server with a window manager and real keys is a test
(tests/gui/test_xvfb.py::test_a_lecture_with_a_clicker_at_1024x768).
"""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqrtdk_gui.core.lesson.content import SCENARIOS, STEPS  # noqa: E402
from sqrtdk_gui.gui.launch.bootstrap import application  # noqa: E402


@contextmanager
def projected(size: tuple[int, int]):
    """A window in presentation mode at ``size`` (the projector's screen), deleted afterwards."""
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication

    from sqrtdk_gui.gui.window.main_window import MainWindow

    window = MainWindow(threaded=False)
    window.resize(*size)
    window.show()
    window.presentation.enter(full_screen=False)
    try:
        yield window
    finally:
        window.presentation.leave()
        window.close()
        # Deleted now, not by the interpreter's shutdown in whatever order (a crash there).
        window.deleteLater()
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def lecture(size: tuple[int, int], folder: Path, everything: bool) -> list[Path]:
    with projected(size) as window:
        return _lecture(window, size, folder, everything)


def _lecture(window, size: tuple[int, int], folder: Path, everything: bool) -> list[Path]:
    from PySide6.QtWidgets import QApplication

    from sqrtdk_gui.core import i18n
    from sqrtdk_gui.gui.export.view import save_image

    tag = f"{size[0]}x{size[1]}" if i18n.language() == "en" else f"{i18n.language()}-{size[0]}x{size[1]}"
    written = []

    def shot(name: str) -> None:
        window.render_ready()
        path = folder / f"{tag}-{name}.png"
        save_image(window.grab(), str(path))
        written.append(path)

    for step in STEPS:
        window.lesson.go_to(step.number, animate=False)
        shot(f"step{step.number}-question")
        window.lesson.reveal(animate=False)
        shot(f"step{step.number}-answer")
        if step.number == 3:  # the teacher's screen meanwhile
            view = window.presenter_view
            view.resize(1280, 800)
            view.show()
            QApplication.processEvents()
            path = folder / f"{tag}-presenter-view.png"
            save_image(view.grab(), str(path))
            written.append(path)
            view.hide()
        if step.number == 2:  # the pen: the saturated row's one key circled, as a teacher would
            window.render_ready()
            window.toggle_pen()
            _circle(window.ink, window.panels["weights"])
            shot("step2-pen")
            window.toggle_pen()
            window.ink.clear()
    for s in SCENARIOS if everything else SCENARIOS[:1]:
        window.lesson.choose_scenario(s.key)
        shot(f"{s.kind}-{s.key}")
    window.lesson.close()
    shot("closing")
    window.lesson.choose_scenario("sigma_dial")
    shot("sigma-dial")
    window.tabs.setCurrentIndex(1)
    window.lab_page.controls.set_values(mode="single", lr=5.0)
    shot("training-lab")
    return written


def _circle(ink, panel) -> None:
    """A stroke round the top of the largest weight's bar, and an arrow-like stroke to it,
    in window coordinates (what a mouse would draw)."""
    import math

    from PySide6.QtCore import QPointF

    plot = panel.plot
    top = plot.vb.mapViewToScene(QPointF(0, 1.0))
    centre = QPointF(panel.canvas.mapTo(ink.parentWidget(), panel.canvas.mapFromScene(top)))
    rx, ry = 40 * ink.width / 6, 28 * ink.width / 6
    ink.strokes.append([QPointF(centre.x() + rx * math.cos(t / 8), centre.y() + ry * math.sin(t / 8))
                        for t in range(52)])
    ink.strokes.append([QPointF(centre.x() + 3.2 * rx, centre.y() + 2.5 * ry), QPointF(centre.x() + 1.2 * rx,
                                                                                      centre.y() + 0.9 * ry)])
    ink.update()


def main(argv: list[str]) -> int:
    everything = "--all" in argv
    lang = argv[argv.index("--lang") + 1] if "--lang" in argv else "en"
    args = [a for a in argv if a not in ("--all", "--lang", lang)]
    folder = Path(args[0]) if args else Path(__file__).resolve().parent / "lecture"
    folder.mkdir(parents=True, exist_ok=True)
    application()
    from sqrtdk_gui.gui.launch import translations

    translations.install(lang)
    sizes = [(1024, 768)] + ([(1280, 720), (1280, 800)] if everything else [])
    for size in sizes:
        for path in lecture(size, folder, everything):
            print(f"wrote {path}")
    print(f"wrote {sweep(folder, lang)}")
    for path in own_lesson(folder, lang):
        print(f"wrote {path}")
    return 0


# A teacher's twenty-minute version: three steps, two traps, one follow-up on another sample,
# step 2's question in the teacher's words, the sample and "more parameters" out of sight,
# the temperature locked.
EXAMPLE_LESSON = {
    "title": "Attention scaling in 20 minutes",
    "pages": ["step:1",
              {"page": "step:2", "question": {
                  "en": "Logits as wide as step 1's: what share of the attention goes to the top key?",
                  "de": "Logits so breit wie in Schritt 1: Welcher Anteil der Aufmerksamkeit geht an den "
                        "obersten Key?"}},
              "step:4", "dmodel", "stable_softmax", {"page": "temperature", "params": {"seed": 7}}],
    "hide": ["sample", "more"], "lock": ["temperature"],
}


def own_lesson(folder: Path, lang: str) -> list[Path]:
    """The example lesson file (written by the app's own writer, English run only) and, in
    presentation mode at 1024×768, its introduction and its step 2 with the teacher's question."""
    import json

    from sqrtdk_gui.core.io import lesson_file
    from sqrtdk_gui.gui.export.view import save_image

    path = folder / "example-lesson.json"
    plan = lesson_file.from_json(json.dumps({"format": lesson_file.FORMAT, "version": lesson_file.VERSION,
                                             **EXAMPLE_LESSON}))
    written = []
    if lang == "en":
        lesson_file.save(plan, path)
        written.append(path)
    tag = "1024x768" if lang == "en" else f"{lang}-1024x768"
    with projected((1024, 768)) as window:
        window.lesson_files.apply(plan)
        for name in ("intro", "step2"):
            if name == "step2":
                window.lesson.go_to(2, animate=False)
            window.render_ready()
            shot = folder / f"{tag}-own-lesson-{name}.png"
            save_image(window.grab(), str(shot))
            written.append(shot)
    return written


def sweep(folder: Path, lang: str) -> Path:
    """Step 1's sweep as File → Export animation writes it (1024×768, 8 s, 8 frames a second)."""
    from sqrtdk_gui.core.lesson.clips import clip
    from sqrtdk_gui.gui.export.animation import export_animation
    from sqrtdk_gui.gui.window.main_window import MainWindow
    from sqrtdk_gui.gui.window.presentation import presentation_zoom

    size = (1024, 768)
    zoom = presentation_zoom(size[1])
    window = MainWindow(threaded=False, zoom=zoom)
    window.show()
    path = folder / ("step1-sweep.gif" if lang == "en" else f"step1-sweep-{lang}.gif")
    try:
        export_animation(window, str(path), clip("dk", window.controller.params, fps=8.0), size, zoom=zoom)
    finally:
        window.close()
    return path


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
