"""The moving pictures a teacher takes into their own slides: which parameters each frame shows.

A clip is the lesson's motion as frames: step 1's sweep (d_k 1 → 512 on raw logits: the bell
widens) and step 4's (d_k 4 → 4096 under ÷√d_k: it stays put), each on its step's slide; the
autoplay (d_k 1 → 4096 and back under the current scaling) and the flip between raw logits
and ÷√d_k at one d_k, on the introduction's slide (no step's answer beside them). A sweep
moves uniformly in log2(d_k) with the window's easing (in and out like a sine), so every
octave takes the same time; it rests a second at each end so a looping clip can be read.
Frames that would show the same d_k are one frame shown longer: the picture is the same.

Durations are whole hundredths of a second, as a GIF stores them, taken as differences of
rounded times since the start: the clip lasts what was asked, to 10 ms.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.theory import theory_std
from sqrtdk_gui.core.i18n import N_, _

__all__ = ["CLIPS", "LESSON_SWEEPS", "Frame", "Clip", "clip", "lesson_sweep", "suggested_clip", "frame_size_problem",
           "animation_format", "ANIMATION_FORMATS", "SUFFIX_HINT", "MIN_FRAME", "FPS_RANGE", "SECONDS_RANGE", "HOLD_S"]

# name -> the lesson page whose slide it is drawn on (its words, its panels): a step, or 0 for
# the introduction
CLIPS: dict[str, int] = {"dk": 1, "dk-scaled": 4, "autoplay": 0, "flip": 0}
# File name ending -> Pillow's format: GIF plays everywhere (slides, learning platforms,
# messages); APNG is smaller and plays in browsers and recent office suites.
ANIMATION_FORMATS = {".gif": "GIF", ".png": "PNG", ".apng": "PNG"}
SUFFIX_HINT = N_("an animation file name ends in .gif, .png or .apng")
# The smallest frame a slide's words and panels stay legible in at the presentation zoom
# (1024×768, 1280×720 and larger projector sizes; a 640×480 frame crushes the plot).
MIN_FRAME = (1024, 720)
FPS_RANGE = (2.0, 30.0)
HOLD_S = 1.0  # the rest at each end of a one-way sweep
SECONDS_RANGE = (2 * HOLD_S + 1.0, 30.0)  # a second of sweep at least between the rests
AUTOPLAY_RANGE = (1, 4096)  # as the window's autoplay


# The lesson's own sweeps: clip -> the step whose animation and preset it plays.
LESSON_SWEEPS = {"dk": 1, "dk-scaled": 4}


def lesson_sweep(name: str) -> tuple[int, int, dict[str, Any]]:
    """A lesson clip's sweep: its step's animation (start, end) and preset."""
    from sqrtdk_gui.core.lesson.content import STEPS  # the pages only when a clip is made

    page = STEPS[LESSON_SWEEPS[name] - 1]
    assert page.animation is not None, f"step {page.number} has no sweep"
    return page.animation.start, page.animation.end, dict(page.preset)


def animation_format(path: str) -> str:
    """Pillow's format for ``path``'s ending; ValueError with SUFFIX_HINT otherwise."""
    fmt = ANIMATION_FORMATS.get(path[path.rfind("."):].lower() if "." in path else "")
    if fmt is None:
        raise ValueError(_(SUFFIX_HINT))
    return fmt


@dataclass(frozen=True)
class Frame:
    """One picture: the parameters it shows, for ``ms`` milliseconds (a multiple of 10)."""

    params: Params
    ms: int


@dataclass(frozen=True)
class Clip:
    """The frames of one clip and the logit axis it holds (±``held_half``: four σ of the
    widest logits it shows, so the bell's width on screen is the logits' own; None where no
    closed form gives σ: the axis follows the logits)."""

    name: str
    frames: tuple[Frame, ...]
    held_half: float | None

    @property
    def page(self) -> int:
        """The lesson page whose slide the clip is drawn on: a step, or 0 (the introduction)."""
        return CLIPS[self.name]

    @property
    def seconds(self) -> float:
        return sum(f.ms for f in self.frames) / 1000


def _eased(t: float) -> float:
    """Qt's InOutSine easing (QEasingCurve), the window's sweeps."""
    return -0.5 * (math.cos(math.pi * t) - 1)


def _sweep(base: Params, start: int, end: int, ms: int, fps: float) -> list[Frame]:
    """``start`` → ``end`` log-uniformly in ``ms``, at most ``fps`` pictures a second; equal
    neighbours merged."""
    count = max(2, math.floor(ms / 1000 * fps))
    a, b = math.log2(start), math.log2(end)
    values = [max(1, round(2 ** (a + (b - a) * _eased(i / (count - 1))))) for i in range(count)]
    # Each picture shows until the next one's time, rounded from the start: no drift.
    times = [_hundredths(ms * i / count) for i in range(count + 1)]
    frames: list[Frame] = []
    for value, t0, t1 in zip(values, times, times[1:]):
        if frames and frames[-1].params.d_k == value:
            frames[-1] = Frame(frames[-1].params, frames[-1].ms + t1 - t0)
        else:
            frames.append(Frame(base.replace(d_k=value), t1 - t0))
    return frames


def _hundredths(ms: float) -> int:
    return 10 * round(ms / 10)


def _rest(frames: list[Frame], index: int, ms: int) -> None:
    frames[index] = Frame(frames[index].params, frames[index].ms + ms)


def _held_half(frames: list[Frame]) -> float | None:
    """Four σ of the widest logits the frames show (theory), or None if σ has no closed form."""
    sigmas = [s for s in (theory_std(f.params) for f in frames) if math.isfinite(s)]
    return 4.0 * max(sigmas) if len(sigmas) == len(frames) else None


def clip(name: str, params: Params | None = None, seconds: float = 8.0, fps: float = 12.5) -> Clip:
    """The frames of clip ``name`` (one of CLIPS) lasting ``seconds`` (to 10 ms), at most
    ``fps`` frames a second. ``params``: what the window shows now — the autoplay and the flip
    start from them; the lesson's sweeps use their step's parameters and this seed."""
    if name not in CLIPS:
        raise ValueError(_("unknown clip {name} (one of {names})").format(name=repr(name), names=", ".join(CLIPS)))
    if not SECONDS_RANGE[0] <= seconds <= SECONDS_RANGE[1]:
        raise ValueError(_("a clip lasts {low} to {high} seconds, not {value}").format(
            low=f"{SECONDS_RANGE[0]:g}", high=f"{SECONDS_RANGE[1]:g}", value=f"{seconds:g}"))
    if not FPS_RANGE[0] <= fps <= FPS_RANGE[1]:
        raise ValueError(_("a clip has {low} to {high} frames a second, not {value}").format(
            low=f"{FPS_RANGE[0]:g}", high=f"{FPS_RANGE[1]:g}", value=f"{fps:g}"))
    params = Params() if params is None else params
    total = _hundredths(1000 * seconds)
    hold = round(1000 * HOLD_S)
    if name in LESSON_SWEEPS:
        start, end, preset = lesson_sweep(name)
        frames = _sweep(Params(**preset, seed=params.seed), start, end, total - 2 * hold, fps)
        _rest(frames, 0, hold)
        _rest(frames, -1, hold)
    elif name == "autoplay":
        low, high = AUTOPLAY_RANGE
        half = _hundredths(total / 2)
        there = _sweep(params, low, high, half, fps)
        back = _sweep(params, high, low, total - half, fps)
        # The turn shows d_k 4096 once, and the loop's seam d_k 1 once: no doubled frame.
        _rest(there, -1, back[0].ms)
        frames = there + back[1:]
        _rest(frames, 0, frames.pop().ms)
    else:  # the flip: raw logits, then ÷√d_k, at the current d_k (each half of the clip)
        half = _hundredths(total / 2)
        frames = [Frame(params.replace(scaling="none"), half),
                  Frame(params.replace(scaling="sqrt_dk"), total - half)]
    return Clip(name, tuple(frames), _held_half(frames))


def frame_size_problem(size: tuple[int, int]) -> str | None:
    """Why frames of ``size`` would not be legible (one sentence), or None."""
    if size[0] < MIN_FRAME[0] or size[1] < MIN_FRAME[1]:
        return _("an animation's frames are at least {width}×{height}, not {size}").format(
            width=MIN_FRAME[0], height=MIN_FRAME[1], size=f"{size[0]}×{size[1]}")
    return None


def suggested_clip(step: int | None, autoplaying: bool) -> str:
    """The clip of what the window shows: the autoplay, step 1's or step 4's sweep, else the flip."""
    if autoplaying:
        return "autoplay"
    return {1: "dk", 4: "dk-scaled"}.get(step or 0, "flip")
