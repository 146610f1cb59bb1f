"""The live window: every control reaches the model, every panel shows what it computed."""

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage

from sqrtdk_gui import __version__
from sqrtdk_gui.core.attention.compute import compute
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.plotdata import clamp_positive, density_histogram, sorted_weights, top_block
from sqrtdk_gui.core.attention.softmax import jacobian_matrix
from sqrtdk_gui.core.attention.sweep import sweep
from sqrtdk_gui.gui.panels.histogram import BINS
from sqrtdk_gui.gui.panels.jacobian import LEVEL, sign_colour_map
from sqrtdk_gui.gui.window.about import about_html
from sqrtdk_gui.gui.window.controls import dk_from_pos, pos_from_dk, temperature_from_pos

SMALL = Params(queries=128, keys=32)


@pytest.fixture
def window_params():
    return SMALL


def settle(qtbot, w):
    """Let the coalescing timer fire and the sweeps arrive."""
    w.controller.flush()
    key = w.controller.params.replace(d_k=1)
    qtbot.waitUntil(lambda: w.controller.sweeps_for == key, timeout=20000)
    return compute(w.controller.params)


def assert_panels_show(w, expected):
    """Compare what the panels hold with a fresh computation of the same parameters."""
    row = expected.resolve_row(w.controller.row)
    # 1: histogram bars are the density of the model's logits on the panel's own bins.
    edges, density = w.panels["histogram"].bars.getData()
    _, want = density_histogram(expected.logits.ravel(), edges[-1], BINS)
    np.testing.assert_allclose(density, want)
    assert f"σ = {expected.logit_std:.2f}" in w.panels["histogram"].readout.text()
    # The ghost: the raw q·k of the same vectors (÷√d_k of them behind raw logits).
    ghost_scaling = "sqrt_dk" if expected.params.scaling == "none" else "none"
    ghost = compute(expected.params.replace(scaling=ghost_scaling)).logits
    _, want_ghost = density_histogram(ghost.ravel(), edges[-1], BINS)
    np.testing.assert_allclose(w.panels["histogram"].ghost.getData()[1], want_ghost)
    x, pdf = w.panels["histogram"].theory.getData()
    assert w.panels["histogram"].theory.isVisible() == (expected.theory_pdf(x) is not None)
    if expected.theory_pdf(x) is not None:
        np.testing.assert_allclose(pdf, expected.theory_pdf(x))
    if expected.params.alignment == 0 and expected.params.d_k >= 64 and expected.params.scaling != "qk_norm":  # near its normal limit
        assert pdf.max() == pytest.approx(1 / (expected.theory_std * np.sqrt(2 * np.pi)), rel=0.02)
    # 2: sorted weights of the selected row.
    heights = sorted_weights(expected.weights[row])
    np.testing.assert_allclose(w.panels["weights"].bars.heights, np.where(np.isfinite(heights), heights, 0))
    weights_text = w.panels["weights"].readout.text()
    assert weights_text.startswith(expected.row_label(w.controller.row))
    assert f"{expected.max_weight[row]:.3f}" in weights_text or "no weights" in weights_text
    # 3: the Jacobian block of the selected row and its norm.
    block, _ = top_block(jacobian_matrix(expected.p[row]), expected.p[row], min(12, expected.params.keys))
    jacobian = w.panels["jacobian"]
    np.testing.assert_allclose(jacobian.shown_block, block)
    # ... in the colours pyqtgraph itself gives J through the panel's table and levels ±LEVEL
    reference = pg.ImageItem(axisOrder="row-major")
    reference.setLookupTable(sign_colour_map(w.style_.palette.bg).getLookupTable(nPts=256))
    reference.setImage(block, levels=(-LEVEL, LEVEL))
    reference.render()
    drawn = []
    for qimage in (reference.qimage, jacobian.image.qimage):
        image = qimage.convertToFormat(QImage.Format.Format_ARGB32)
        drawn.append([[image.pixel(x, y) for x in range(image.width())] for y in range(image.height())])
    assert drawn[0] == drawn[1]
    assert f"‖J‖_F {expected.jacobian_fro[row]:.1e}" in w.panels["jacobian"].readout.text()
    # 4 and the summary strip.
    assert f"median {expected.summary['grad_q'].median:.1e}" in w.panels["gradient"].readout.text()
    assert w.summary.labels["sigma"].text() == f"{expected.logit_std:.2f}"
    assert w.summary.labels["saturated"].text() == f"{100 * expected.saturated_fraction:.0f} %"
    assert w.summary.labels["jacobian"].text() == f"{expected.summary['jacobian_fro'].median:.1e}"
    # Sweeps: the raw median ||dL/dq|| curve is the model's sweep.
    sw = sweep(expected.params.replace(scaling="none"))
    ys = w.panels["gradient"].versus.series["none"].median.yData  # data as given (getData is log10 here)
    np.testing.assert_allclose(ys, clamp_positive(sw.stat("grad_q", "median"), 1e-10))


@pytest.mark.parametrize("d_k", [1, 2, 4])
def test_theory_curve_is_the_exact_law_not_its_normal_limit(qtbot, window, d_k):
    # At small d_k q·k is far from normal (at d_k = 1 its density is infinite at 0): the
    # drawn curve must follow the sampled histogram much better than N(0, d_k) does.
    window.controller.set_params(d_k=d_k, scaling="none", queries=1024, keys=64)
    expected = settle(qtbot, window)
    edges, density = window.panels["histogram"].bars.getData()
    centres = 0.5 * (edges[:-1] + edges[1:])
    exact = expected.theory_pdf(centres + 1e-9)
    normal = np.exp(-0.5 * centres**2 / d_k) / np.sqrt(2 * np.pi * d_k)
    away = np.abs(centres) > 0.2 * np.sqrt(d_k)  # the log spike at 0 needs bin averages
    err_exact = np.abs(exact - density)[away].mean()
    err_normal = np.abs(normal - density)[away].mean()
    assert err_exact < 0.5 * err_normal, (err_exact, err_normal)


def test_qk_norm_ghost_is_the_raw_logits(qtbot, window):
    window.controller.set_params(d_k=1024, scaling="qk_norm")
    expected = settle(qtbot, window)
    assert_panels_show(window, expected)
    _, ghost = window.panels["histogram"].ghost.getData()
    assert ghost.max() < 0.05  # raw logits spread over ±4σ of the gain·cosines: a low, wide ghost


def test_default_window_shows_the_model(qtbot, window):
    assert_panels_show(window, settle(qtbot, window))


def test_panels_two_and_three_show_the_median_row_until_a_query_is_chosen(qtbot, window):
    window.controller.set_params(d_k=512, scaling="none")
    expected = settle(qtbot, window)
    fro = expected.jacobian_fro
    row = expected.resolve_row(window.controller.row)
    # The row shown is typical: its ‖J‖_F is the median, not a tail case like query 0 can be.
    assert fro[row] == pytest.approx(np.sort(fro)[(fro.size - 1) // 2], rel=0, abs=0)
    assert window.panels["jacobian"].readout.text().startswith(f"query {row} (median): ‖J‖_F {fro[row]:.1e}")
    assert window.controls.row_spin.text() == "median row"
    window.controls.row_spin.setValue(0)
    assert window.panels["jacobian"].readout.text().startswith(f"query 0: ‖J‖_F {fro[0]:.1e}")
    assert window.windowTitle() == "sqrtdk-gui" and not window.windowIcon().isNull()


@pytest.mark.parametrize("pos", [0, 24, 72, 96])
def test_dk_slider(qtbot, window, pos):
    window.controls.dk_slider.setValue(pos)
    assert window.controller.params.d_k == dk_from_pos(pos)
    assert_panels_show(window, settle(qtbot, window))
    assert window.controls.dk_spin.value() == dk_from_pos(pos)


def test_dk_spin_box_takes_any_integer(qtbot, window):
    window.controls.dk_spin.setValue(300)
    assert window.controller.params.d_k == 300
    assert window.controls.dk_slider.value() == pos_from_dk(300)
    assert_panels_show(window, settle(qtbot, window))


def test_temperature_slider_and_reset(qtbot, window):
    window.controls.temp_slider.setValue(-40)
    assert window.controller.params.temperature == pytest.approx(temperature_from_pos(-40))
    assert_panels_show(window, settle(qtbot, window))
    qtbot.mouseClick(window.controls.temp_reset, Qt.MouseButton.LeftButton)
    assert window.controller.params.temperature == 1.0
    assert window.controls.temp_slider.value() == 0
    assert "τ = 1.00" in window.controls.temp_label.text()


def test_raw_and_scaled_switch(qtbot, window):
    window.controls.dk_spin.setValue(512)
    qtbot.mouseClick(window.controls.raw_button, Qt.MouseButton.LeftButton)
    assert window.controller.params.scaling == "none"
    raw = settle(qtbot, window)
    assert_panels_show(window, raw)
    assert raw.logit_std == pytest.approx(np.sqrt(512), rel=0.05)
    qtbot.mouseClick(window.controls.scaled_button, Qt.MouseButton.LeftButton)
    assert window.controller.params.scaling == "sqrt_dk"
    assert window.controls.scaled_button.isChecked() and not window.controls.raw_button.isChecked()
    scaled = settle(qtbot, window)
    assert_panels_show(window, scaled)
    assert scaled.logit_std == pytest.approx(1.0, rel=0.05)
    # Clicking the active side keeps it on: it is a switch, not a toggle.
    qtbot.mouseClick(window.controls.scaled_button, Qt.MouseButton.LeftButton)
    assert window.controls.scaled_button.isChecked()


def test_scaling_drop_down_offers_every_mode(qtbot, window):
    combo = window.controls.scaling_combo
    combo.setCurrentIndex(combo.findData("after_softmax"))
    assert window.controller.params.scaling == "after_softmax"
    expected = settle(qtbot, window)
    assert_panels_show(window, expected)
    assert not window.controls.raw_button.isChecked() and not window.controls.scaled_button.isChecked()
    assert "after_softmax" in window.controller.sweeps  # its curve joins raw and ÷√d_k
    assert f"sum {1 / np.sqrt(64):.3f}, not 1" in window.panels["weights"].readout.text()


def test_keys_row_seed_and_new_sample(qtbot, window):
    c = window.controls
    c.keys_spin.setValue(100)
    c.row_spin.setValue(7)
    assert (window.controller.params.keys, window.controller.row) == (100, 7)
    assert_panels_show(window, settle(qtbot, window))
    c.seed_spin.setValue(5)
    qtbot.mouseClick(c.new_sample, Qt.MouseButton.LeftButton)
    assert window.controller.params.seed == 6 and c.seed_spin.value() == 6
    assert_panels_show(window, settle(qtbot, window))


def test_more_parameters_reach_the_model(qtbot, window):
    c = window.controls
    c.heads_spin.setValue(4)
    c.softmax_combo.setCurrentIndex(c.softmax_combo.findData("naive"))
    c.dtype_combo.setCurrentIndex(c.dtype_combo.findData("float16"))
    c.align_spin.setValue(0.3)
    c.gain_spin.setValue(7.0)
    assert window.controller.params == SMALL.replace(heads=4, softmax="naive", dtype="float16",
                                                     alignment=0.3, gain=7.0)
    assert_panels_show(window, settle(qtbot, window))


def test_overflow_is_marked_not_drawn_broken(qtbot, window):
    window.controller.set_params(d_k=512, scaling="none", softmax="naive", dtype="float16")
    expected = settle(qtbot, window)
    row = int(np.flatnonzero(~np.isfinite(expected.weights).all(axis=1))[0])
    window.controller.set_row(row)
    assert window.panels["weights"].overflow.isVisible()
    assert "OVERFLOW" in window.panels["weights"].overflow.toPlainText()
    assert np.isfinite(window.panels["weights"].bars.heights).all()  # no NaN reaches the plot
    assert "exp(z) overflowed in float16: no weights" in window.panels["weights"].readout.text()
    # The strip's statistics are the exact softmax's: it says so, with the program's failures.
    captions = {k: c.text() for k, c in window.summary.captions.items()}
    assert captions["max_weight"] == "max weight (exact)" and captions["jacobian"] == "‖J‖_F (exact)"
    assert captions["saturated"] == "saturated (exact)" and captions["entropy"].startswith("entropy, exact")
    assert captions["sigma"] == "σ of logits"  # the program's input, not its output
    assert f"NaN in {expected.failed_rows} of" in window.summary.captions["jacobian"].toolTip()
    window.controller.set_params(softmax="stable")
    settle(qtbot, window)
    assert not window.panels["weights"].overflow.isVisible()
    assert window.summary.captions["jacobian"].text() == "median ‖J‖_F"


def test_a_thousand_slider_moves_compute_far_fewer_times(qtbot, window):
    settle(qtbot, window)
    before = window.controller.compute_count
    slider = window.controls.dk_slider
    for i in range(1000):
        slider.setValue(i % 97)
    last = dk_from_pos(999 % 97)
    expected = settle(qtbot, window)
    assert window.controller.compute_count - before <= 2
    assert expected.params.d_k == last
    assert_panels_show(window, expected)


def test_menus_and_about(window):
    titles = [a.text() for a in window.menuBar().actions()]
    assert titles == ["&File", "&Edit", "Less&on", "&View", "&Help"]
    text = about_html()
    assert __version__ in text and "pyqtgraph" in text and "MIT" in text
    window.actions.raw.trigger()
    assert window.controller.params.scaling == "none"
    window.render_ready()
    assert window.status_label.text().startswith("d_k = 64 · raw logits")


def test_aligned_logits_stay_inside_panel_one(qtbot, window):
    # With queries leaning towards their keys the aligned logits sit ≈ 7σ out: the range
    # must include them (the μP follow-up is about exactly those logits).
    window.controller.set_params(d_k=1024, scaling="dk", temperature=0.125, alignment=0.5)
    expected = settle(qtbot, window)
    edges, density = window.panels["histogram"].bars.getData()
    assert edges[-1] >= np.abs(expected.logits).max()
    assert np.isclose(density.sum() * (edges[1] - edges[0]), 1.0)  # every logit is binned


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_jacobian_labels_fit_their_plots(qtbot, make_window, size):
    """A rotated axis title is shown only where its plot is tall enough for it, and the
    "J ≈ 0" note fits the map (both were cut or overlapped at 1280 × 720)."""
    from PySide6.QtWidgets import QApplication

    w = make_window(Params(scaling="none", d_k=512), size=size)
    w.render_ready()
    QApplication.processEvents()
    j = w.panels["jacobian"]
    shown = [p.getAxis("left").label for p in (j.norm_plot, j.sat_plot) if p.getAxis("left").label.isVisible()]
    rects = [label.sceneBoundingRect() for label in shown]
    canvas = j.canvas.ci.boundingRect()
    assert all(canvas.top() <= r.top() and r.bottom() <= canvas.bottom() for r in rects)
    assert len(rects) < 2 or not rects[0].intersects(rects[1])
    assert j.collapsed.isVisible()  # raw logits at d_k 512: the median row's J is ≈ 0
    note = j.collapsed.textItem.document()
    assert note.idealWidth() <= j.heat_plot.getViewBox().width()
    # its three lines centred on one another (the HTML asks for it; Qt needs a text width)
    for d_k in (512, 2048):  # a new number keeps the note's lines
        w.controller.set_params(d_k=d_k)
        w.controller.flush()
        assert j.collapsed.isVisible()
        layout = note.begin().layout()  # one block: the lines are broken by <br/>
        lines = [layout.lineAt(i) for i in range(layout.lineCount())]
        centres = [line.naturalTextRect().center().x() for line in lines]
        assert len(centres) == 3 and max(centres) - min(centres) <= 1.0, (d_k, centres)
    if size == (1920, 1080):
        assert all(p.getAxis("left").label.isVisible() for p in (j.norm_plot, j.sat_plot))


def test_a_highlighted_view_wears_a_thick_border_of_the_theme_s_highlight(qtbot, window):
    def left_edge(view, x):
        image = view.grab().toImage()
        return image.pixelColor(x, image.height() // 2).name()

    panel, summary = window.panels["weights"], window.summary
    window.highlight({"weights", "summary"})
    qtbot.wait(10)
    light = window.style_.palette.highlight.lower()
    assert left_edge(panel, 2) == light and left_edge(summary, 2) == light
    window.set_theme("high-contrast")  # a new sheet: the highlight stays, in the new colour
    dark = window.style_.palette.highlight.lower()
    assert dark != light
    assert left_edge(panel, 2) == dark and left_edge(summary, 2) == dark
    window.highlight(())
    assert left_edge(panel, 2) != dark and left_edge(summary, 2) != dark
    assert left_edge(panel, 0) == window.style_.palette.border.lower()


