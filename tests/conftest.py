"""Test setup: Qt renders offscreen unless a test run asks for a real display."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import sqrtdk_gui  # noqa: E402,F401  (before numpy: it pins BLAS to one thread, as the app does)
