"""Practice mode: interview questions and spot-the-bug cards (page = view, presenter = state)."""

from sqrtdk_gui.gui.practice.page import PracticePage
from sqrtdk_gui.gui.practice.presenter import PracticePresenter

__all__ = ["PracticePage", "PracticePresenter"]
