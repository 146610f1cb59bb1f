"""The moving pictures a teacher takes into their own slides: which parameters each frame shows.

A clip is the lesson's motion as frames: step 1's sweep (d_k 1 → 512 on raw logits: the bell
widens), step 4's (d_k 4 → 4096 under ÷√d_k: it stays put), the autoplay (d_k 1 → 4096 and
back under the current scaling) and the flip between raw logits and ÷√d_k at one d_k. A
sweep moves uniformly in log2(d_k) with the window's easing (in and out like a sine), so every
octave takes the same time; it rests a second at each end so a looping clip can be read.
Frames that would show the same d_k are one frame shown longer: the picture is the same.

Durations are whole hundredths of a second, as a GIF stores them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.theory import theory_std
from sqrtdk_gui.core.i18n import _

__all__ = ["CLIPS", "Frame", "Clip", "clip", "suggested_clip", "FPS_RANGE", "SECONDS_RANGE", "HOLD_S"]

# name -> the lesson step whose slide it is drawn on (its words, its panels)
CLIPS: dict[str, int] = {"dk": 1, "dk-scaled": 4, "autoplay": 4, "flip": 4}
FPS_RANGE = (2.0, 30.0)
SECONDS_RANGE = (2.0, 30.0)
HOLD_S = 1.0  # the rest at each end of a one-way sweep, and each side of the flip at least
AUTOPLAY_RANGE = (1, 4096)  # as the window's autoplay
# The lesson's own sweeps (step 1's and step 4's animations on their presets).
LESSON_SWEEPS: dict[str, tuple[int, int, dict[str, Any]]] = {"dk": (1, 512, {"d_k": 512, "scaling": "none"}),
                 "dk-scaled": (4, 4096, {"d_k": 4096, "scaling": "sqrt_dk"})}


@dataclass(frozen=True)
class Frame:
    """One picture: the parameters it shows, for ``ms`` milliseconds (a multiple of 10)."""

    params: Params
    ms: int


@dataclass(frozen=True)
class Clip:
    """The frames of one clip and the logit axis it holds (±``held_half``: four σ of the
    widest logits it shows, so the bell's width on screen is the logits' own)."""

    name: str
    frames: tuple[Frame, ...]
    held_half: float

    @property
    def step(self) -> int:
        """The lesson step whose slide the clip is drawn on."""
        return CLIPS[self.name]

    @property
    def seconds(self) -> float:
        return sum(f.ms for f in self.frames) / 1000


def _eased(t: float) -> float:
    """Qt's InOutSine easing (QEasingCurve), the window's sweeps."""
    return -0.5 * (math.cos(math.pi * t) - 1)


def _sweep(base: Params, start: int, end: int, ms: int, fps: float) -> list[Frame]:
    """``start`` → ``end`` log-uniformly in ``ms``; equal neighbours merged."""
    count = max(2, round(ms / 1000 * fps))
    tick = _hundredths(ms / count)  # each of the count pictures shows for a tick
    a, b = math.log2(start), math.log2(end)
    values = [max(1, round(2 ** (a + (b - a) * _eased(i / (count - 1))))) for i in range(count)]
    frames: list[Frame] = []
    for value in values:
        if frames and frames[-1].params.d_k == value:
            frames[-1] = Frame(frames[-1].params, frames[-1].ms + tick)
        else:
            frames.append(Frame(base.replace(d_k=value), tick))
    return frames


def _hundredths(ms: float) -> int:
    return max(10, 10 * round(ms / 10))


def _rest(frames: list[Frame], index: int, ms: int) -> None:
    frames[index] = Frame(frames[index].params, frames[index].ms + ms)


def clip(name: str, params: Params | None = None, seconds: float = 8.0, fps: float = 12.5) -> Clip:
    """The frames of clip ``name`` (one of CLIPS) lasting about ``seconds``, at most ``fps``
    frames a second. ``params``: what the window shows now — the autoplay and the flip
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
    total = round(1000 * seconds)
    hold = round(1000 * HOLD_S)
    if name in LESSON_SWEEPS:
        start, end, preset = LESSON_SWEEPS[name]
        base = Params(**preset, seed=params.seed)
        frames = _sweep(base, start, end, total - 2 * hold, fps)
        _rest(frames, 0, hold)
        _rest(frames, -1, hold)
        widest = base.replace(d_k=end)
    elif name == "autoplay":
        low, high = AUTOPLAY_RANGE
        there = _sweep(params, low, high, total // 2, fps)
        back = _sweep(params, high, low, total - total // 2, fps)
        # The turn shows d_k 4096 once, and the loop's seam d_k 1 once: no doubled frame.
        _rest(there, -1, back[0].ms)
        frames = there + back[1:]
        _rest(frames, 0, frames.pop().ms)
        widest = params.replace(d_k=high)
    else:  # the flip: raw logits, then ÷√d_k, at the current d_k (each half of the clip)
        half = _hundredths(total / 2)
        frames = [Frame(params.replace(scaling="none"), half), Frame(params.replace(scaling="sqrt_dk"), half)]
        widest = params.replace(scaling="none")
    return Clip(name, tuple(frames), 4.0 * theory_std(widest))


def suggested_clip(step: int | None, autoplaying: bool) -> str:
    """The clip of what the window shows: the autoplay, step 1's or step 4's sweep, else the flip."""
    if autoplaying:
        return "autoplay"
    return {1: "dk", 4: "dk-scaled"}.get(step or 0, "flip")
