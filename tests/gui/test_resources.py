"""Runtime files reach the program through Qt's resource system, and are current."""

import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import QFile
from PySide6.QtGui import QIcon

from sqrtdk_gui.gui import resources_rc  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]


def test_compiled_resources_match_the_qrc():
    done = subprocess.run([sys.executable, str(ROOT / "packaging" / "build_resources.py"), "--check"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_listed_resource_loads(qapp):
    import xml.etree.ElementTree as ET

    files = [f.text for f in ET.parse(ROOT / "resources" / "resources.qrc").iter("file")]
    assert files
    for name in files:
        f = QFile(f":/{name}")
        assert f.exists(), name
        assert f.size() > 0, name
    assert not QIcon(":/icons/sqrtdk-gui.svg").pixmap(64, 64).isNull()
