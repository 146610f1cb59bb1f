"""Pictures of the window in every language: a lesson step in presentation mode at 1024×768
and the desktop window at 1920×1080, offscreen:

    python docs/language_screenshots.py [FOLDER]      # default: docs/languages/

Each picture is what a class sees in that language: the step's question revealed, its
figures with the language's decimal mark. ``--lang pseudo`` pictures (every text bracketed
and 40 % longer) are written too, for translators and reviewers.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqrtdk_gui.core.i18n import LANGUAGES, PSEUDO  # noqa: E402
from sqrtdk_gui.gui.launch.bootstrap import application  # noqa: E402

SHOTS = (((1024, 768), True, 2), ((1920, 1080), False, 3))  # size, presentation mode, step


def pictures(lang: str, folder: Path) -> list[Path]:
    from sqrtdk_gui.gui.export.view import save_image
    from sqrtdk_gui.gui.launch import translations
    from sqrtdk_gui.gui.window.main_window import MainWindow

    translations.install(lang)
    written = []
    for size, presenting, step in SHOTS:
        window = MainWindow(threaded=False)
        window.resize(*size)
        window.show()
        if presenting:
            window.presentation.enter(full_screen=False)
        window.lesson.go_to(step, animate=False)
        window.lesson.reveal(animate=False)
        window.render_ready()
        path = folder / f"{lang}-{size[0]}x{size[1]}{'-presentation' if presenting else ''}-step{step}.png"
        save_image(window.grab(), str(path))
        written.append(path)
        if presenting:
            window.presentation.leave()
        window.close()
        window.deleteLater()
    return written


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else Path(__file__).resolve().parent / "languages"
    folder.mkdir(parents=True, exist_ok=True)
    app = application()
    for lang in (*LANGUAGES, PSEUDO):
        for path in pictures(lang, folder):
            print(path)
        app.processEvents()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
