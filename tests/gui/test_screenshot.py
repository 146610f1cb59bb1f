"""``--screenshot`` renders the real window headless, through the real command line."""

import os
import subprocess
import sys

import pytest
from PySide6.QtGui import QImage


def run(*argv, env=None):
    environment = dict(os.environ)
    environment.pop("QT_QPA_PLATFORM", None)  # the command must choose offscreen itself
    environment.pop("DISPLAY", None)
    return subprocess.run([sys.executable, "-m", "sqrtdk_gui", *argv], capture_output=True,
                          text=True, timeout=120, env=environment)


def _distinct_colours(image: QImage) -> int:
    step = 7
    return len({image.pixel(x, y) for x in range(0, image.width(), step)
                for y in range(0, image.height(), step)})


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    folder = tmp_path_factory.mktemp("shots")
    paths = {}
    for d_k in (4, 512):
        path = folder / f"dk{d_k}.png"
        done = run("--screenshot", str(path), "--size", "1280x720", "--dk", str(d_k),
                   "--scaling", "none", "--temperature", "1")
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr
        paths[d_k] = path
    return paths


def test_screenshot_is_a_non_blank_png_of_the_requested_size(qapp, shots):
    image = QImage(str(shots[512]))
    assert (image.width(), image.height()) == (1280, 720)
    assert _distinct_colours(image) > 50


def test_different_dk_gives_a_different_picture(qapp, shots):
    assert QImage(str(shots[4])) != QImage(str(shots[512]))


@pytest.mark.parametrize("argv,needle", [
    (["--screenshot", "/nonexistent-folder/x.png"], "does not exist"),
    (["--screenshot", "out.txt"], ".png"),
    (["--screenshot", "x.png", "--size", "10x10"], "--size"),
    (["--screenshot", "x.png", "--size", "big"], "--size"),
    # Below the window's smallest layout: refused, not a bigger image than asked for.
    (["--screenshot", "x.png", "--size", "320x240"], "smaller than the window can be laid out"),
])
def test_bad_screenshot_requests_exit_2_with_one_line(argv, needle, tmp_path):
    done = run(*argv)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], done.stderr
