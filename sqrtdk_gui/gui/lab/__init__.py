"""The training lab tab: raw vs ÷√d_k attention, swept over learning rates (see lab_page.py)."""

from sqrtdk_gui.gui.lab.lab_page import LabPage

__all__ = ["LabPage"]
