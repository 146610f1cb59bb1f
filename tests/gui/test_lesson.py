"""The lesson: steps apply their presets, traps show their defining numbers, keys navigate."""

import math
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt, QVariantAnimation

from sqrtdk_gui.core import i18n
from sqrtdk_gui.core.attention.compute import compute
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.lesson.content import SCENARIOS, STEPS, scenario
from sqrtdk_gui.core.lesson.evidence import evidence
from sqrtdk_gui.core.lesson.figures import fill, quote, quote_bounds
from sqrtdk_gui.core.lesson.measure import aligned_gap
from sqrtdk_gui.core.lesson.pages.trap_small_heads import small_heads_gap
from sqrtdk_gui.gui.lesson.presenter import page_params

ROOT = Path(__file__).resolve().parents[2]


def settle(w):
    w.render_ready()  # finish any sweep animation, compute now, sweeps synchronously
    return w.controller.result


def highlighted(w):
    names = {"histogram": w.panels["histogram"], "weights": w.panels["weights"], "jacobian": w.panels["jacobian"],
             "gradient": w.panels["gradient"]}
    out = {n for n, p in names.items() if p._highlighted}
    return out


@pytest.mark.parametrize("step", STEPS, ids=lambda s: f"step{s.number}")
def test_each_step_applies_its_preset_and_highlights(window, step):
    window.lesson.go_to(step.number)
    assert not window.lesson_pane.answer_visible
    window.lesson_pane.reveal_button.click()  # blind until the reveal: then the step's end state
    result = settle(window)
    assert window.controller.params == Params(**step.preset)
    assert result.params == Params(**step.preset)
    assert highlighted(window) == set(step.highlight) - {"summary"}
    assert window.windowTitle() == f"sqrtdk-gui — Step {step.number}/5: {step.title}"
    assert window.lesson_pane.caption.text() == f"Step {step.number} of 5"
    assert window.lesson_pane.question.text() == fill(step.question)
    assert window.lesson_pane.answer_visible and window.lesson_pane.answer.text() == fill(step.answer)
    shown = window.lesson_pane.text.toPlainText() + window.lesson_pane.question.text() + window.lesson_pane.answer.text()
    assert "{" not in shown and "}" not in shown


def test_step_one_animates_dk_up_to_512_and_a_control_stops_it(window, qtbot):
    window.lesson.go_to(1)
    assert not window.animator.running  # blind: the sweep waits for the reveal
    window.lesson_pane.reveal_button.click()
    assert window.animator.running
    # A fifth into the 5-second sweep, set on the animation's own clock: a loaded machine
    # that stalls the event loop for seconds cannot have run it to its end meanwhile.
    sweep = window.animator.findChild(QVariantAnimation)
    sweep.pause()
    sweep.setCurrentTime(sweep.duration() // 5)
    sweep.resume()
    assert window.animator.running and 1 < window.controller.params.d_k < 512
    window.controls.temp_slider.setValue(-10)  # the teacher takes over
    assert not window.animator.running
    d_k = window.controller.params.d_k
    qtbot.wait(200)
    assert window.controller.params.d_k == d_k < 512


# The numbers in the answers are the model's numbers, quoted as ranges over seeds that
# include the seed the app starts with.
def test_answers_quote_the_model():
    r1 = compute(Params(**STEPS[0].preset))
    assert r1.theory_std == pytest.approx(22.6, abs=0.05) and "22.6" in STEPS[0].answer
    lo, hi = quote_bounds("step1_sigma_512")
    assert lo <= r1.logit_std <= hi and quote("step1_sigma_512") in fill(STEPS[0].answer)
    r2 = compute(Params(**STEPS[1].preset))
    lo, hi = quote_bounds("step2_saturated")
    assert lo <= 100 * r2.saturated_fraction <= hi and quote("step2_saturated") in fill(STEPS[1].answer)
    lo, hi = quote_bounds("step2_entropy")
    assert lo <= r2.summary["entropy"].median <= hi
    raw = compute(Params(**STEPS[2].preset))
    scaled = compute(Params(**STEPS[2].preset).replace(scaling="sqrt_dk"))
    ratio = scaled.summary["grad_q"].median / raw.summary["grad_q"].median
    lo, hi = quote_bounds("step3_grad_ratio")
    assert lo <= ratio <= hi and quote("step3_grad_ratio") in fill(STEPS[2].answer)
    lo, hi = quote_bounds("step3_grad_scaled")
    assert lo <= scaled.summary["grad_q"].median <= hi and quote("step3_grad_scaled") in fill(STEPS[2].question)
    for d in (4, 512, 4096):
        assert compute(Params(d_k=d, scaling="sqrt_dk")).theory_std == 1.0


def test_trap_dmodel_flattens_attention(window):
    window.lesson.choose_scenario("dmodel")
    r = settle(window)
    assert r.params.scaling == "sqrt_dmodel" and r.params.heads == 8
    assert r.summary["entropy"].median > 0.98 * r.log_n
    assert window.summary.labels["entropy"].text() == f"{r.summary['entropy'].median:.2f}"
    assert f"{r.log_n:.2f}" in window.summary.captions["entropy"].text()
    assert window.windowTitle().startswith("sqrtdk-gui — Trap: ")


def test_trap_after_softmax_row_sum_is_one_over_sqrt_dk(window):
    window.lesson.choose_scenario("after_softmax")
    r = settle(window)
    assert f"sum {1 / math.sqrt(r.params.d_k):.3f}, not 1" in window.panels["weights"].readout.text()
    assert "0.0625" in window.lesson_pane.text.toPlainText()


def test_trap_stable_softmax_reports_what_each_program_returns(window):
    window.lesson.choose_scenario("stable_softmax")
    r = settle(window)
    assert r.overflow_count > 0
    ev = evidence("stable_softmax", r.params)
    rows = {row[0]: row for row in ev.rows}
    naive16, stable16, naive32, stable32 = (rows[k] for k in ("naive f16", "stable f16", "naive f32", "stable f32"))
    # Naive float16 overflows in every row here: no weights at all, so no statistics either.
    n = r.params.queries
    nan_rows = int(np.sum(~np.isfinite(r.weights).all(axis=1)))
    assert nan_rows == n and naive16[1] == str(n) and naive16[2:] == ("NaN",) * 3
    assert stable16[1] == "0" and stable32[1] == "0"
    # Where naive float32 stays finite it agrees with the stable program to float32 rounding.
    assert float(naive32[4]) < 1e-6
    assert stable32[2] == f"{r.summary['max_weight'].median:.3f}"  # the stable program: the true softmax
    row = int(np.flatnonzero(~np.isfinite(r.weights).all(axis=1))[0])
    window.controller.set_row(row)
    assert window.panels["weights"].overflow.isVisible()
    text = window.lesson_pane.text.toPlainText()
    assert naive16[1] in text and "NaN rows" in text and "11.09" in text


def test_trap_seq_len_spread_does_not_depend_on_n(window):
    window.lesson.choose_scenario("seq_len")
    r = settle(window)
    ev = evidence("seq_len", r.params)
    scaled = [float(row[1]) for row in ev.rows]
    by_n = [float(row[2]) for row in ev.rows]
    assert max(scaled) / min(scaled) < 1.05  # n does not enter a logit's variance
    assert by_n[0] / by_n[-1] == pytest.approx(8.0, rel=0.05)  # ÷√n moves σ with n
    # Multiplying by log_64 n (only past n = 64) keeps more weight on the top key than ÷√d_k alone.
    for row in ev.rows:
        assert (float(row[4]) > float(row[3])) if int(row[0]) > 64 else (row[4] == row[3])


def test_trap_small_heads_chart_is_the_sweep_gap(window):
    window.lesson.choose_scenario("small_heads")
    r = settle(window)
    x, y = small_heads_gap(r.params)
    cx, cy = window.lesson_pane.chart_curve.xData, window.lesson_pane.chart_curve.yData
    np.testing.assert_array_equal(cx, x)
    np.testing.assert_array_equal(cy, y)
    assert window.lesson_pane.chart.isVisible()
    small = y[(x >= 2) & (x <= 32)]
    assert np.all((small > 0.4) & (small < 1.0)) and y[-1] > 1e6  # raw is the more responsive one there
    ev = evidence("small_heads", r.params)
    for row in ev.rows:
        assert row[4] == ("raw" if float(row[3].rstrip("×")) < 1 else "÷√d_k")
    assert ev.rows[0][4] == "raw" and ev.rows[-1][4] == "÷√d_k"


@pytest.mark.parametrize("key", ["temperature", "qk_norm", "mup", "sigma_dial", "precision", "long_context"])
def test_follow_ups_show_their_evidence(window, key):
    window.lesson.choose_scenario(key)
    r = settle(window)
    assert r.params == Params(**scenario(key).preset)
    ev = evidence(key, r.params)
    text = window.lesson_pane.text.toPlainText()
    for row in ev.rows:
        assert all(cell in text for cell in row)
    assert "{" not in text
    if key == "qk_norm":
        assert np.abs(r.logits).max() <= r.params.gain  # logits stay in [-g, g]
        assert all(row[4] == "100 %" for row in ev.rows[1:])  # aligned: the right key wins
    if key == "mup":
        gaps = [aligned_gap(compute(r.params.replace(d_k=d, temperature=1.0))) for d in (64, 256, 1024, 4096)]
        assert max(gaps) - min(gaps) < 0.05  # ÷d_k holds the aligned gap at rho
        assert ev.rows[0][1] == ev.rows[0][3]  # 8/d_k equals ÷√d_k at d_k = 64
        assert float(ev.rows[-1][2]) < 2 / 64  # plain ÷d_k: barely above uniform
    if key == "temperature":
        sigmas = [float(row[1]) for row in ev.rows]
        assert sigmas == [math.sqrt(int(row[0])) / r.params.temperature for row in ev.rows]


def _key(qtbot, key):
    """A key press sent where the keyboard focus is, as a real keyboard or clicker would."""
    from PySide6.QtWidgets import QApplication

    qtbot.keyClick(QApplication.focusWidget() or QApplication.activeWindow(), key)


def test_keyboard_navigation_including_clicker_keys(window, qtbot):
    qtbot.waitUntil(lambda: window.live_page.hasFocus(), timeout=60_000)  # a fresh start: no control holds keys
    _key(qtbot, Qt.Key.Key_Right)
    assert window.lesson.step == 1 and not window.lesson.revealed
    _key(qtbot, Qt.Key.Key_Space)  # at an open question the next press reveals ...
    assert window.lesson.step == 1 and window.lesson.revealed and window.lesson_pane.answer_visible
    _key(qtbot, Qt.Key.Key_Space)  # ... and the one after moves on
    assert window.lesson.step == 2
    _key(qtbot, Qt.Key.Key_Return)  # the reveal key
    assert window.lesson.revealed
    _key(qtbot, Qt.Key.Key_PageDown)
    assert window.lesson.step == 3
    _key(qtbot, Qt.Key.Key_PageUp)
    assert window.lesson.step == 2
    _key(qtbot, Qt.Key.Key_Left)
    assert window.lesson.step == 1
    _key(qtbot, Qt.Key.Key_End)
    assert window.lesson.step == 5
    _key(qtbot, Qt.Key.Key_Home)
    assert window.lesson.step == 1
    _key(qtbot, Qt.Key.Key_4)
    assert window.lesson.step == 4
    assert window.controller.params.scaling == "sqrt_dk"
    assert window.tabs.currentIndex() == 0  # the outer tab bar never took an arrow


def test_a_clicker_alone_reveals_every_answer_and_walks_every_page(window, qtbot):
    from sqrtdk_gui.core.lesson.content import SCENARIOS, STEPS

    seen, closing = [], []
    for _ in range(3 * len(STEPS) + len(SCENARIOS) + 2):
        _key(qtbot, Qt.Key.Key_PageDown)
        lesson = window.lesson
        seen.append((lesson.step, lesson.scenario.key if lesson.scenario else None,
                     lesson.answer_shown))
        closing.append(lesson.closing)
    steps = [(n, None, shown) for n in range(1, len(STEPS) + 1) for shown in (False, True)]
    assert seen[:len(steps)] == steps  # every step, first its question, then its answer
    pages = len(steps) + len(SCENARIOS)
    assert [k for _, k, _ in seen[len(steps):pages]] == [s.key for s in SCENARIOS]
    assert closing[pages:] == [True] * (len(seen) - pages) and not any(closing[:pages])  # then the end, which stays
    assert not window.lesson_pane.next_button.isEnabled() and window.lesson_pane.previous_button.isEnabled()
    _key(qtbot, Qt.Key.Key_PageUp)
    assert window.lesson.scenario.key == SCENARIOS[-1].key and not window.lesson.closing
    for _ in range(len(SCENARIOS)):
        _key(qtbot, Qt.Key.Key_PageUp)
    assert window.lesson.scenario is None and window.lesson.step == len(STEPS)


def test_typing_guesses_keeps_the_keys_and_return_reveals(window, qtbot):
    window.lesson.go_to(1)
    box = window.lesson_pane.guesses
    box.setFocus()
    qtbot.keyClicks(box, "22,6 ")
    _key(qtbot, Qt.Key.Key_Left)  # the text cursor moves; the lesson does not
    _key(qtbot, Qt.Key.Key_Space)
    assert window.lesson.step == 1 and not window.lesson.revealed and box.text() == "22,6  "
    _key(qtbot, Qt.Key.Key_Return)
    assert window.lesson.revealed


def test_a_focused_slider_keeps_its_arrows_but_clicker_keys_still_navigate(window, qtbot):
    window.lesson.go_to(2)
    slider = window.controls.dk_slider
    slider.setFocus()
    before = slider.value()
    qtbot.keyClick(slider, Qt.Key.Key_Right)
    assert slider.value() == before + 1 and window.lesson.step == 2
    qtbot.keyClick(slider, Qt.Key.Key_PageDown)
    assert window.lesson.step == 2 and window.lesson.revealed
    assert window.live_page.hasFocus()  # a lesson move hands the keys back to the page
    _key(qtbot, Qt.Key.Key_PageDown)
    assert window.lesson.step == 3


def test_blank_and_escape(window, qtbot):
    _key(qtbot, Qt.Key.Key_B)
    assert window.blanked and window.blank.geometry() == window.rect()
    _key(qtbot, Qt.Key.Key_PageDown)  # the first press only brings the picture back
    assert not window.blanked and window.lesson.step == 0
    _key(qtbot, Qt.Key.Key_Period)
    assert window.blanked
    _key(qtbot, Qt.Key.Key_Escape)
    assert not window.blanked
    window.presentation.enter()
    _key(qtbot, Qt.Key.Key_Escape)
    assert not window.presentation.active


def test_scenarios_return_to_step_five(window):
    window.lesson.go_to(5)
    assert window.lesson_pane.scenarios.isVisibleTo(window.lesson_pane)
    window.lesson_pane.scenario_buttons["qk_norm"].click()
    assert window.lesson.scenario.key == "qk_norm"
    window.lesson_pane.previous_button.click()
    assert window.lesson.scenario is None and window.lesson.step == 5


def test_every_lesson_text_loads_and_stays_offline():
    from sqrtdk_gui.core.lesson.texts import PAGES_PACKAGE, page_languages, read_page

    folder = ROOT / PAGES_PACKAGE.replace(".", "/")
    files = {p.name for p in folder.glob("*.html")}  # English; a folder per language holds the translations
    used = {s.resource for s in STEPS} | {s.resource for s in SCENARIOS}
    assert files == used
    for name in files:
        assert page_languages(name) == tuple(i18n.LANGUAGES), name
        for lang in page_languages(name):
            text = read_page(name, lang)
            assert len(text) > 200, (name, lang)
            assert not re.search(r"https?://|www\.|<script|<img|<link|@import|src=", text, re.I), (name, lang)


@pytest.mark.parametrize("argv", [["--step", "9"], ["--step", "x"], ["--scenario", "bogus"]])
def test_bad_lesson_flags_exit_2(argv):
    done = subprocess.run([sys.executable, "-m", "sqrtdk_gui", *argv], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1


def test_step_flag_with_screenshot(tmp_path):
    out = tmp_path / "s3.png"
    done = subprocess.run([sys.executable, "-m", "sqrtdk_gui", "--screenshot", str(out), "--step", "3",
                           "--size", "1280x720"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert out.stat().st_size > 10_000


def test_links_between_pages_open_the_linked_follow_up(window):
    from PySide6.QtCore import QUrl

    window.lesson.go_to(2)
    window.lesson_pane.reveal_button.click()
    assert 'href="scenario:sigma_dial"' in window.lesson_pane.text.toHtml()
    window.lesson_pane.text.anchorClicked.emit(QUrl("scenario:sigma_dial"))
    assert window.lesson.scenario is not None and window.lesson.scenario.key == "sigma_dial"
    window.lesson_pane.text.anchorClicked.emit(QUrl("https://example.org"))  # offline: ignored
    assert window.lesson.scenario.key == "sigma_dial"


def test_the_page_says_when_this_sample_falls_outside_a_quoted_range(window):
    # Seeds 33 and 48, New samples the quotes were not built from: step 3's question quotes the
    # ÷√d_k gradient (outside for seed 33), its hidden text the crossover d_k (outside for 48).
    from sqrtdk_gui.core.lesson.figures import figure_values, inside

    assert not inside("step3_grad_scaled", figure_values("step3_grad_scaled", 33))
    assert not inside("step3_crossover", figure_values("step3_crossover", 48))
    pane = window.lesson_pane
    window.lesson.go_to(3)
    assert "This sample" not in pane.text.toPlainText()  # seed 0 is inside every range
    window.controller.set_params(seed=33)
    open_text = pane.text.toPlainText()
    assert "This sample (seed 33) gives" in open_text and "median ‖∂L/∂q‖ with ÷√d_k" in open_text
    window.controller.set_params(seed=48)
    assert "falls below ÷√d_k" not in pane.text.toPlainText()  # blind: the hidden text's figure waits
    pane.reveal_button.click()
    revealed = pane.text.toPlainText()
    assert "This sample (seed 48) gives" in revealed and "falls below ÷√d_k" in revealed
    assert quote("step3_crossover") in revealed
    window.controller.set_params(seed=0)
    assert "This sample" not in pane.text.toPlainText()
    assert pane.answer_visible  # the sample changed, the revealed answer stays


def test_new_sample_on_a_trap_recomputes_its_table(window, qtbot):
    window.lesson.choose_scenario("dmodel")
    window.render_ready()
    before = window.lesson_pane.text.toPlainText()
    window.controller.set_params(seed=5)
    qtbot.waitUntil(lambda: "Measuring the table" not in window.lesson_pane.text.toPlainText(), timeout=10000)
    after = window.lesson_pane.text.toPlainText()
    assert after != before
    assert evidence("dmodel", window.controller.params).rows[0][1] in after


def test_a_table_not_at_hand_follows_its_page_and_is_never_built_in_the_gui_thread(window, qtbot, monkeypatch):
    import threading

    from sqrtdk_gui.core.lesson import evidence as evidence_module

    built_in = []
    real = evidence_module._build
    monkeypatch.setattr(evidence_module, "_build",
                        lambda *a: built_in.append(threading.current_thread().name) or real(*a))
    window.lesson.choose_scenario("dmodel")
    window.controller.set_params(seed=424_242)  # a sample no test has built a table for
    pane = window.lesson_pane
    assert "Measuring the table" in pane.text.toPlainText()  # the page is there, its table follows
    qtbot.waitUntil(lambda: "Measuring the table" not in pane.text.toPlainText(), timeout=10000)
    assert all(cell in pane.text.toPlainText() for cell in evidence("dmodel", window.controller.params).rows[0])
    assert built_in and all(name.startswith("sqrtdk-evidence") for name in built_in), built_in


def test_the_clicker_s_next_page_has_its_table_built_while_this_one_is_on(window, qtbot):
    from sqrtdk_gui.core.lesson import evidence as evidence_module
    from sqrtdk_gui.core.lesson.evidence import cached_evidence

    with evidence_module._lock:  # no table built by an earlier test
        evidence_module.clear_cache()
    window.lesson.go_to(STEPS[-1].number, animate=False)  # step 5: the traps come next
    first = SCENARIOS[0]
    qtbot.waitUntil(lambda: cached_evidence(first.key, Params(**first.preset)) is not None, timeout=10000)
    window.lesson.advance()  # reveal step 5's answer if open, then on to the first trap
    window.lesson.advance()
    assert window.lesson.scenario is not None and window.lesson.scenario.key == first.key
    assert "Measuring the table" not in window.lesson_pane.text.toPlainText()
    second = SCENARIOS[1]  # and the one after it is being built now
    qtbot.waitUntil(lambda: cached_evidence(second.key, Params(**second.preset)) is not None, timeout=10000)


def test_a_render_has_the_whole_page_with_its_table(window):
    window.lesson.choose_scenario("dmodel")
    window.controller.set_params(seed=737_373)
    window.render_ready()
    text = window.lesson_pane.text.toPlainText()
    assert "Measuring the table" not in text
    assert evidence("dmodel", window.controller.params).rows[0][1] in text


def test_the_views_a_page_may_name_are_the_windows_views():
    from sqrtdk_gui.core.lesson.page import PANELS
    from sqrtdk_gui.gui.panels import LIVE_PANELS, PAGE_PANELS

    assert set(PANELS) == {"summary"} | {cls.name for cls in (*LIVE_PANELS, *PAGE_PANELS)}


def test_a_page_naming_a_view_that_does_not_exist_fails_at_import():
    from sqrtdk_gui.core.lesson.page import Scenario, Step

    with pytest.raises(ValueError, match="'histogramm' is not a view"):
        Scenario("x", "trap", "X", "x.html", "X", highlight=("histogramm",))
    with pytest.raises(ValueError, match="'weight' is not a view"):
        Step(9, "X", "x.html", "q", "a", covers=("weight",))
    Step(9, "X", "x.html", "q", "a", covers=("summary.sigma", "gradient"))  # fine


def test_every_page_is_one_module_with_its_text_and_what_it_quotes():
    from sqrtdk_gui.core.lesson.figures import FIGURES, placeholders
    from sqrtdk_gui.core.lesson.pages import PAGES

    for page in PAGES:
        name = page.__name__.rsplit(".", 1)[1]
        assert page.PAGE.resource == f"{name}.html", name  # the module is named after its text
    # Every figure lives with the first page whose text quotes it (the step texts and the HTML).
    owners = {f.key: page for page in PAGES for f in (page.FIGURES.items if hasattr(page, "FIGURES") else ())}
    html = {page: (Path(page.__file__).with_suffix(".html")).read_text(encoding="utf-8")
            for page in PAGES}
    for key, owner in owners.items():
        quoting = [p for p in PAGES
                   if key in placeholders(html[p] + getattr(p.PAGE, "question", "") + getattr(p.PAGE, "answer", ""))]
        assert not quoting or quoting[0] is owner, (key, owner.__name__, quoting[0].__name__)
    assert set(owners) == set(FIGURES)


def test_page_params_are_the_parameters_a_page_shows_once_entered(make_window):
    # Exports compute a page's numbers from page_params before they enter it.
    window = make_window(threaded=False)
    for step in STEPS:
        window.lesson.go_to(step.number, animate=False)
        window.lesson.reveal(animate=False)
        assert window.controller.params == page_params(step=step.number), step.number
    for s in SCENARIOS:
        window.lesson.choose_scenario(s.key)
        assert window.controller.params == page_params(scenario=s.key), s.key
