"""The live window's pyqtgraph panels: each creates its plot items once, updates them with
setData, and binds itself to the controller (``base.ControllerView``).

``LIVE_PANELS`` is the order the window places them in (two per row): a new panel is its
own module plus one line here.
"""

from sqrtdk_gui.gui.panels.gradient import GradientPanel
from sqrtdk_gui.gui.panels.histogram import HistogramPanel
from sqrtdk_gui.gui.panels.jacobian import JacobianPanel
from sqrtdk_gui.gui.panels.weights import WeightsPanel

__all__ = ["LIVE_PANELS"]

LIVE_PANELS = (HistogramPanel, WeightsPanel, JacobianPanel, GradientPanel)
