"""The training lab tab: raw vs ÷√d_k attention, swept over learning rates.

lab_page.py is the view (layout), presenter.py runs it and holds a run's state, worker.py
trains in a worker thread; controls.py, plots.py and sweep_plots.py are the view's widgets.
"""

from sqrtdk_gui.gui.lab.lab_page import LabPage

__all__ = ["LabPage"]
