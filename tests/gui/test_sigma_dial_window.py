"""The σ dial page, long-context and low-precision states in the live window, their lesson pages."""

import csv
import math

import numpy as np
import pytest
from PySide6.QtCore import Qt

from sqrtdk_gui.core.attention import sigma_dial
from sqrtdk_gui.core.attention.long_context import TOP_K
from sqrtdk_gui.core.attention.params import DTYPES, Params
from sqrtdk_gui.core.attention.scaling import SCALINGS
from sqrtdk_gui.core.lesson.content import scenario
from sqrtdk_gui.core.lesson.evidence import evidence
from sqrtdk_gui.core.lesson.pages.followup_long_context import LONG_CONTEXT_KEYS
from sqrtdk_gui.gui.export import view as exporting
from sqrtdk_gui.gui.panels.sigma_dial import TABLE_LABELS


def settle(w):
    w.render_ready()
    return w.controller.result


def dial(w):
    return w.panels["sigma_dial"]


def test_the_dial_draws_the_cached_curves_and_each_mode(window):
    window.show_panel_page("sigma_dial")
    r = settle(window)
    panel = dial(window)
    c = sigma_dial.curves(r.params.keys)
    assert panel.curves is c
    j = panel.dial_plots[0]
    np.testing.assert_array_equal(j.median.yData, c.stat("jacobian_fro"))
    np.testing.assert_array_equal(j.high.yData, c.stat("jacobian_fro", "p90"))
    assert panel.markers == pytest.approx({"none": 8.0, "sqrt_dk": 1.0})
    assert [line.value() for line in j.lines[:2]] == pytest.approx([math.log10(8), 0.0])
    x, y = j.dots.getData()  # one dot per mode where it meets the curve
    assert len(x) == len(SCALINGS)
    assert y[SCALINGS.index("sqrt_dk")] == pytest.approx(c.at("jacobian_fro", 1.0))
    lo, hi = j.window.getRegion()
    assert (10**lo, 10**hi) == pytest.approx(c.window)


def test_raw_moves_right_with_dk_scaled_stays_temperature_shifts_both(window):
    window.show_panel_page("sigma_dial")
    settle(window)
    window.controller.set_params(d_k=1024)
    settle(window)
    assert dial(window).markers == pytest.approx({"none": 32.0, "sqrt_dk": 1.0})
    window.controller.set_params(temperature=4.0)
    settle(window)
    assert dial(window).markers == pytest.approx({"none": 8.0, "sqrt_dk": 0.25})
    window.controller.set_params(scaling="log_n", keys=4096)
    settle(window)
    assert dial(window).markers["log_n"] == pytest.approx(2.0 / 4.0)


def test_behind_panels_1_to_4_the_dial_waits_for_its_page(window):
    settle(window)
    window.controller.set_params(d_k=1024)
    settle(window)
    assert dial(window).markers.get("none") != pytest.approx(32.0)  # not drawn while hidden
    window.show_panel_page("sigma_dial")
    assert dial(window).markers == pytest.approx({"none": 32.0, "sqrt_dk": 1.0})


def test_the_curves_change_only_with_the_number_of_keys(window, monkeypatch):
    settle(window)
    panel = dial(window)
    calls = []
    real = panel.show_dial
    monkeypatch.setattr(panel, "show_dial", lambda c: (calls.append(c.keys), real(c)))
    window.controller.dial_changed.disconnect()
    window.controller.dial_changed.connect(panel.show_dial)
    for d in (2, 8, 300, 4096):
        window.controls.dk_spin.setValue(d)
        settle(window)
    assert calls == []
    window.controller.set_params(keys=100)
    settle(window)
    assert calls == [100] and panel.curves.keys == 100


def test_the_lesson_and_the_d_key_bring_the_page_to_front(window, qtbot):
    pages = window.panel_pages
    assert pages.currentIndex() == 0
    window.lesson.choose_scenario("sigma_dial")
    r = settle(window)
    assert pages.currentWidget() is dial(window) and dial(window)._highlighted
    assert r.params == Params(**scenario("sigma_dial").preset)
    table = dial(window).table.text()
    assert all(label in table for label in TABLE_LABELS.values())
    assert "saturated" in table and "responsive" in table and "flat" in table
    window.lesson.go_to(2)
    assert pages.currentIndex() == 0
    window.setFocus()
    qtbot.keyClick(window, Qt.Key.Key_D)
    assert pages.currentWidget() is dial(window)
    qtbot.keyClick(window, Qt.Key.Key_D)
    assert pages.currentIndex() == 0


def test_long_context_evidence_contrasts_the_bug_with_the_technique():
    ev = evidence("long_context", Params(**scenario("long_context").preset))
    assert [int(r[0]) for r in ev.rows] == list(LONG_CONTEXT_KEYS)
    for row in ev.rows:  # dilution: the entropy of ÷√d_k follows log n − ½
        h, log_n = (float(v) for v in row[1].split(" / "))
        assert h == pytest.approx(log_n - 0.5, abs=0.15)
    last = ev.rows[-1]
    cols = {"sqrt_dk": 2, "seq_len": 3, "log_n": 4}
    sigma = {k: float(last[i].split(" / ")[0]) for k, i in cols.items()}
    max_p = {k: float(last[i].split(" / ")[1]) for k, i in cols.items()}
    assert sigma["sqrt_dk"] == pytest.approx(1.0, abs=0.05) and sigma["seq_len"] < 0.05
    assert sigma["log_n"] == pytest.approx(17 / 6, rel=0.03)
    assert max_p["log_n"] > 50 * max_p["sqrt_dk"] > 50 * max_p["seq_len"]


def test_precision_evidence_raw_error_grows_with_dk_scaled_does_not():
    ev = evidence("precision", Params(**scenario("precision").preset))
    assert ev.headers == ("d_k", "bf16 raw", "bf16 ÷√d_k", "e4m3 raw", "e4m3 ÷√d_k", "kernel raw", "kernel ÷√d_k")
    pct = {int(r[0]): [float(c.split()[0]) for c in r[1:]] for r in ev.rows}
    assert pct[1024][0] > 10 * pct[1024][1] and pct[4096][0] > 15  # bf16 raw: over 15 %
    assert max(v[1] for v in pct.values()) < 1.0  # bf16 ÷√d_k: under 1 % at every head size
    assert pct[4][0] < 3 * pct[4][1]  # at d_k = 4 raw and scaled are alike


def test_a_streamed_state_draws_without_warnings(make_window):
    w = make_window(Params(keys=4096, queries=32, dtype="bfloat16"))
    r = settle(w)
    assert r.streamed and r.rows == 32
    assert len(w.panels["weights"].bars.heights) == TOP_K
    assert "top 64 of 4096 keys" in w.panels["weights"].plot.getAxis("bottom").labelText
    assert "not computed" in w.panels["gradient"].readout.text()
    assert w.panels["gradient"].versus.series["none"].band.isVisible() is False
    w.controller.set_row(200)  # beyond the sampled rows: clamped
    assert w.controller.row == 31
    w.controller.set_params(keys=64)
    settle(w)
    assert w.panels["gradient"].versus.series["none"].band.isVisible()
    assert [w.controls.dtype_combo.itemData(i) for i in range(w.controls.dtype_combo.count())] == list(DTYPES)


def test_csv_export_holds_precision_and_the_dial(window, tmp_path):
    window.controller.set_params(dtype="bfloat16", scaling="none", d_k=1024)
    r = settle(window)
    path = tmp_path / "n.csv"
    exporting.export_csv(r, str(path), window.controller.dial)
    with path.open(encoding="utf-8") as f:
        rows = list(csv.reader(f))
    summary = {row[1]: row[2] for row in rows if row[0] == "# summary"}
    assert float(summary["weight_rel_error_p90"]) == r.rel_error_summary.p90
    assert float(summary["weight_max_abs_error"]) == r.weight_max_abs_error
    dial_rows = [row for row in rows if row[0] == "# sigma_dial"]
    assert dial_rows[1][1:4] == ["sigma", "max_weight_median", "max_weight_p10"]
    assert len(dial_rows) == 2 + len(sigma_dial.SIGMA_GRID)
    modes = {row[1]: float(row[2]) for row in rows if row[0] == "# sigma_dial_mode"}
    assert modes["none"] == pytest.approx(32.0) and set(modes) == set(SCALINGS)
    table = [row for row in rows if not row[0].startswith("#")]
    assert table[0][-2:] == ["weight_rel_error", "weight_l1_error"]
    np.testing.assert_array_equal([float(row[-2]) for row in table[1:]], r.weight_rel_error)


def test_identical_logits_draw_without_a_zero_width_normal(make_window):
    # QK-norm, d_k = 1, full alignment: every logit is +g, σ = 0 (found by the hypothesis run).
    w = make_window(Params(d_k=1, keys=2, queries=1, scaling="qk_norm", alignment=1.0))
    r = settle(w)
    assert r.logit_std == 0.0 and not w.panels["histogram"].theory.isVisible()


def test_the_dial_makes_its_plots_when_first_shown_in_the_style_of_that_moment(qtbot):
    """A new window has no dial plots yet (they are made after its first frame or when the
    page is shown); a zoom and theme chosen before are the ones its plots wear, and the
    curves that arrived meanwhile are drawn."""
    from sqrtdk_gui.gui.window.main_window import MainWindow

    window = MainWindow(Params(queries=64, keys=64, d_k=64), threaded=False)
    qtbot.addWidget(window)
    panel = dial(window)
    assert panel.dial_plots == [] and panel.plots() == []
    r = settle(window)
    window.set_zoom(1.5)
    window.set_theme("dark")
    window.show()
    qtbot.waitExposed(window)
    window.show_panel_page("sigma_dial")
    settle(window)
    assert len(panel.dial_plots) == 3
    reference = window.panels["histogram"].plot.getAxis("left")
    for plot in panel.plots():
        axis = plot.getAxis("left")
        assert axis.style["tickFont"].pointSize() == reference.style["tickFont"].pointSize()
        assert axis.pen().color().name() == reference.pen().color().name() == window.style_.palette.fg.lower()
    np.testing.assert_array_equal(panel.dial_plots[0].median.yData,
                                  sigma_dial.curves(r.params.keys).stat("jacobian_fro"))
    assert panel.markers == pytest.approx({"none": 8.0, "sqrt_dk": 1.0})


def test_the_dial_makes_its_plots_soon_after_the_first_frame(qtbot, window):
    qtbot.waitUntil(lambda: len(dial(window).dial_plots) == 3, timeout=60_000)
    assert not dial(window).isVisible()
    window.show_panel_page("sigma_dial")
    settle(window)
    assert dial(window).markers == pytest.approx({"none": 8.0, "sqrt_dk": 1.0})


def test_curves_for_new_keys_behind_panels_1_4_are_drawn_when_the_page_shows(qtbot, window):
    """A lesson page with another n brings new dial curves while panels 1–4 are in front:
    the hidden plots keep their lines until the page shows, then draw the new ones."""
    qtbot.waitUntil(lambda: len(dial(window).dial_plots) == 3, timeout=60_000)
    panel = dial(window)
    before = panel.dial_plots[0].median.yData.copy()
    window.controller.set_params(keys=256)
    r = settle(window)
    qtbot.waitUntil(lambda: panel.curves is not None and panel.curves.keys == 256, timeout=10000)
    assert not panel.isVisible()
    np.testing.assert_array_equal(panel.dial_plots[0].median.yData, before)  # not drawn while hidden
    window.show_panel_page("sigma_dial")
    settle(window)
    c = sigma_dial.curves(r.params.keys)
    for d in panel.dial_plots:
        np.testing.assert_array_equal(d.median.yData, c.stat(d.quantity))
    assert not np.array_equal(before, c.stat("jacobian_fro"))
