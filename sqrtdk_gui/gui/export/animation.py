"""Export a clip (``core.lesson.clips``) as an animated GIF or APNG for a teacher's own slides.

(``window`` is the main window, typed ``Any``: the window layer sits above the exports.)

Each frame is drawn as the slides are (``view.slide_layout``: the clip's lesson page, its
words and its panels large, at the chosen size and language) with the frame's parameters,
on the clip's held logit axis, in a window that is never on screen. Pillow encodes: every
frame is mapped to one palette made from the first frame (so colours never flicker between
frames), and the GIF writer stores only the region that changed from one frame to the next.
Frames are converted in the export's own thread while the next one is computed and drawn;
the file is written whole at the end, or (cancelled, or a frame failing) not at all.
"""

from __future__ import annotations

import dataclasses
import errno
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image
from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QImage

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.i18n import _
from sqrtdk_gui.core.io import safe_io
from sqrtdk_gui.core.lesson.clips import Clip
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

__all__ = ["ANIMATION_SUFFIXES", "animation_format", "animation_steps", "export_animation", "Frames"]

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")

# Suffix -> Pillow's format: GIF plays everywhere (slides, learning platforms, messages);
# APNG keeps every colour and plays in browsers and recent office suites.
ANIMATION_SUFFIXES = {".gif": "GIF", ".png": "PNG", ".apng": "PNG"}


def animation_format(path: str) -> str:
    """Pillow's format for ``path``'s suffix; ValueError naming the suffixes otherwise."""
    fmt = ANIMATION_SUFFIXES.get(Path(path).suffix.lower())
    if fmt is None:
        raise ValueError(_("an animation file name ends in .gif, .png or .apng"))
    return fmt


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

    def encoded(self) -> bytes:
        """The whole animation as the file's bytes; loops forever."""
        buffer = io.BytesIO()
        first, rest = self.images[0], self.images[1:]
        options = {"optimize": False} if self.fmt == "GIF" else {"optimize": True, "default_image": False}
        first.save(buffer, self.fmt, save_all=True, append_images=rest, duration=self.durations, loop=0,
                   disposal=1 if self.fmt == "GIF" else 0, **options)
        return buffer.getvalue()

    def write(self, path: str) -> None:
        try:
            data = self.encoded()
        except (OSError, ValueError) as exc:
            raise safe_io.IOFailure(errno.EIO, "write", path,
                                    translate("Export", "the animation could not be encoded: {reason}")
                                    .format(reason=exc)) from exc
        safe_io.write_bytes(path, data)


def _show(window: Any, params: Params) -> None:
    """The window's panels at ``params`` (already prepared: nothing is computed here)."""
    window.controller.set_params(**dataclasses.asdict(params))
    window.render_ready()


def animation_steps(window: Any, path: str, clip: Clip, size: tuple[int, int], zoom: float | None = None) -> Steps:
    """The animation export as steps (see ``run``): ``clip``'s frames drawn on its lesson page's
    slide at ``size`` (text at ``zoom``, default as the window has it) and written to
    ``path`` as GIF or APNG (by its suffix). Its value: ``[path]``, or ``[]`` when stopped or
    cancelled (nothing is written: an older file stays). IOFailure stops it with one sentence,
    and so does Refused for a size smaller than the slide's smallest layout."""
    fmt = animation_format(path)
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
                yield from enter_page(window, "step", clip.step, pool)
                histogram = window.panels["histogram"]
                # The axes keep the room their widest labels took: show both ends first, so
                # no frame of the clip moves a panel's edge.
                for end in (clip.frames[0], clip.frames[-1]):
                    yield from wait_for(window.controller.prepare(end.params))
                    _show(window, end.params)
                    histogram.set_fixed_half(clip.held_half)
                    render_image(window, size)
                converting = None
                for i, frame in enumerate(clip.frames):
                    if not (yield Page(i, count, f"d_k = {frame.params.d_k}")):
                        raise Cancelled
                    yield from wait_for(window.controller.prepare(frame.params))
                    _show(window, frame.params)
                    image = settled_image(window, size) if i == 0 else render_image(window, size)
                    if converting is not None:  # one frame in the export's thread at a time
                        yield from wait_for(converting)
                        converting.result()
                    converting = pool.submit(frames.add, image, frame.ms)
                if converting is not None:
                    yield from wait_for(converting)
                    converting.result()
                yield from shielded(wait_for(pool.submit(frames.write, path)))
                written.append(path)
            except Cancelled:
                pass
            finally:
                window.panels["histogram"].set_fixed_half(window.lesson.held_half)
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
