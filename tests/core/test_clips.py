"""The clips' frames: the lesson's own sweeps, log-uniform and eased, lasting what was asked."""

from __future__ import annotations

import numpy as np
import pytest

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.theory import theory_std
from sqrtdk_gui.core.lesson.clips import CLIPS, HOLD_S, LESSON_SWEEPS, animation_format, clip, suggested_clip
from sqrtdk_gui.core.lesson.content import STEPS


@pytest.mark.parametrize("name", list(LESSON_SWEEPS))
def test_a_lesson_clip_plays_its_step_s_own_sweep_on_its_preset(name):
    step = STEPS[LESSON_SWEEPS[name] - 1]
    frames = clip(name, Params(seed=5)).frames
    assert frames[0].params == Params(**step.preset, seed=5).replace(d_k=step.animation.start)
    assert frames[-1].params == Params(**step.preset, seed=5).replace(d_k=step.animation.end)
    assert clip(name).page == step.number


@pytest.mark.parametrize("name", list(CLIPS))
@pytest.mark.parametrize("seconds,fps", [(8.0, 12.5), (3.0, 30.0), (30.0, 30.0), (30.0, 29.0), (20.0, 2.0)])
def test_a_clip_lasts_what_was_asked_in_whole_hundredths_at_most_fps_frames_a_second(name, seconds, fps):
    frames = clip(name, Params(d_k=256), seconds, fps).frames
    ms = [f.ms for f in frames]
    assert all(m >= 10 and m % 10 == 0 for m in ms)
    assert abs(sum(ms) - 1000 * seconds) <= 5  # rounded once, not once a frame
    assert len(frames) <= seconds * fps + 1
    # Neighbours differ (equal ones are one frame shown longer), the loop's seam too.
    shown = [f.params for f in frames]
    assert all(a != b for a, b in zip(shown, shown[1:])) and shown[0] != shown[-1]


def test_the_shortest_lesson_clip_still_sweeps_between_its_rests():
    frames = clip("dk", seconds=3.0, fps=12.5).frames
    assert len(frames) >= 8 and frames[0].ms >= 1000 * HOLD_S and frames[-1].ms >= 1000 * HOLD_S
    with pytest.raises(ValueError):
        clip("dk", seconds=2.0)  # the two rests alone: no sweep left


@pytest.mark.parametrize("name", list(LESSON_SWEEPS))
def test_a_sweep_moves_evenly_in_log2_dk_with_eased_ends_and_rests_at_both(name):
    frames = clip(name, seconds=8.0, fps=12.5).frames
    dk = np.array([f.params.d_k for f in frames])
    assert np.all(np.diff(dk) > 0)
    # A second's rest at each end, on top of the easing's own slow start and finish.
    assert frames[0].ms >= 1000 * HOLD_S and frames[-1].ms >= 1000 * HOLD_S
    # In log2(d_k) the middle moves fastest: the octave around the midpoint takes the least time.
    logs = np.log2(dk)
    mid = (logs[0] + logs[-1]) / 2
    time_at = np.cumsum([f.ms for f in frames])
    octave_ms = [np.interp(x + 0.5, logs, time_at) - np.interp(x - 0.5, logs, time_at)
                 for x in (logs[0] + 1.5, mid, logs[-1] - 1.5)]
    assert octave_ms[1] < octave_ms[0] and octave_ms[1] < octave_ms[2]


def test_autoplay_goes_up_to_4096_once_and_back_under_the_current_scaling():
    frames = clip("autoplay", Params(scaling="none", temperature=2.0)).frames
    dk = [f.params.d_k for f in frames]
    assert dk[0] == 1 and dk.count(4096) == 1 and dk[-1] > 1
    top = dk.index(4096)
    assert dk[:top + 1] == sorted(dk[:top + 1]) and dk[top:] == sorted(dk[top:], reverse=True)
    assert {(f.params.scaling, f.params.temperature) for f in frames} == {("none", 2.0)}


def test_the_flip_shows_raw_then_scaled_at_the_current_parameters_for_half_the_clip_each():
    now = Params(d_k=512, seed=3, keys=128)
    assert clip("flip", now).page == clip("autoplay", now).page == 0  # the introduction's slide
    raw, scaled = clip("flip", now, seconds=6.0).frames
    assert raw.params == now.replace(scaling="none") and scaled.params == now.replace(scaling="sqrt_dk")
    assert raw.ms == scaled.ms == 3000


@pytest.mark.parametrize("name,scaling,widest", [
    ("dk", "none", Params(d_k=512, scaling="none")),
    ("dk-scaled", "none", Params(d_k=4096, scaling="sqrt_dk")),
    ("flip", "none", Params(d_k=256, scaling="none")),
    ("autoplay", "none", Params(d_k=4096, scaling="none")),
    ("autoplay", "dk", Params(d_k=1, scaling="dk")),  # ÷d_k: the widest logits are at d_k 1
    ("autoplay", "qk_norm", Params(d_k=1, scaling="qk_norm")),
])
def test_the_held_axis_is_four_sigma_of_the_widest_logits_shown(name, scaling, widest):
    planned = clip(name, Params(d_k=256, scaling=scaling))
    assert planned.held_half == pytest.approx(4 * theory_std(widest))
    assert planned.held_half >= 4 * max(theory_std(f.params) for f in planned.frames) - 1e-9


def test_without_a_closed_form_the_axis_follows_the_logits():
    assert clip("autoplay", Params(scaling="qk_norm", alignment=0.5)).held_half is None


@pytest.mark.parametrize("path,fmt", [("a.gif", "GIF"), ("a.GIF", "GIF"), ("a.png", "PNG"), ("a.apng", "PNG")])
def test_the_file_name_says_the_format(path, fmt):
    assert animation_format(path) == fmt


@pytest.mark.parametrize("path", ["a.webp", "a", "gif"])
def test_another_file_name_is_refused_with_the_endings(path):
    with pytest.raises(ValueError, match=r"\.gif, \.png or \.apng"):
        animation_format(path)


@pytest.mark.parametrize("args,message", [(("wave",), "unknown clip"), (("dk", None, 1.0), "3 to 30 seconds"),
                                          (("dk", None, 8.0, 60.0), "2 to 30 frames")])
def test_a_clip_out_of_range_is_refused_in_one_sentence(args, message):
    with pytest.raises(ValueError, match=message):
        clip(*args)


@pytest.mark.parametrize("step,autoplaying,expected", [(1, False, "dk"), (4, False, "dk-scaled"),
                                                       (2, False, "flip"), (None, False, "flip"),
                                                       (1, True, "autoplay")])
def test_the_suggested_clip_is_what_the_window_shows(step, autoplaying, expected):
    assert suggested_clip(step, autoplaying) == expected
