"""Speed of the model: one compute and a full d_k sweep. Prints JSON.

    python benchmarks/model_speed.py --json

``compute_ms`` is the median over slider-like changes (a new d_k near 4096 each time, so
the partial column block is recomputed), ``compute_new_temperature_ms`` a temperature move,
``compute_cold_ms`` the first compute after the caches are emptied (it fills the running
sums of all 64 column blocks), ``sweep_ms`` a full sweep over the 24-point d_k grid from
empty caches, ``density_ms`` the slowest head size's exact variance-gamma density of the
histogram's theory curve (241 points; it is drawn every frame, so it must stay well under
a millisecond or two).
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time

import sqrtdk_gui  # noqa: F401  (first: pins BLAS to one thread before numpy loads, as the app)

# isort: split
import numpy as np

from sqrtdk_gui.core.attention import geometry
from sqrtdk_gui.core.attention import sweep as sweeps
from sqrtdk_gui.core.attention.compute import compute
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.sweep import DK_GRID, sweep
from sqrtdk_gui.core.attention.variance_gamma import dot_product_pdf


def _median_ms(fn, repeats: int) -> float:
    times = []
    for i in range(repeats):
        start = time.perf_counter()
        fn(i)
        times.append(time.perf_counter() - start)
    return 1e3 * statistics.median(times)


def _clear() -> None:
    geometry.clear_cache()
    sweeps.clear_cache()


def run(queries: int = 128, keys: int = 128, repeats: int = 50) -> dict:
    base = Params(d_k=4096, queries=queries, keys=keys, scaling="none")
    rng = np.random.default_rng(0)
    compute(base)  # fill the caches once: what a running program has after its first frame
    d_ks = rng.integers(3969, 4097, size=repeats)
    temps = rng.uniform(0.5, 2.0, size=repeats)
    out = {
        "queries": queries,
        "keys": keys,
        "d_k": 4096,
        "compute_ms": _median_ms(lambda i: compute(base.replace(d_k=int(d_ks[i]))), repeats),
        "compute_new_temperature_ms": _median_ms(
            lambda i: compute(base.replace(temperature=float(temps[i]))), repeats),
        "compute_cold_ms": _median_ms(lambda i: (_clear(), compute(base)), 7),
        "sweep_ms": _median_ms(lambda i: (_clear(), sweep(base)), 5),
        "sweep_points": len(DK_GRID),
        "density_ms": max(_median_ms(lambda i, d=d: dot_product_pdf(np.linspace(-6, 6, 241) * d**0.5, d), 21)
                          for d in (1, 2, 8, 64, 512, 4096)),
        "python": platform.python_version(),
        "numpy": np.__version__,
    }
    return {k: round(v, 3) if isinstance(v, float) else v for k, v in out.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print JSON (the default)")
    parser.add_argument("--repeats", type=int, default=50)
    args = parser.parse_args()
    print(json.dumps(run(repeats=args.repeats), indent=2))


if __name__ == "__main__":
    main()
