"""Export a clip (``core.lesson.clips``) as an animated GIF or APNG for a teacher's own slides.

(``window`` is the main window, typed ``Any``: the window layer sits above the exports.)

Each frame is drawn as the slides are (``view.slide_layout``: the clip's lesson page, its
words and its panels large, at the chosen size and language) with the frame's parameters,
on the clip's held logit axis, in a window that is never on screen. Pillow encodes: every
frame is mapped to one 255-colour palette made from the first frame (so colours never flicker
between frames; GIF and APNG alike), and the writers store only the region that changed from
one frame to the next. Frames are converted in the export's own thread while the next one is
computed and drawn; the file is encoded, then written whole, or (cancelled before the write
begins, or a frame failing) not at all.
"""

from __future__ import annotations

import dataclasses
import errno
import io
from collections.abc import Callable
from typing import Any

from PIL import Image
from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QImage

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.io import safe_io
from sqrtdk_gui.core.lesson.clips import Clip, animation_format, frame_size_problem
from sqrtdk_gui.gui.export.run import (
    Cancelled,
    Page,
    Refused,
    Steps,
    enter_page,
    export_pool,
    run_blocking,
    shielded,
    wait_for,
)
from sqrtdk_gui.gui.export.view import render_image, restore_numbers, settled_image, slide_layout

__all__ = ["animation_steps", "export_animation", "Frames"]

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")


def _pil(image: QImage) -> Image.Image:
    """A copy of ``image`` as a Pillow RGB image."""
    rgb = image.convertToFormat(QImage.Format.Format_RGB888)
    return Image.frombuffer("RGB", (rgb.width(), rgb.height()), bytes(rgb.constBits()), "raw", "RGB",
                            rgb.bytesPerLine(), 1).copy()


class Frames:
    """The frames gathered so far (export thread), mapped to the first frame's palette."""

    def __init__(self, fmt: str) -> None:
        self.fmt = fmt
        self.images: list[Image.Image] = []
        self.durations: list[int] = []
        self._palette: Image.Image | None = None

    def add(self, image: QImage, ms: int) -> None:
        picture = _pil(image)
        if self._palette is None:
            # The plots' few flat colours plus their antialiased edges fit 255 colours well.
            self._palette = picture.quantize(255, method=Image.Quantize.MEDIANCUT)
        self.images.append(picture.quantize(palette=self._palette, dither=Image.Dither.NONE))
        self.durations.append(ms)

    def encoded(self, path: str) -> bytes:
        """The whole animation as the file's bytes (loops forever); IOFailure naming ``path``."""
        buffer = io.BytesIO()
        first, rest = self.images[0], self.images[1:]
        options = {"optimize": False} if self.fmt == "GIF" else {"optimize": True, "default_image": False}
        try:
            first.save(buffer, self.fmt, save_all=True, append_images=rest, duration=self.durations, loop=0,
                       disposal=1 if self.fmt == "GIF" else 0, **options)
        except (OSError, ValueError) as exc:
            raise safe_io.IOFailure(errno.EIO, "write", path,
                                    translate("Export", "the animation could not be encoded: {reason}")
                                    .format(reason=exc)) from exc
        return buffer.getvalue()


def _show(window: Any, params: Params) -> Steps:
    """``yield from``: the window's panels at ``params``, computed in the controller's worker
    first (the GUI thread only takes the numbers and lays the panels out)."""
    yield from wait_for(window.controller.prepare(params))
    window.controller.set_params(**dataclasses.asdict(params))
    window.render_ready()


def _enter(window: Any, clip: Clip, pool: Any) -> Steps:
    """``yield from``: the clip's page shown as a slide (a step revealed, or the introduction)."""
    if clip.page:
        yield from enter_page(window, "step", clip.page, pool)
        return
    yield from wait_for(window.controller.prepare(clip.frames[0].params))
    window.controller.replace_params(clip.frames[0].params)
    window.lesson.restore(0, None)
    window.render_ready()


def animation_steps(window: Any, path: str, clip: Clip, size: tuple[int, int], zoom: float | None = None) -> Steps:
    """The animation export as steps (see ``run``): ``clip``'s frames drawn on its lesson page's
    slide at ``size`` (text at ``zoom``, default as the window has it) and written to
    ``path`` as GIF or APNG (by its suffix). Its value: ``[path]``, or ``[]`` when stopped or
    cancelled before the file is written (an older file stays). IOFailure stops it with one
    sentence, and so does Refused for a frame size the slide cannot take."""
    fmt = animation_format(path)
    problem = frame_size_problem(size)
    if problem:
        raise Refused(problem)
    frames = Frames(fmt)
    pool = export_pool()
    count = len(clip.frames)
    written: list[str] = []
    try:
        restore_numbers(window, pool)
        with slide_layout(window, size, zoom):
            got = (window.width(), window.height())
            if got != tuple(size):  # a picture squeezed to the size would distort every letter
                raise Refused(translate("Export", "frames of {width}×{height} are smaller than the slide can be "
                                                  "laid out at (it needs {need_width}×{need_height})")
                              .format(width=size[0], height=size[1], need_width=max(got[0], size[0]),
                                      need_height=max(got[1], size[1])))
            try:
                yield from _enter(window, clip, pool)
                histogram = window.panels["histogram"]
                # Settled once, then the frames with the narrowest and widest d_k drawn: the
                # axes keep the room their widest labels took, so no frame moves a panel's edge.
                settled_image(window, size)
                histogram.set_fixed_half(clip.held_half)
                by_dk = sorted(clip.frames, key=lambda f: (f.params.d_k, f.params.scaling))
                for end in dict.fromkeys((by_dk[0], by_dk[-1], clip.frames[0], clip.frames[-1])):
                    yield from _show(window, end.params)
                    render_image(window, size)
                converting = None
                for i, frame in enumerate(clip.frames):
                    if not (yield Page(i, count, f"d_k = {frame.params.d_k}")):
                        raise Cancelled
                    yield from _show(window, frame.params)
                    image = render_image(window, size)
                    if converting is not None:  # one frame in the export's thread at a time
                        yield from wait_for(converting)
                    converting = pool.submit(frames.add, image, frame.ms)
                if converting is not None:
                    yield from wait_for(converting)
                if not (yield Page(count, count, "")):  # all drawn; encoding (seconds at large sizes)
                    raise Cancelled
                data = yield from wait_for(pool.submit(frames.encoded, path))
                # Once the write begins it ends (a file is never half written).
                yield from shielded(wait_for(pool.submit(safe_io.write_bytes, path, data)))
                written.append(path)
            except Cancelled:
                pass
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
    return written


def export_animation(window: Any, path: str, clip: Clip, size: tuple[int, int],
                     progress: Callable[[int, int, str], object] | None = None, zoom: float | None = None,
                     should_stop: Callable[[], bool] | None = None) -> list[str]:
    """:func:`animation_steps` in this thread; ``[path]`` once written, ``[]`` if stopped."""
    try:
        written: list[str] = run_blocking(animation_steps(window, path, clip, size, zoom), progress, should_stop)
        return written
    finally:
        window.render_ready()
