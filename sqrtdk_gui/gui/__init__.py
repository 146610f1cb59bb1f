"""The Qt layer: bootstrap, main window, controller, panels, lesson pane, training lab.

Everything here draws or coordinates; the numbers come from ``sqrtdk_gui.core``. Nothing
here imports ``sqrtdk_gui.cli.main`` (the command line calls in, never the other way round).
"""
