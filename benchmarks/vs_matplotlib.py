"""The same four panels drawn by the app (pyqtgraph) and by matplotlib (Agg). Prints JSON.

    python benchmarks/vs_matplotlib.py [--size 1920x1080] [--passes 1] [--json]

Needs matplotlib, which the program itself does not use (``pip install matplotlib``, or the
``bench`` extra).

Both sides draw the same frames in the same process, alternating pass by pass (one drag
of the d_k slider over its whole range, 1 -> 4096 -> 1, by the app, then the same frames by
matplotlib; ``--passes`` rounds, 2 by default), so a machine that gets busier slows both
alike, and each side draws its frames back to back as it would on its own. (Alternating
frame by frame, as this script did before, ran each app frame after 77 ms of matplotlib
that had flushed the app's data from the CPU caches: the same drag took 5.2 ms per frame
alone and 7.5 ms with 32 MB of unrelated memory traffic between frames.) Raw logits, the
default parameters (256 queries, 64 keys, query row 0).

* App: the real MainWindow, offscreen, at ``--size``. A frame is timed like
  ``frame_latency.py``: from ``setValue`` on the d_k slider until the event loop has run the
  coalesced computation, ``setData`` on every panel and the repaint of what changed.
* matplotlib: one figure of the same size in pixels (dpi 100), with the same four panels
  built once: 1 the logits' density as step histograms (current and ghost scaling), the
  theoretical N(0, σ²) curve and ±σ lines; 2 the selected row's sorted weights as bars and
  the uniform 1/n line; 3 the row's Jacobian on its 12 largest weights as a heat map with a
  colour bar, median ‖J‖_F versus d_k with its 10–90 % band for raw and ÷√d_k, the current-d_k
  marker and dot, and the saturated share versus d_k; 4 median and mean ‖∂L/∂q‖ versus d_k
  with bands, marker and dot. A frame is ``compute(params)`` (the app's frame includes it
  too), the same plot data helpers the app uses (``plotdata``), ``set_data`` /
  ``set_height`` / ``set_offsets`` on the existing artists, axis limits changed only when the
  app's own steady-range rule changes them, the panel titles' readout text, and
  ``fig.canvas.draw()``. No artist or axes is created per frame.

``ratio`` = matplotlib median / app median (target >= 20). ``mpl_draw_only_ms`` is the median
of ``fig.canvas.draw()`` alone. Both sides antialias (pyqtgraph: as configured by the app).
``--naive`` also times the way matplotlib is often used, a new figure with all its axes and
artists per frame (every 4th frame; ``mpl_naive_p50_ms``, ``ratio_naive``), for reference.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import sqrtdk_gui  # noqa: E402,F401  (before numpy: one BLAS thread, as in the app)

TARGET_RATIO = 20.0


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


class MatplotlibPanels:
    """The four panels as one matplotlib figure; ``show(params)`` draws one frame."""

    def __init__(self, size: tuple[int, int], params) -> None:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import numpy as np
        from matplotlib.colors import LinearSegmentedColormap

        from sqrtdk_gui.core.attention.plotdata import SteadyRange, clamp_positive
        from sqrtdk_gui.core.attention.sweep import sweep
        from sqrtdk_gui.gui.panels.jacobian import LEVEL, TOP_KEYS
        from sqrtdk_gui.gui.style import ACCENT, RAW, SCALED, THEORY

        self.np = np
        self.plt = plt
        dpi = 100
        self.fig = fig = plt.figure(figsize=(size[0] / dpi, size[1] / dpi), dpi=dpi)
        outer = fig.add_gridspec(2, 2, hspace=0.35, wspace=0.2, left=0.05, right=0.98,
                                 top=0.93, bottom=0.07)
        colour = {"none": RAW, "sqrt_dk": SCALED}
        lw = 2.5

        # 1: histogram
        self.ax_h = ax = fig.add_subplot(outer[0, 0])
        edges = np.linspace(-1, 1, 62)
        zeros = np.zeros(61)
        self.ghost = ax.stairs(zeros, edges, fill=True, color=SCALED, alpha=0.15)
        self.bars = ax.stairs(zeros, edges, fill=True, color=RAW, alpha=0.35)
        self.bars_edge = ax.stairs(zeros, edges, color=RAW, linewidth=lw)
        (self.theory,) = ax.plot([], [], "--", color=THEORY, linewidth=3)
        self.sigma_lines = [ax.axvline(0, color=RAW, linestyle="--", linewidth=2) for _ in range(2)]
        ax.set_xlabel("logit z", fontsize=13)
        ax.set_ylabel("density", fontsize=13)
        self.x_range_h, self.y_range_h = SteadyRange(), SteadyRange(shrink_below=0.4)

        # 2: sorted weights
        self.ax_w = ax = fig.add_subplot(outer[0, 1])
        n = params.keys
        self.weight_bars = ax.bar(np.arange(n), np.zeros(n), width=0.8, color=RAW, alpha=0.8)
        self.uniform = ax.axhline(1 / n, color="#4D4D4D", linestyle="--", linewidth=2)
        ax.set_xlim(-0.8, n - 0.2)
        ax.set_xlabel("keys, sorted by weight", fontsize=13)
        ax.set_ylabel("weight", fontsize=13)
        self.y_range_w = SteadyRange(shrink_below=0.3)

        # 3: Jacobian heat map | ||J||_F and saturation versus d_k
        inner = outer[1, 0].subgridspec(2, 2, width_ratios=(2, 3), height_ratios=(7, 3),
                                        wspace=0.3, hspace=0.1)
        self.ax_j = ax = fig.add_subplot(inner[:, 0])
        cmap = LinearSegmentedColormap.from_list("sign", ["#8C510A", "#FFFFFF", "#01665E"])
        self.heat = ax.imshow(np.zeros((TOP_KEYS, TOP_KEYS)), cmap=cmap, vmin=-LEVEL, vmax=LEVEL,
                              interpolation="nearest")
        ax.set_xticks([])
        ax.set_yticks([])
        ax.set_title(f"J, top {TOP_KEYS} keys", fontsize=12)
        fig.colorbar(self.heat, ax=ax, fraction=0.08, ticks=[-LEVEL, 0, LEVEL])
        self.ax_n = fig.add_subplot(inner[0, 1])
        self.ax_s = fig.add_subplot(inner[1, 1], sharex=self.ax_n)
        self.ax_n.tick_params(labelbottom=False)
        self.ax_g = fig.add_subplot(outer[1, 1])

        sweeps = {s: sweep(params.replace(scaling=s)) for s in ("none", "sqrt_dk")}
        self.dots = {}
        self.markers = []
        for ax, quantity, floor, y_range, with_mean in (
                (self.ax_n, "jacobian_fro", 1e-12, (1e-12, 1.0), False),
                (self.ax_g, "grad_q", 1e-10, (1e-10, 1e2), True)):
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_ylim(*y_range)
            ax.set_xlim(0.85, 4096 * 1.15)
            for s, sw in sweeps.items():
                x = sw.d_k.astype(float)
                ax.plot(x, clamp_positive(sw.stat(quantity, "median"), floor), color=colour[s],
                        linewidth=3.5)
                ax.fill_between(x, clamp_positive(sw.stat(quantity, "p10"), floor),
                                clamp_positive(sw.stat(quantity, "p90"), floor),
                                color=colour[s], alpha=0.18)
                if with_mean:
                    ax.plot(x, clamp_positive(sw.stat(quantity, "mean"), floor), "--",
                            color=colour[s], linewidth=2)
            self.markers.append(ax.axvline(1, color=ACCENT, linewidth=2.5))
            self.dots[quantity] = ax.scatter([1], [1], s=120, color=RAW, edgecolors="k",
                                             zorder=5)
        self.ax_n.set_ylabel("‖J‖_F", fontsize=13)
        self.ax_g.set_ylabel("‖∂L/∂q‖", fontsize=13)
        self.ax_g.set_xlabel("d_k", fontsize=13)
        for s, sw in sweeps.items():
            self.ax_s.plot(sw.d_k.astype(float), 100 * sw.saturated_fraction, color=colour[s],
                           linewidth=3)
        self.ax_s.set_ylim(0, 100)
        self.ax_s.set_ylabel("saturated %", fontsize=11)
        self.ax_s.set_xlabel("d_k", fontsize=13)
        self.markers.append(self.ax_s.axvline(1, color=ACCENT, linewidth=2.5))
        for ax in (self.ax_n, self.ax_s, self.ax_g):
            ax.set_xticks([1, 8, 64, 512, 4096], ["1", "8", "64", "512", "4096"])
            ax.minorticks_off()
        self.titles = {
            "h": self.ax_h.set_title("", fontsize=15, loc="left"),
            "w": self.ax_w.set_title("", fontsize=15, loc="left"),
            "n": self.ax_n.set_title("", fontsize=12, loc="left"),
            "g": self.ax_g.set_title("", fontsize=15, loc="left"),
        }
        self.draw_ms: list[float] = []

    def show(self, params, row: int = 0) -> None:
        from sqrtdk_gui.core.attention.compute import compute
        from sqrtdk_gui.core.attention.plotdata import density_histogram, normal_pdf, sorted_weights, top_block
        from sqrtdk_gui.core.attention.scaling import comparison_scaling as ghost_scaling
        from sqrtdk_gui.core.attention.scaling import scale_factor
        from sqrtdk_gui.core.attention.softmax import jacobian_matrix
        from sqrtdk_gui.gui.panels.histogram import BINS
        from sqrtdk_gui.gui.panels.jacobian import TOP_KEYS

        np = self.np
        r = compute(params)
        # 1
        sigma = r.logit_std
        half, x_changed = self.x_range_h.update(4.0 * max(sigma, 1e-6))
        edges, density = density_histogram(r.logits.ravel(), half, BINS)
        ghost = ghost_scaling(params.scaling)
        ghost_logits = r.dots * (scale_factor(params.replace(scaling=ghost)) / params.temperature)
        _, ghost_density = density_histogram(ghost_logits.ravel(), half, BINS)
        self.bars.set_data(values=density, edges=edges)
        self.bars_edge.set_data(values=density, edges=edges)
        self.ghost.set_data(values=ghost_density, edges=edges)
        x = np.linspace(-half, half, 241)
        pdf = normal_pdf(x, r.theory_std)
        self.theory.set_data(x, pdf)
        self.sigma_lines[0].set_xdata([-sigma, -sigma])
        self.sigma_lines[1].set_xdata([sigma, sigma])
        top, y_changed = self.y_range_h.update(1.12 * max(density.max(), pdf.max()))
        if x_changed:
            self.ax_h.set_xlim(-half, half)
        if y_changed:
            self.ax_h.set_ylim(0, top)
        self.titles["h"].set_text(f"1 · Logits   σ = {sigma:.2f} (theory {r.theory_std:.2f})   "
                                  f"√d_k = {np.sqrt(params.d_k):.2f}")
        # 2
        heights = sorted_weights(r.weights_row(row))
        heights = np.where(np.isfinite(heights), heights, 0.0)
        for rect, h in zip(self.weight_bars.patches, heights):
            rect.set_height(h)
        n = params.keys
        top, changed = self.y_range_w.update(1.1 * max(heights.max(), 2.0 / n))
        if changed:
            self.ax_w.set_ylim(0, top)
        self.titles["w"].set_text(f"2 · Weights   query {row}: max {r.max_weight[row]:.3f}   "
                                  f"entropy {r.entropy[row]:.2f} / {np.log(n):.2f}")
        # 3
        k = min(TOP_KEYS, n)
        block, _ = top_block(jacobian_matrix(r.p_row(row)), r.p_row(row), k)
        self.heat.set_data(block)
        dk = float(params.d_k)
        for marker in self.markers:
            marker.set_xdata([dk, dk])
        median_j = r.summary["jacobian_fro"].median
        self.dots["jacobian_fro"].set_offsets([[dk, max(median_j, 1e-12)]])
        self.titles["n"].set_text(f"3 · ‖J‖_F {r.jacobian_fro[row]:.1e}  median {median_j:.1e}")
        # 4
        g = r.summary["grad_q"]
        self.dots["grad_q"].set_offsets([[dk, max(g.median, 1e-10)]])
        self.titles["g"].set_text(f"4 · ‖∂L/∂q‖ median {g.median:.1e}   mean {g.mean:.1e}")
        start = time.perf_counter()
        self.fig.canvas.draw()
        self.draw_ms.append(1e3 * (time.perf_counter() - start))

    def save(self, path: str) -> None:
        self.fig.savefig(path, dpi=100)


def run(size: tuple[int, int], passes: int, png: str | None = None, naive: bool = False,
        presentation: bool = False) -> dict:
    import matplotlib
    from PySide6.QtWidgets import QApplication

    from sqrtdk_gui.core.attention.params import Params
    from sqrtdk_gui.gui.launch.bootstrap import install_message_filter
    from sqrtdk_gui.gui.window.controls import DK_MAX_POS
    from sqrtdk_gui.gui.window.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    install_message_filter()
    params = Params(scaling="none")
    window = MainWindow(params)
    window.resize(*size)
    window.show()
    if presentation:  # the lecture's layout: larger type, no menus
        window.presentation.enter(full_screen=False)
    window.render_ready()
    app.processEvents()
    mpl = MatplotlibPanels(size, window.controller.params)
    mpl.show(window.controller.params)  # first draw: fonts, tick caches

    sweep_up = list(range(0, DK_MAX_POS + 1))
    one_pass = sweep_up + sweep_up[::-1]
    positions = one_pass * passes
    app_ms, mpl_ms, naive_ms = [], [], []
    slider = window.controls.dk_slider
    for _ in range(passes):
        shown = []  # the very parameters (and row) the app drew, for matplotlib to draw too
        for pos in one_pass:
            start = time.perf_counter()
            slider.setValue(pos)
            app.processEvents()
            app_ms.append(1e3 * (time.perf_counter() - start))
            shown.append((window.controller.result.params, window.controller.row))
        for params, row in shown:
            start = time.perf_counter()
            mpl.show(params, row)
            mpl_ms.append(1e3 * (time.perf_counter() - start))
            if naive and len(mpl_ms) % 4 == 1:
                start = time.perf_counter()
                fresh = MatplotlibPanels(size, params)
                fresh.show(params, row)
                naive_ms.append(1e3 * (time.perf_counter() - start))
                fresh.plt.close(fresh.fig)
    panel_area = window.panels["histogram"].geometry().united(window.panels["gradient"].geometry())
    if png:
        mpl.save(png)
    window.close()
    window.deleteLater()
    app.processEvents()
    app_p50, mpl_p50 = statistics.median(app_ms), statistics.median(mpl_ms)
    extra = {}
    if naive_ms:
        extra = {"mpl_naive_p50_ms": round(statistics.median(naive_ms), 1),
                 "ratio_naive": round(statistics.median(naive_ms) / app_p50, 1),
                 "naive_frames": len(naive_ms)}
    return {
        "size": f"{size[0]}x{size[1]}",
        "frames": len(positions),
        "app_p50_ms": round(app_p50, 2),
        "app_p95_ms": round(_percentile(app_ms, 0.95), 2),
        "mpl_p50_ms": round(mpl_p50, 1),
        "mpl_p95_ms": round(_percentile(mpl_ms, 0.95), 1),
        "mpl_draw_only_ms": round(statistics.median(mpl.draw_ms), 1),
        "ratio": round(mpl_p50 / app_p50, 1),
        "target_ratio": TARGET_RATIO,
        "meets_target": mpl_p50 / app_p50 >= TARGET_RATIO,
        "app_panel_area_px": f"{panel_area.width()}x{panel_area.height()}",
        "matplotlib": matplotlib.__version__,
        **extra,
        "loadavg_1min": round(os.getloadavg()[0], 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print JSON (the default)")
    parser.add_argument("--size", default="1920x1080")
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--png", help="also save matplotlib's last frame here (to compare)")
    parser.add_argument("--naive", action="store_true",
                        help="also time a new matplotlib figure per frame (every 4th frame)")
    parser.add_argument("--presentation", action="store_true",
                        help="the app in presentation mode (the lecture's layout) at --size")
    args = parser.parse_args()
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print(json.dumps({"error": "matplotlib is not installed (pip install matplotlib)"}))
        return 1
    w, h = (int(v) for v in args.size.split("x"))
    print(json.dumps(run((w, h), args.passes, args.png, args.naive, args.presentation), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
