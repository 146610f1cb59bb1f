"""Render the *Say it* pictures of the practice page (offscreen, no display needed).

    python docs/practice_screenshots.py [--lang de]

writes docs/practice/<lang>-rubric.png (a rehearsal just ended: the rubric with the links a
typed answer names ticked, the rating, the model answer), docs/practice/<lang>-rated.png
(rated: what was left out, when it comes back, the case in the live panels) and
docs/practice/<lang>-derivation.png (a derivation with one step wrong, confirmed by the
model), docs/practice/<lang>-interview.png (a mock interview's summary) and
docs/practice/<lang>-bug.png (a bug card answered with a tempting line: why not that one, the
code as a diff, the measured downstream effect), at 1024×768 in presentation mode, as a
projector or a small laptop shows them.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqrtdk_gui.gui.launch.bootstrap import application  # noqa: E402

TYPED = {"en": "q·k is a sum of d_k products, so its variance grows like d_k and the spread like sqrt(d_k). "
               "The softmax saturates and the gradient vanishes.",
         "de": "q·k ist eine Summe aus d_k Produkten, die Varianz wächst mit d_k, die Streuung wie √d_k. "
               "Der Softmax sättigt, und der Gradient verschwindet.",
         "es": "q·k es una suma de d_k productos: la varianza crece con d_k y la dispersión como √d_k. "
               "El softmax se satura y el gradiente se desvanece.",
         "zh_CN": "q·k 是 d_k 个乘积之和，方差随 d_k 增长，标准差按 √d_k 增长。softmax 饱和，梯度消失。"}


def pictures(lang: str, folder: Path) -> list[Path]:
    from PySide6.QtWidgets import QApplication

    from sqrtdk_gui.gui.export.view import save_image
    from sqrtdk_gui.gui.launch import translations
    from sqrtdk_gui.gui.window.main_window import MainWindow

    translations.install(lang)
    window = MainWindow(threaded=False)
    window.resize(1024, 768)
    window.show()
    window.presentation.enter(full_screen=False)
    window.actions.practice.trigger()
    page = window.practice.page
    page.presenter.open("say_chain")
    page.rehearsal.start()
    page.rehearsal.typed.setPlainText(TYPED[lang])
    page.rehearsal.done()
    QApplication.processEvents()
    folder.mkdir(parents=True, exist_ok=True)
    rubric, rated = folder / f"{lang}-rubric.png", folder / f"{lang}-rated.png"
    save_image(window.grab(), str(rubric))
    page.rehearsal.rate(3)
    window.render_ready()
    save_image(window.grab(), str(rated))
    page.presenter.open("derive_variance")
    for answer in ("1", "16", "8"):  # the second step takes the σs for the variances
        page.presenter.commit_number(answer)
    page.presenter.commit_choice(0)
    window.render_ready()
    derivation = folder / f"{lang}-derivation.png"
    save_image(window.grab(), str(derivation))
    interview = folder / f"{lang}-interview.png"
    save_image(_interview(window), str(interview))
    bug = folder / f"{lang}-bug.png"
    save_image(_bug_card(window), str(bug))
    window.presentation.leave()
    window.close()
    return [rubric, rated, derivation, interview, bug]


def _bug_card(window):
    """The twice-applied scale answered with the pre-scaled query's line, the reveal scrolled
    to why that line is not the one, the diff and the measurements."""
    from PySide6.QtGui import QTextDocument

    from sqrtdk_gui.core.practice.why import why_not

    page = window.practice.page
    page.presenter.open("bug_twice")
    page.presenter.commit_choice(10)
    window.render_ready()
    page.presenter.wait_for_spread()
    reveal = page.reveal
    why = why_not(page.presenter.current, 10)[:30]  # the paragraph saying why not that line
    found = reveal.document().find(why, 0, QTextDocument.FindFlag(0))
    block = reveal.document().documentLayout().blockBoundingRect(found.block())
    reveal.verticalScrollBar().setValue(int(block.top()))
    return window.grab()


def _interview(window):
    """A mock interview with the Jacobian left out, a wrong answer and a skip: its summary."""
    presenter = window.practice.page.presenter
    presenter.start_interview()
    presenter.finish_rehearsal("", 84.0)
    presenter.rate_rehearsal([0, 1, 2, 3, 5, 6, 7], 3)
    presenter.next()
    presenter.commit_choice(0)  # the Jacobian "about the identity": wrong
    presenter.next()
    for answer in (0, "0.21", "-0.14", "0", 0):  # then derived, every step right
        presenter.commit_choice(answer) if isinstance(answer, int) else presenter.commit_number(answer)
    for choice in (1, None, None, 0):  # QK-norm right; temperature skipped; its rehearsal; overflow right
        presenter.next()
        if presenter.current.kind == "say":
            presenter.finish_rehearsal("", 41.0)
            presenter.rate_rehearsal([0, 1, 2], 3)
        elif choice is not None:
            presenter.commit_choice(choice)
    presenter.next()
    window.render_ready()
    return window.grab()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", default="en", choices=sorted(TYPED))
    args = parser.parse_args(argv)
    application()
    for path in pictures(args.lang, ROOT / "docs" / "practice"):
        print(path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
