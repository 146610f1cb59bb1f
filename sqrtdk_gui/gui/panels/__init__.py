"""The live window's pyqtgraph panels: each creates its plot items once, updates them with
setData, and binds itself to the controller (``base.ControllerView``).

``LIVE_PANELS`` is the order the window places them in (two per row): a new panel is its
own module plus one line here. ``PAGE_PANELS`` each get a page of their own beside those
(a tab above the panels): the σ dial needs the room, and a third row of panels would not
read at 1280 × 720.
"""

from sqrtdk_gui.gui.panels.gradient import GradientPanel
from sqrtdk_gui.gui.panels.histogram import HistogramPanel
from sqrtdk_gui.gui.panels.jacobian import JacobianPanel
from sqrtdk_gui.gui.panels.sigma_dial import SigmaDialPanel
from sqrtdk_gui.gui.panels.weights import WeightsPanel

__all__ = ["LIVE_PANELS", "PAGE_PANELS"]

LIVE_PANELS = (HistogramPanel, WeightsPanel, JacobianPanel, GradientPanel)
PAGE_PANELS = (SigmaDialPanel,)
