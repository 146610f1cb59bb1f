"""A screen reader hears what a change did: announcements through Qt's accessibility events,
each panel described by its numbers, and the lesson's reveal said."""

from __future__ import annotations

import re

import pytest
from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent

from sqrtdk_gui.core.attention.compute import compute
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.sweep import sweep
from sqrtdk_gui.core.lesson.spoken import scaled_jacobian, spoken_numbers
from sqrtdk_gui.gui import announce as announcing
from sqrtdk_gui.gui.announce import SETTLE_MS


@pytest.fixture
def heard(monkeypatch, window):
    """Every announcement the ``window`` sends through Qt's accessibility events, as its text
    (another test's window, closed meanwhile, must not speak into this one's)."""
    said: list[str] = []
    real = QAccessible.updateAccessibility

    def listen(event):
        if isinstance(event, QAccessibleAnnouncementEvent) and event.object().window() is window:
            said.append(event.message())
        real(event)

    monkeypatch.setattr(announcing.QAccessible, "updateAccessibility", listen)
    return said


def test_the_sentence_compares_the_jacobian_with_the_scaled_one_measured():
    raw = compute(Params(d_k=512, scaling="none"))
    scaled_sweep = sweep(Params(d_k=512, scaling="sqrt_dk"))
    scaled = scaled_jacobian(scaled_sweep, 512)
    direct = compute(Params(d_k=512, scaling="sqrt_dk")).summary["jacobian_fro"].median
    assert scaled == pytest.approx(direct, rel=0.2)  # the sweep's rows: a subset of the same sample
    text = spoken_numbers(raw, scaled)
    factor = float(re.search(r"norm [\d.e-]+, ([\d\u202f.]+) times below ÷√d_k", text).group(1).replace("\u202f", ""))
    ratio = scaled / raw.summary["jacobian_fro"].median
    assert factor == pytest.approx(ratio, rel=0.05) and ratio > 10
    assert text.startswith(f"σ {raw.logit_std:.3g}; median largest weight {raw.summary['max_weight'].median:.3g}")
    scaled_text = spoken_numbers(compute(Params(d_k=512)), scaled)
    assert "÷√d_k" not in scaled_text and scaled_text.startswith("σ 1")  # its own reference: no comparison
    small = spoken_numbers(compute(Params(d_k=8, scaling="none")), scaled_jacobian(sweep(Params(d_k=8)), 8))
    assert "1.7 times above ÷√d_k" in small  # small heads: raw logits respond more (σ ≈ 2.8)
    assert "about as with ÷√d_k" in spoken_numbers(compute(Params(d_k=1, scaling="none")),
                                                    scaled_jacobian(sweep(Params(d_k=1)), 1))  # ÷√1


def test_a_settled_change_is_announced_once_and_every_panel_describes_its_numbers(window, qtbot, heard):
    window.controller.set_params(d_k=512, scaling="none")
    window.controller.flush()
    window.controller.wait_for_sweeps()
    qtbot.waitUntil(lambda: bool(heard), timeout=10 * SETTLE_MS)
    assert len(heard) == 1 and "σ 22." in heard[0] and "times below ÷√d_k" in heard[0]
    histogram = window.panels["histogram"]
    assert "σ = 22." in histogram.accessibleDescription()
    assert histogram.accessibleDescription().startswith(histogram.full_title)
    window.announcer.settle()  # nothing new: nothing said again
    assert len(heard) == 1
    for d_k in (64, 128, 256):  # a drag: one sentence once it stops, for where it stopped
        window.controller.set_params(d_k=d_k)
        window.controller.flush()
    window.controller.wait_for_sweeps()
    qtbot.waitUntil(lambda: len(heard) == 2, timeout=10 * SETTLE_MS)
    qtbot.wait(2 * SETTLE_MS)
    assert len(heard) == 2 and re.match(r"σ 1[56]\.\d; ", heard[1])  # d_k = 256: σ ≈ √256 = 16


def test_what_an_open_question_covers_is_not_said(window, qtbot, heard):
    # Step 2 asks for the median largest weight: while it is open, the sentence leaves it out,
    # and the covered panel is described by its cover, not by its numbers.
    window.lesson.go_to(2, animate=False)
    window.controller.flush()
    window.controller.wait_for_sweeps()
    window.announcer.settle()
    assert heard and "largest weight" not in heard[-1] and heard[-1].startswith("σ 22.")
    weights = window.panels["weights"]
    assert weights.veiled and weights.accessibleDescription() == weights.veil.text()
    window.lesson.reveal(animate=False)
    window.announcer.settle()
    assert "median largest weight 0.99" in heard[-1]


def test_a_closed_or_offscreen_window_says_nothing(make_window, heard):
    other = make_window()
    other.close()
    other.announcer.settle()
    announcing.announce(other, "not heard")
    assert "not heard" not in heard


def test_the_lesson_reveal_is_said(window, heard):
    window.lesson.go_to(1, animate=False)
    window.lesson.reveal(animate=False)
    assert any(text.startswith("Measured in this sample:") and "σ" in text for text in heard)
