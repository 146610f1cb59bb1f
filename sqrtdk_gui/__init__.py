"""sqrtdk-gui: why scaled dot-product attention divides its logits by sqrt(d_k)."""

import os

# The model multiplies small matrices (at most a few hundred rows) on every slider move,
# sometimes from two threads at once (the sweep worker). Multi-threaded OpenBLAS gains
# nothing at these sizes and its spinning threads collapse under contention (measured:
# 64 block products took 1000 ms with 2 threads on a busy 2-core machine, 4 ms with 1).
# Set before numpy is first imported; a caller's explicit choice wins.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

__version__ = "0.1.0"
