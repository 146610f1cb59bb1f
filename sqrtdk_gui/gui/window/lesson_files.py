"""A teacher's lesson file in the window: File → New lesson from current, Open lesson, Close lesson.

The lesson open (a ``LessonPlan``) decides the pages the clicker walks and their order, the
parameters and questions of its pages, and which groups of controls are hidden or locked;
the presenter, the presenter view and the exported slides follow it. A file that cannot be
used gets a dialog with one sentence and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.i18n import _
from sqrtdk_gui.core.io import lesson_file
from sqrtdk_gui.core.lesson.plan import FULL, LessonPlan
from sqrtdk_gui.gui.lesson.presenter import LessonPresenter
from sqrtdk_gui.gui.window.controller import Controller
from sqrtdk_gui.gui.window.controls import ControlsPanel

__all__ = ["LessonFiles"]

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")


class LessonFiles:
    """The lesson open and the File menu's lesson commands.

    ``stop_autoplay()`` is called when a lesson locks d_k (autoplay would sweep it);
    ``forget_undo()`` when a lesson opens (undo would bring back what it locks);
    ``show_status(text)`` says what happened; ``suggested(name)`` is where dialogs start."""

    def __init__(self, parent: QWidget, presenter: LessonPresenter, controller: Controller,
                 controls: ControlsPanel, stop_autoplay: Callable[[], None], forget_undo: Callable[[], None],
                 show_status: Callable[[str], None], suggested: Callable[[str], str]) -> None:
        self._parent = parent
        self._presenter = presenter
        self._controller = controller
        self._controls = controls
        self._stop_autoplay = stop_autoplay
        self._forget_undo = forget_undo
        self._show_status = show_status
        self._suggested = suggested
        self.path: str | None = None  # the file the lesson open came from

    @property
    def plan(self) -> LessonPlan:
        return self._presenter.plan

    def apply(self, plan: LessonPlan, path: str | None = None,
              position: tuple[int, str | None, bool, bool] | None = None) -> None:
        """Follow ``plan``: its pages, its hidden and locked controls, from its introduction
        with the default parameters; or, given a ``position`` (step, scenario key, answer
        shown, closing page: a window rebuilt in another language), from there as it is."""
        presenter = self._presenter
        self.path = path
        presenter.set_plan(plan)
        self._controls.set_lesson_controls(plan.hide, plan.lock)
        self._controller.locked = plan.locked_fields
        if "d_k" in plan.locked_fields:
            self._stop_autoplay()
        if position is None:
            self._controller.replace_params(Params())
            presenter.restore(0, None)
            self._forget_undo()
        elif position[3]:
            presenter.close()
        else:
            presenter.restore(position[0], position[1], answered=position[2])
        self.enforce()

    def enforce(self) -> None:
        """Give the parameters the lesson locks the values the page on screen sets: after
        whatever sets a whole parameter set of its own (a preset, a state line, the defaults,
        undo, practice mode), they are the page's again."""
        locked = self._controller.locked
        if locked:
            values = self._presenter.page_values()
            self._controller.set_params(**{name: getattr(values, name) for name in locked})

    def position(self) -> tuple[int, str | None, bool, bool]:
        """Where the lesson is, for :meth:`apply` in a rebuilt window."""
        p = self._presenter
        return p.step, p.scenario.key if p.scenario else None, p.answer_shown, p.closing

    def open(self, path: str) -> LessonPlan:
        """Open the lesson file at ``path``; LessonError (nothing changes) if it cannot be used."""
        plan = lesson_file.load(path)
        self.apply(plan, path)
        self._show_status(translate("LessonFiles", "Opened lesson {path}: {count} pages").format(
            path=path, count=len(plan.pages)))
        return plan

    def close(self) -> None:
        """Back to the lesson as shipped, every control shown and free."""
        if self.plan.is_full and self.path is None:
            return
        self.apply(FULL)
        self._show_status(translate("LessonFiles", "Closed the lesson file: the whole lesson again"))

    def save_current(self, path: str) -> LessonPlan:
        """Write the lesson open, with the parameters on screen kept for the page on screen,
        to ``path`` (safe_io.IOFailure: the old file stays as it was)."""
        presenter = self._presenter
        page = None if presenter.closing else presenter.scenario or presenter.current()
        title = self.plan.title or Path(path).stem.replace("-", " ").replace("_", " ")  # cut to fit by the writer
        plan = lesson_file.from_current(self.plan, page, self._controller.params, title)
        lesson_file.save(plan, path)
        return plan

    # --- dialogs ---------------------------------------------------------------------------
    def open_dialog(self) -> None:
        path, _filter = QFileDialog.getOpenFileName(
            self._parent, translate("LessonFiles", "Open lesson"), self._suggested(""),
            translate("LessonFiles", "sqrtdk-gui lessons (*.json)"))
        if path:
            try:
                self.open(path)
            except lesson_file.LessonError as exc:
                QMessageBox.warning(self._parent, translate("LessonFiles", "Cannot open lesson"),
                                    translate("LessonFiles", "{name}: {reason}. Nothing was changed.")
                                    .format(name=Path(path).name, reason=_(str(exc))))

    def new_from_current_dialog(self) -> None:
        path, _filter = QFileDialog.getSaveFileName(
            self._parent, translate("LessonFiles", "New lesson from current"), self._suggested("my-lesson.json"),
            translate("LessonFiles", "sqrtdk-gui lessons (*.json)"))
        if not path:
            return
        try:
            plan = self.save_current(path)
        except OSError as exc:  # safe_io.IOFailure: one sentence naming the file
            QMessageBox.warning(self._parent, translate("LessonFiles", "Cannot save lesson"),
                                translate("LessonFiles", "{reason}. Nothing was changed.").format(reason=_(str(exc))))
            return
        self._show_status(translate("LessonFiles", "Saved lesson {path}: {count} pages; edit it in any text "
                                                   "editor, then File → Open lesson").format(
            path=path, count=len(plan.pages)))
