"""The Debian package, as a Debian or Ubuntu user gets it: lint, install, start, remove.

    python -m pytest -q packaging/test_deb.py      # builds the bundle and the .deb first

Set ``SQRTDK_DEB_PREBUILT=1`` to test the .deb already in dist/. Installing needs root and
apt-get (CI runs as root); without them only the package's contents and lintian are checked.
The installed program runs with an empty environment, offscreen and in a real window on Xvfb;
removing the package must leave nothing of it behind.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "packaging"))

import build_deb  # noqa: E402

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux") or shutil.which("dpkg-deb") is None,
                                reason="the .deb is built and checked on Debian or Ubuntu")

NAME = build_deb.NAME
INSTALLED = [Path(f"/opt/{NAME}"), Path(f"/usr/bin/{NAME}"), Path(f"/usr/share/applications/{NAME}.desktop"),
             Path(f"/usr/share/icons/hicolor/256x256/apps/{NAME}.png"),
             Path(f"/usr/share/icons/hicolor/scalable/apps/{NAME}.svg"), Path(f"/usr/share/doc/{NAME}"),
             Path(f"/usr/share/man/man1/{NAME}.1.gz"), Path(f"/usr/share/lintian/overrides/{NAME}")]
can_install = pytest.mark.skipif(os.geteuid() != 0 or shutil.which("apt-get") is None,
                                 reason="installing a .deb needs root and apt-get")


@pytest.fixture(scope="module")
def deb() -> Path:
    if os.environ.get("SQRTDK_DEB_PREBUILT") != "1":
        done = subprocess.run([sys.executable, str(ROOT / "packaging" / "build_deb.py"), "--rebuild"], cwd=ROOT,
                              capture_output=True, text=True, timeout=1800)
        assert done.returncode == 0, (done.stdout + done.stderr)[-4000:]
    path = build_deb.deb_path()
    assert path.exists(), f"{path} was not built"
    return path


def _contents(deb: Path) -> list[str]:
    listing = subprocess.run(["dpkg-deb", "--contents", str(deb)], capture_output=True, text=True, check=True).stdout
    return [line.split()[5].removeprefix(".") for line in listing.splitlines()]


def test_the_package_holds_the_bundle_a_command_a_menu_entry_and_icons(deb):
    files = set(_contents(deb))
    for path in (f"/opt/{NAME}/{NAME}", f"/usr/bin/{NAME}", f"/usr/share/applications/{NAME}.desktop",
                 f"/usr/share/icons/hicolor/48x48/apps/{NAME}.png", f"/usr/share/doc/{NAME}/copyright",
                 f"/opt/{NAME}/_internal/sqrtdk_gui/gui/assets/fonts/DejaVuSans.ttf"):
        assert path in files, path
    assert not [f for f in files if f.endswith(("install-desktop-entry.sh", "/README.txt"))]
    fields = subprocess.run(["dpkg-deb", "--field", str(deb), "Package", "Version", "Architecture", "Depends"],
                            capture_output=True, text=True, check=True).stdout
    assert f"Package: {NAME}" in fields and "Architecture: amd64" in fields
    assert "libc6 (>= 2." in fields and "libgl1" in fields


@pytest.mark.skipif(shutil.which("lintian") is None, reason="lintian is not installed")
def test_lintian_finds_nothing(deb):
    done = subprocess.run(["lintian", "--tag-display-limit", "0", str(deb)], capture_output=True, text=True,
                          timeout=600)
    findings = [line for line in (done.stdout + done.stderr).splitlines()
                if line[:2] in ("E:", "W:")]
    assert findings == [], "\n".join(findings)
    assert done.returncode == 0, done.stdout + done.stderr


def _apt(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    return subprocess.run(["apt-get", "-y", "-q", *args], capture_output=True, text=True, timeout=900, env=env)


def _installed() -> bool:
    return subprocess.run(["dpkg", "-s", NAME], capture_output=True).returncode == 0


@can_install
@pytest.mark.skipif(not (shutil.which("Xvfb") and shutil.which("xdotool")), reason="needs Xvfb and xdotool")
def test_it_installs_starts_in_a_window_and_removes_cleanly(deb, tmp_path):
    if _installed():
        _apt("remove", "--purge", NAME)
    try:
        done = _apt("install", "--no-install-recommends", str(deb))
        assert done.returncode == 0, done.stdout + done.stderr
        env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
        smoke = subprocess.run([NAME, "--smoke-test"], capture_output=True, text=True, timeout=300, cwd="/",
                               env=dict(env, QT_QPA_PLATFORM="offscreen"))
        assert smoke.returncode == 0 and smoke.stdout.startswith("smoke test passed (frozen)"), \
            smoke.stdout + smoke.stderr
        assert smoke.stderr == ""
        if shutil.which("desktop-file-validate"):
            check = subprocess.run(["desktop-file-validate", f"/usr/share/applications/{NAME}.desktop"],
                                   capture_output=True, text=True)
            assert check.returncode == 0, check.stdout + check.stderr
        _window_opens(env, tmp_path)
    finally:
        removed = _apt("remove", "--purge", NAME)
    assert removed.returncode == 0, removed.stdout + removed.stderr
    assert not _installed()
    assert [p for p in INSTALLED if p.exists() or p.is_symlink()] == []


def _window_opens(env: dict, home: Path) -> None:
    """The installed command opens its window on a real X server, and Ctrl+C closes it (130)."""
    display = ":95"
    server = subprocess.Popen(["Xvfb", display, "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    app = None
    try:
        socket = Path(f"/tmp/.X11-unix/X{display[1:]}")
        deadline = time.monotonic() + 30  # a bound on waiting for the server, not a measurement
        while not socket.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        xenv = dict(env, DISPLAY=display, QT_QPA_PLATFORM="xcb", SQRTDK_GUI_SETTINGS=str(home / "s.ini"))
        app = subprocess.Popen([NAME], env=xenv, cwd="/", stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        found = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--name", f"^{NAME}"],
                               env=xenv, capture_output=True, text=True, timeout=120)
        assert found.returncode == 0 and found.stdout.strip(), "no window appeared"
        app.send_signal(2)  # Ctrl+C: the window closes like Quit
        _, err = app.communicate(timeout=60)
        assert app.returncode == 130, err
        assert "Traceback" not in err
    finally:
        if app is not None and app.poll() is None:
            app.kill()
            app.communicate()
        server.terminate()
        server.wait(timeout=10)
