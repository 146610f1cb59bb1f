"""The animation export: frames as the clip plans them, the bell's width in the pictures, the
file whole or not at all, the command line's answers to bad input."""

from __future__ import annotations

import subprocess
import sys
import threading

import numpy as np
import pytest
from PIL import Image, ImageSequence
from PySide6.QtWidgets import QApplication

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.plotdata import nice_ceiling
from sqrtdk_gui.core.lesson.clips import clip
from sqrtdk_gui.gui.export.animation import export_animation
from sqrtdk_gui.gui.export.run import enter_page, export_pool, run_blocking
from sqrtdk_gui.gui.export.view import settled_image, slide_layout
from sqrtdk_gui.gui.window.presentation import presentation_zoom

SIZE = (1024, 768)


def _frames(path) -> tuple[dict, list[np.ndarray], list[int]]:
    """(format and loop, frames as RGB arrays, durations in ms)."""
    frames, durations = [], []
    with Image.open(path) as image:
        for frame in ImageSequence.Iterator(image):
            frames.append(np.asarray(frame.convert("RGB"), dtype=np.int16))
            durations.append(frame.info["duration"])
        return {"format": image.format, "loop": image.info.get("loop")}, frames, durations


def _histogram_rect(window) -> tuple[int, int, int, int]:
    """(left, top, right, bottom) of the histogram's plot area in the window, as laid out now."""
    vb = window.panels["histogram"].plot.getViewBox()
    view = vb.scene().views()[0]
    rect = view.mapFromScene(vb.sceneBoundingRect()).boundingRect()
    top_left = view.viewport().mapTo(window, rect.topLeft())
    return top_left.x(), top_left.y(), top_left.x() + rect.width(), top_left.y() + rect.height()


def _plot_rect(window, step: int, zoom: float) -> tuple[int, int, int, int]:
    """(left, top, right, bottom) of the histogram's plot area in a frame of the clip's page."""
    pool = export_pool()

    def steps():
        with slide_layout(window, SIZE, zoom):
            yield from enter_page(window, "step", step, pool)
            settled_image(window, SIZE)
            QApplication.processEvents()
            return _histogram_rect(window)

    try:
        return run_blocking(steps())
    finally:
        pool.shutdown()


def _spread_px(frame: np.ndarray, rect, scaling: str) -> float:
    """The standard deviation, in pixels, of the histogram drawn in the plot area: each column
    weighted by how many of its pixels have the colour of the clip's scaling (vermillion for
    raw logits, blue for ÷√d_k; the other mode's ghost and the grey grid do not count)."""
    left, top, right, bottom = rect
    # Above the bottom's few rows: the outline of the empty bins runs along the axis there.
    area = frame[top + 2:bottom - 6, left + 2:right - 2]
    r, b = area[..., 0], area[..., 2]
    ours = (r - b > 30) if scaling == "none" else (b - r > 30)
    weight = ours.sum(axis=0).astype(float)
    x = np.arange(weight.size)
    mean = (weight * x).sum() / weight.sum()
    return float(np.sqrt((weight * (x - mean) ** 2).sum() / weight.sum()))


@pytest.fixture(scope="module")
def exported(tmp_path_factory, qapp):
    """The window's two lesson sweeps as GIFs, with the histogram's plot area in their frames."""
    from sqrtdk_gui.gui.window.main_window import MainWindow

    zoom = presentation_zoom(SIZE[1])
    window = MainWindow(threaded=False, zoom=zoom)
    window.show()
    out = {}
    try:
        for name in ("dk", "dk-scaled"):
            planned = clip(name, window.controller.params, seconds=4.0, fps=6.0)
            path = tmp_path_factory.mktemp("clips") / f"{name}.gif"
            assert export_animation(window, str(path), planned, SIZE, zoom=zoom) == [str(path)]
            out[name] = (planned, path, _plot_rect(window, planned.page, zoom))
    finally:
        window.close()
        window.deleteLater()
    return out


@pytest.mark.parametrize("name", ["dk", "dk-scaled"])
def test_every_planned_frame_is_in_the_gif_for_its_time_and_it_loops(exported, name):
    planned, path, _rect = exported[name]
    image, frames, durations = _frames(path)
    assert image == {"format": "GIF", "loop": 0}
    assert len(frames) == len(planned.frames) and {f.shape for f in frames} == {(SIZE[1], SIZE[0], 3)}
    assert durations == [f.ms for f in planned.frames]
    # Each frame differs from the one before it (equal neighbours are merged in the plan).
    assert all(np.any(a != b) for a, b in zip(frames, frames[1:]))


def test_the_raw_bell_widens_as_sqrt_dk_on_the_held_axis(exported):
    planned, path, rect = exported["dk"]
    _image, frames, _durations = _frames(path)
    unit = (rect[2] - rect[0]) / (2 * nice_ceiling(planned.held_half))  # pixels per logit unit
    middle = len(frames) // 2
    first, mid, last = (_spread_px(frames[i], rect, "none") for i in (0, middle, -1))
    # (The tails' last pixels sink into the axis: a spread reads a few per cent low.)
    assert 0.85 <= last / (np.sqrt(512) * unit) <= 1.1
    assert 0.85 <= mid / (np.sqrt(planned.frames[middle].params.d_k) * unit) <= 1.1
    assert last >= 8 * first  # σ 1 → 22.6: the bell was a sliver and fills the axis


def test_the_scaled_bell_stays_put(exported):
    planned, path, rect = exported["dk-scaled"]
    _image, frames, _durations = _frames(path)
    unit = (rect[2] - rect[0]) / (2 * nice_ceiling(planned.held_half))  # σ 1 on the held axis
    spreads = [_spread_px(frames[i], rect, "sqrt_dk") / unit for i in (0, len(frames) // 2, -1)]  # d_k 4, ~200, 4096
    # At d_k 4 the raw ghost (σ 2) lies over the bell and hides some of its colour: a little low.
    assert all(0.75 <= spread <= 1.1 for spread in spreads)
    assert max(spreads) / min(spreads) <= 1.2


def test_the_window_is_as_it_was_after_an_export(make_window, tmp_path):
    window = make_window(Params(d_k=96, scaling="none", seed=4))
    window.lesson.go_to(2, animate=False)
    before = (window.controller.params, window.lesson.step, window.size(),
              window.panels["histogram"].fixed_half)
    export_animation(window, str(tmp_path / "flip.png"), clip("flip", window.controller.params), SIZE)
    assert (window.controller.params, window.lesson.step, window.size(),
            window.panels["histogram"].fixed_half) == before
    with Image.open(tmp_path / "flip.png") as image:
        assert image.format == "PNG" and image.n_frames == 2 and image.is_animated


@pytest.mark.parametrize("name", ["dk", "autoplay"])
def test_no_panel_edge_moves_between_frames(make_window, tmp_path, monkeypatch, name):
    from sqrtdk_gui.gui.export import animation

    window = make_window()
    drawn = []
    real = animation.render_image

    def recording(widget, size=None):
        drawn.append(_histogram_rect(widget))
        return real(widget, size)

    monkeypatch.setattr(animation, "render_image", recording)
    planned = clip(name, window.controller.params, seconds=3.0, fps=8.0)
    export_animation(window, str(tmp_path / "clip.gif"), planned, SIZE)
    frames = drawn[-len(planned.frames):]  # after the ends drawn first
    assert len(set(frames)) == 1, sorted(set(frames))


def test_a_cancel_while_encoding_writes_nothing(make_window, tmp_path, monkeypatch):
    from sqrtdk_gui.gui.export import animation

    window = make_window()
    path = tmp_path / "clip.gif"
    path.write_bytes(b"older")
    encoding, cancelled = threading.Event(), threading.Event()
    real = animation.Frames.encoded

    def slow(self, target):
        encoding.set()
        cancelled.wait(timeout=120)  # the encoding ends only after the Cancel was taken
        return real(self, target)

    def should_stop() -> bool:
        if encoding.is_set():
            cancelled.set()
            return True
        return False

    monkeypatch.setattr(animation.Frames, "encoded", slow)
    written = export_animation(window, str(path), clip("flip", window.controller.params), SIZE,
                               should_stop=should_stop)
    assert written == [] and path.read_bytes() == b"older"


def test_a_cancelled_export_leaves_an_older_file_alone(make_window, tmp_path):
    window = make_window()
    path = tmp_path / "clip.gif"
    path.write_bytes(b"older")
    written = export_animation(window, str(path), clip("dk"), SIZE, progress=lambda i, n, name: i < 3)
    assert written == [] and path.read_bytes() == b"older"


@pytest.mark.parametrize("args,message", [
    (["clip.webp"], "ends in .gif, .png or .apng"),
    (["missing/clip.gif"], "does not exist"),
    (["clip.gif", "--clip", "wave"], "invalid choice"),
    (["clip.gif", "--seconds", "99"], "out of range"),
    (["clip.gif", "--fps", "0"], "out of range"),
    (["clip.gif", "--size", "640x480"], "frames are at least 1024×720"),
    (["clip.gif", "--clip", "dk", "--dk", "256"], "--dk apply to autoplay and flip"),
])
def test_export_animation_refuses_bad_input_with_one_line(tmp_path, args, message):
    done = subprocess.run([sys.executable, "-m", "sqrtdk_gui", "export-animation", str(tmp_path / args[0]),
                           *args[1:]], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and message in done.stderr and len(done.stderr.splitlines()) == 1
    assert not any(tmp_path.iterdir())


def test_export_animation_writes_the_flip_at_the_given_parameters(tmp_path):
    path = tmp_path / "flip.gif"
    done = subprocess.run([sys.executable, "-m", "sqrtdk_gui", "export-animation", str(path), "--clip", "flip",
                           "--dk", "256", "--size", "1280x720", "--lang", "de"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert str(path) in done.stdout
    with Image.open(path) as image:
        assert image.n_frames == 2 and image.size == (1280, 720)


def test_file_export_animation_offers_the_sweep_on_show_and_leaves_the_window_alone(make_window, tmp_path,
                                                                                    monkeypatch, qtbot):
    from sqrtdk_gui.gui.export.animation_dialog import AnimationChoice
    from sqrtdk_gui.gui.window import export_actions

    window = make_window()
    window.lesson.go_to(4, animate=False)
    window.render_ready()
    before = window.current_state()
    offered = []

    def accept(choice):
        offered.append((choice.clip, choice.frame_size))
        choice.sizes.setCurrentText("1280 × 720")
        return True

    target = tmp_path / "sweep"
    monkeypatch.setattr(AnimationChoice, "exec", accept)
    monkeypatch.setattr(export_actions.QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(target), "")))
    window.actions.export_animation.trigger()
    qtbot.waitUntil(lambda: window.statusBar().currentMessage().startswith("Wrote the animation"), timeout=300_000)
    assert offered == [("dk-scaled", (1024, 768))]  # step 4's sweep, at the projector's size
    planned = clip("dk-scaled", before.params)
    _image, frames, durations = _frames(f"{target}.gif")
    assert len(frames) == len(planned.frames) and frames[0].shape == (720, 1280, 3)
    assert durations == [f.ms for f in planned.frames]
    assert window.current_state() == before and window.exports.running is None


def test_a_frame_size_the_slide_cannot_take_is_said_in_a_dialog_and_nothing_is_written(make_window, tmp_path,
                                                                                     monkeypatch, qtbot):
    from sqrtdk_gui.gui.export.animation_dialog import AnimationChoice
    from sqrtdk_gui.gui.window import export_actions

    window = make_window()
    before = window.current_state()
    target = tmp_path / "small.gif"
    said = []
    monkeypatch.setattr(AnimationChoice, "exec", lambda choice: True)
    monkeypatch.setattr(AnimationChoice, "frame_size", property(lambda choice: (320, 240)))
    monkeypatch.setattr(export_actions.QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(target), "")))
    monkeypatch.setattr(export_actions, "fail", lambda parent, title, message: said.append((title, message)))
    window.exports.animation_dialog()
    qtbot.waitUntil(lambda: window.exports.running is None, timeout=60_000)
    assert len(said) == 1 and said[0][1].startswith("an animation's frames are at least 1024×720, not 320×240")
    assert not target.exists() and window.current_state() == before


def test_every_clip_has_a_label_in_the_choice():
    from sqrtdk_gui.core.lesson.clips import CLIPS
    from sqrtdk_gui.gui.export.animation_dialog import CLIP_LABELS

    assert list(CLIP_LABELS) == list(CLIPS)
