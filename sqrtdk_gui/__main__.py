"""``python -m sqrtdk_gui`` is the same as the ``sqrtdk-gui`` command."""

import sys

from sqrtdk_gui.cli.entry import main

sys.exit(main())
