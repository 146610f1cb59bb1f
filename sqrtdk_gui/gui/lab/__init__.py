"""The training lab tab: train raw and ÷√d_k attention side by side (see lab_page.py)."""

from sqrtdk_gui.gui.lab.lab_page import LabPage

__all__ = ["LabPage"]
