"""Robustness: repaint stress, random parameter sequences, extreme window sizes and scales.

* A repaint stress (``benchmarks/repaint_stress.py``, 2,000 full-window repaints across the
  parameter space) in a subprocess, so that a binding crash (an abort: PySide6 6.12.0 died inside pyqtgraph's AxisItem after a few dozen repaints) fails
  this test instead of killing pytest. It starts in the background as soon as this module's
  first test runs and is collected by its own test, so it overlaps the others.
* Hypothesis drives the model and the live window through random parameter sequences and
  checks that everything shown is finite (or marked as overflow) and agrees with
  ``compute(final parameters)``.
* The window from 400x300 to 3840x2160 at QT_SCALE_FACTOR 1, 1.5 and 2 (each in its own
  process: the factor must be set before QApplication exists): no exception, no Qt
  warning, and the summary strip's numbers fit their labels without overlapping.
"""

import json
import math
import os
import re
import subprocess
import sys
import warnings
from functools import reduce
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from PySide6.QtWidgets import QLabel

from sqrtdk_gui.core.attention.compute import compute
from sqrtdk_gui.core.attention.params import DTYPES, SOFTMAX_VARIANTS, Params
from sqrtdk_gui.core.attention.plotdata import clamp_positive, sorted_weights
from sqrtdk_gui.core.attention.scaling import SCALINGS
from sqrtdk_gui.core.attention.scaling import compared_scalings as sweep_scalings
from sqrtdk_gui.core.attention.softmax import softmax_evaluated
from sqrtdk_gui.core.attention.sweep import sweep
from sqrtdk_gui.gui.window.main_window import MainWindow

ROOT = Path(__file__).resolve().parents[2]
STRESS = ROOT / "benchmarks" / "repaint_stress.py"
STRESS_REPAINTS = 2000


def _child_env(**extra) -> dict:
    env = dict(os.environ)
    env["QT_QPA_PLATFORM"] = "offscreen"
    env.pop("DISPLAY", None)
    env.pop("QT_SCALE_FACTOR", None)
    env.update(extra)
    return env


# --- repaint stress (subprocess, started early) ---------------------------------------------

_STRESS_TEST = "test_2000_full_repaints_across_the_parameter_space_do_not_crash"


@pytest.fixture(scope="module", autouse=True)
def stress_process(request, tmp_path_factory):
    """Start the stress run in the background if its test was selected; stop it at the end."""
    if not any(item.name == _STRESS_TEST and item.module is request.module
               for item in request.session.items):
        yield None
        return
    argv = [sys.executable, str(STRESS), "--repaints", str(STRESS_REPAINTS), "--seed", "7"]
    folder = tmp_path_factory.mktemp("stress")
    out, err = open(folder / "stdout", "w+"), open(folder / "stderr", "w+")
    proc = subprocess.Popen(argv, stdout=out, stderr=err, env=_child_env(), cwd=folder)
    proc.files = (out, err)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        out.close()
        err.close()


def test_float16_logits_beyond_its_range_do_not_warn():
    # Found by the repaint stress: logits beyond float16's 65504 (d_k 4096, alignment 1,
    # τ 0.05, all reachable from the controls) raised "RuntimeWarning: overflow encountered
    # in cast". Warnings are errors in this test run.
    params = Params(d_k=4096, alignment=1.0, temperature=0.05, dtype="float16", scaling="none")
    result = compute(params)
    assert result.logits.max() > 65504 and result.overflow_count > 0  # counted, not raised
    assert not np.isfinite(result.weights).all()
    stable = softmax_evaluated(np.array([[1e5, 0.0]]), "stable", np.dtype("float16"))
    assert stable[1] > 0


# --- hypothesis: the model ------------------------------------------------------------------

PARAMS = st.builds(
    Params,
    d_k=st.one_of(st.integers(1, 4096), st.sampled_from([1, 2, 64, 512, 4096])),
    temperature=st.one_of(st.floats(0.05, 10.0), st.sampled_from([0.05, 1.0, 10.0])),
    keys=st.one_of(st.integers(2, 48), st.sampled_from([2, 3, 256])),
    queries=st.integers(1, 48),
    q_std=st.floats(0.1, 10.0),
    k_std=st.floats(0.1, 10.0),
    scaling=st.sampled_from(SCALINGS),
    softmax=st.sampled_from(SOFTMAX_VARIANTS),
    dtype=st.sampled_from(DTYPES),
    seed=st.sampled_from([0, 1, 2**32 - 1]),
    heads=st.integers(1, 128),
    gain=st.floats(0.1, 100.0),
    alignment=st.one_of(st.floats(0.0, 1.0), st.sampled_from([0.0, 1.0])),
)


@settings(max_examples=40, deadline=None)
@given(PARAMS)
def test_model_numbers_are_finite_and_in_range(params):
    r = compute(params)  # warnings are errors in this test run
    n = params.keys
    for name in ("max_weight", "entropy", "jacobian_fro", "grad_q"):
        values = getattr(r, name)
        assert values.shape == (params.queries,) and np.all(np.isfinite(values)), name
    assert np.all(np.isfinite(r.logits)) and np.all(np.isfinite(r.p))
    assert np.all((r.max_weight >= 1 / n - 1e-12) & (r.max_weight <= 1 + 1e-12))
    assert np.all((r.entropy >= -1e-12) & (r.entropy <= math.log(n) + 1e-9))
    assert np.all(r.jacobian_fro >= 0) and np.all(r.grad_q >= 0)
    assert math.isfinite(r.logit_std) and 0 <= r.saturated_fraction <= 1
    for s in r.summary.values():
        assert all(math.isfinite(v) for v in (s.mean, s.median, s.p10, s.p90))
    # overflow is counted exactly, and only the evaluated weights may hold it
    assert r.overflow_count == int(np.count_nonzero(~np.isfinite(r.weights)))
    finite_rows = np.isfinite(r.row_sums)
    assert math.isnan(r.row_sum_max_error) == (not finite_rows.any())
    if params.dtype == "float64" and params.softmax == "stable":
        assert r.overflow_count == 0


# --- hypothesis: controller and window --------------------------------------------------------

WINDOW_PARAMS = Params(queries=48, keys=16)

CHANGE = st.one_of(
    st.tuples(st.just("d_k"), st.one_of(st.integers(1, 4096), st.sampled_from([1, 512, 4096]))),
    st.tuples(st.just("temperature"),
              st.one_of(st.floats(0.05, 10.0), st.sampled_from([0.05, 1.0, 10.0]))),
    st.tuples(st.just("scaling"), st.sampled_from(SCALINGS)),
    st.tuples(st.just("keys"), st.one_of(st.integers(2, 40), st.sampled_from([2, 256]))),
    st.tuples(st.just("seed"), st.sampled_from([0, 1, 2**32 - 1])),
    st.tuples(st.just("heads"), st.integers(1, 128)),
    st.tuples(st.just("gain"), st.floats(0.1, 100.0)),
    st.tuples(st.just("alignment"), st.one_of(st.floats(0.0, 1.0), st.just(1.0))),
    st.tuples(st.just("softmax"), st.sampled_from(SOFTMAX_VARIANTS)),
    st.tuples(st.just("dtype"), st.sampled_from(DTYPES)),
    st.tuples(st.just("row"), st.integers(-1, 100)),  # -1: the median row
)

NON_FINITE = re.compile(r"(?i)(?<![a-z])(nan|inf|infinity)(?![a-z])")


@pytest.fixture
def live(qtbot):
    w = MainWindow(WINDOW_PARAMS)
    qtbot.addWidget(w)
    w.resize(1440, 900)  # room for all four panels: every one draws
    w.show()
    qtbot.waitExposed(w)
    w.render_ready()
    return w


def _final(params: Params, changes) -> Params:
    return reduce(lambda p, c: p if c[0] == "row" else p.replace(**{c[0]: c[1]}), changes, params)


def _model_warnings(params: Params) -> list[str]:
    """Warnings the model raises for what the window will compute (current and sweeps)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        compute(params)
        for s in sweep_scalings(params):
            sweep(params.replace(scaling=s))
    return [str(w.message) for w in caught]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(changes=st.lists(CHANGE, min_size=1, max_size=8))
@example(changes=[("d_k", 512), ("scaling", "none"), ("softmax", "naive"), ("dtype", "float16"),
                  ("temperature", 1.0), ("row", 3)])  # every row overflows
@example(changes=[("d_k", 4096), ("scaling", "none"), ("temperature", 0.05), ("keys", 256)])
@example(changes=[("scaling", "qk_norm"), ("gain", 100.0), ("temperature", 0.05), ("d_k", 1)])
@example(changes=[("d_k", 64), ("d_k", 64)])  # back where it was: nothing to compute
def test_any_parameter_sequence_leaves_the_window_consistent(qtbot, live, changes):
    c = live.controller
    final = _final(c.params, changes)
    # The window runs under "warnings are errors"; say plainly when the model is the culprit.
    found = _model_warnings(final)
    assert found == [], f"the model warns for {final}: {found}"

    row = c.row
    computes = c.compute_count
    changed = False
    for name, value in changes:  # one burst: no event loop turn in between
        if name == "row":
            c.set_row(value)
            row = min(value, c.params.queries - 1)
        else:
            before = c.params
            c.set_params(**{name: value})
            changed = changed or c.params != before
    assert c.params == final and c.row == row
    if changed:
        qtbot.waitUntil(lambda: c.compute_count > computes, timeout=20000)
    qtbot.waitUntil(lambda: c.result is not None and c.result.params == final, timeout=20000)
    qtbot.waitUntil(lambda: c.sweeps_for == final.replace(d_k=1), timeout=60000)
    assert c.compute_count - computes == (1 if changed else 0)  # a burst computes once

    expected = compute(final)
    label, row = expected.row_label(row), expected.resolve_row(row)
    row_weights = expected.weights[row]
    overflowed = not np.all(np.isfinite(row_weights))
    # what the panels hold
    _, density = live.panels["histogram"].bars.getData()
    assert np.all(np.isfinite(density))
    heights = live.panels["weights"].bars.heights
    want = sorted_weights(row_weights)
    np.testing.assert_array_equal(heights, np.where(np.isfinite(want), want, 0.0))
    assert live.panels["weights"].overflow.isVisible() == overflowed
    assert np.all(np.isfinite(live.panels["jacobian"].shown_block))
    sw = sweep(final.replace(scaling="none"))
    np.testing.assert_allclose(live.panels["gradient"].versus.series["none"].median.yData,
                               clamp_positive(sw.stat("grad_q", "median"), 1e-10))
    assert set(c.sweeps) == set(sweep_scalings(final))
    # what the labels say
    assert live.summary.labels["sigma"].text() == f"{expected.logit_std:.2f}"
    assert live.summary.labels["max_weight"].text() == f"{expected.summary['max_weight'].median:.3f}"
    assert live.summary.labels["entropy"].text() == f"{expected.summary['entropy'].median:.2f}"
    assert live.summary.labels["jacobian"].text() == f"{expected.summary['jacobian_fro'].median:.1e}"
    assert live.summary.labels["saturated"].text() == f"{100 * expected.saturated_fraction:.0f} %"
    assert f"σ = {expected.logit_std:.2f}" in live.panels["histogram"].readout.text()
    weights_text = live.panels["weights"].readout.text()
    if overflowed:
        assert weights_text.startswith(f"{label}: exp(z) overflowed") and "no weights" in weights_text
    elif final.scaling == "after_softmax":
        assert f"= {expected.max_weight[row]:.3f} ÷ √{final.d_k}" in weights_text
    else:
        assert f"{label}: max {expected.max_weight[row]:.3f}" in weights_text
    assert f"{label}: ‖J‖_F {expected.jacobian_fro[row]:.1e}" in live.panels["jacobian"].readout.text()
    assert f"median {expected.summary['grad_q'].median:.1e}" in live.panels["gradient"].readout.text()
    for label in live.live_page.findChildren(QLabel):
        assert not NON_FINITE.search(label.text()), f"{label.objectName()}: {label.text()!r}"
    # the controls show the final parameters
    ctl = live.controls
    assert ctl.dk_spin.value() == final.d_k and ctl.keys_spin.value() == final.keys
    assert ctl.scaling_combo.currentData() == final.scaling
    assert ctl.softmax_combo.currentData() == final.softmax
    assert ctl.dtype_combo.currentData() == final.dtype
    assert ctl.heads_spin.value() == final.heads and ctl.row_spin.value() == c.row


# --- window sizes and scale factors (one process per QT_SCALE_FACTOR) -------------------------

SIZES = [(400, 300), (640, 480), (1024, 768), (1280, 720), (1920, 1080), (2560, 1440),
         (3840, 2160), (1280, 720), (400, 300)]
# Parameter sets with the widest numbers the controls can produce.
STATES = [
    {},
    {"d_k": 4096, "scaling": "none", "temperature": 0.05},  # σ ≈ 1300
    {"d_k": 1, "scaling": "qk_norm", "gain": 100.0, "temperature": 0.05},  # σ = 2000
    {"d_k": 512, "scaling": "none", "softmax": "naive", "dtype": "float32", "keys": 256},
]

_SIZES_SCRIPT = r"""
import json, os, sys, traceback, warnings
warnings.simplefilter("error")
import sqrtdk_gui
from PySide6.QtCore import QPoint, QRect, QtMsgType, qInstallMessageHandler
from PySide6.QtWidgets import QApplication
from sqrtdk_gui.gui.launch.bootstrap import BENIGN_MESSAGES as _BENIGN
problems = []
def handler(kind, context, message):
    if kind not in (QtMsgType.QtDebugMsg, QtMsgType.QtInfoMsg) and message not in _BENIGN:
        problems.append(f"Qt {kind.name}: {message}")
app = QApplication([])
qInstallMessageHandler(handler)
def hook(kind, value, tb):
    problems.append("".join(traceback.format_exception(kind, value, tb)))
sys.excepthook = hook
from sqrtdk_gui.gui.window.main_window import MainWindow
from sqrtdk_gui.core.attention.params import Params
sizes, states = json.loads(sys.argv[1]), json.loads(sys.argv[2])
overlap, fit, seen = [], [], []
window = MainWindow(Params(queries=64, keys=16))
try:
    window.show()
    strip = window.summary
    for w, h in sizes:
        window.resize(w, h)
        app.processEvents()
        for state in states:
            window.controller.set_params(**{**Params(queries=64, keys=16).__dict__, **state})
            window.render_ready()
            window.repaint()
            where = f"{w}x{h} (got {window.width()}x{window.height()}) {state or 'defaults'}"
            seen.append([w, h, window.width(), window.height()])
            labels = [("caption " + k, l) for k, l in strip.captions.items()]
            labels += [("value " + k, l) for k, l in strip.labels.items()]
            rects = [(name, QRect(l.mapTo(strip, QPoint(0, 0)), l.size())) for name, l in labels]
            for i, (a, ra) in enumerate(rects):
                for b, rb in rects[i + 1:]:
                    if ra.intersects(rb):
                        overlap.append(f"{where}: {a} {ra.getRect()} overlaps {b} {rb.getRect()}")
                if not strip.rect().contains(ra):
                    overlap.append(f"{where}: {a} {ra.getRect()} sticks out of the strip {strip.rect().getRect()}")
            for key, label in strip.labels.items():
                need = label.fontMetrics().horizontalAdvance(label.text())
                if need > label.width():
                    fit.append(f"{where}: value {key} {label.text()!r} needs {need} px "
                                  f"at {label.font().pointSize()} pt, label is {label.width()} px wide")
            for key, cap in strip.captions.items():
                need_h = cap.heightForWidth(cap.width())
                if need_h > cap.height():
                    fit.append(f"{where}: caption {key} {cap.text()!r} needs {need_h} px "
                                  f"of height at width {cap.width()}, has {cap.height()}")
finally:
    window.close()
    window.deleteLater()
    app.processEvents()
print(json.dumps({"problems": problems, "overlap": overlap, "fit": fit, "sizes": seen,
                  "dpr": app.primaryScreen().devicePixelRatio()}))
"""


FACTORS = ["1", "1.5", "2"]


@pytest.fixture(scope="module")
def scaled_runs():
    """All three scale factors run at once (each its own process); factor -> (report, stderr)."""
    procs = {f: subprocess.Popen(
        [sys.executable, "-c", _SIZES_SCRIPT, json.dumps(SIZES), json.dumps(STATES)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=_child_env(QT_SCALE_FACTOR=f)) for f in FACTORS}
    cache = {}
    try:
        for factor, proc in procs.items():
            stdout, stderr = proc.communicate(timeout=300)
            cache[factor] = (proc.returncode, stdout, stderr)
    finally:
        for proc in procs.values():
            if proc.poll() is None:
                proc.kill()
                proc.wait()

    def run(factor: str) -> tuple[dict, str]:
        status, stdout, stderr = cache[factor]
        assert status == 0, f"exit status {status}\n{stderr[-4000:]}"
        return json.loads(stdout.strip().splitlines()[-1]), stderr

    return run


@pytest.mark.parametrize("factor", FACTORS)
def test_any_size_and_scale_factor_without_warnings(scaled_runs, factor):
    report, stderr = scaled_runs(factor)
    assert report["dpr"] == pytest.approx(float(factor))
    assert report["problems"] == [], "\n".join(report["problems"])
    assert stderr.strip() == "", stderr
    widths = [got_w for _, _, got_w, _ in report["sizes"]]
    assert max(widths) >= 3840 and min(widths) < 1280  # really went from small to 4K


@pytest.mark.parametrize("factor", FACTORS)
def test_summary_labels_do_not_overlap(scaled_runs, factor):
    report, _ = scaled_runs(factor)
    assert report["overlap"] == [], "\n".join(report["overlap"][:20])


@pytest.mark.parametrize("factor", FACTORS)
def test_summary_numbers_fit_their_labels(scaled_runs, factor):
    report, _ = scaled_runs(factor)
    assert report["fit"] == [], "\n".join(report["fit"][:20])


# --- the repaint stress: last, so that it runs while the tests above do -------------------

@pytest.mark.slow
def test_2000_full_repaints_across_the_parameter_space_do_not_crash(stress_process):
    assert STRESS.exists(), f"{STRESS} is missing"
    status = stress_process.wait(timeout=600)
    out, err = stress_process.files
    out.seek(0)
    err.seek(0)
    stdout, stderr = out.read(), err.read()
    assert status == 0, f"exit status {status} (negative = killed by that signal)\n{stderr[-4000:]}"
    report = json.loads(stdout)
    assert report["repaints"] == STRESS_REPAINTS and report["problem_count"] == 0, report
    assert report["computes"] > STRESS_REPAINTS // 2
    assert set(report["scalings_seen"]) == set(SCALINGS), report["scalings_seen"]
    assert set(report["dtypes_seen"]) == set(DTYPES)
    assert report["ranges_seen"]["d_k"][1] > 2000 and report["ranges_seen"]["d_k"][0] <= 2
    assert stderr.strip() == "", stderr[-4000:]
