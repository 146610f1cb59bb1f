"""sqrtdk-gui: why scaled dot-product attention divides its logits by sqrt(d_k)."""

import os
import signal
import sys

# The model multiplies small matrices (at most a few hundred rows) on every slider move,
# sometimes from two threads at once (the sweep worker). Multi-threaded OpenBLAS gains
# nothing at these sizes and its spinning threads collapse under contention (measured:
# 64 block products took 1000 ms with 2 threads on a busy 2-core machine, 4 ms with 1).
# Set before numpy is first imported; a caller's explicit choice wins.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")


def _starting_as_the_program() -> bool:
    """Whether this import starts the program itself (``python -m sqrtdk_gui``, the
    ``sqrtdk-gui`` command, the bundle) rather than code that uses the package."""
    first = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    return first == "-m" or first.startswith("sqrtdk-gui") or bool(getattr(sys, "frozen", False))


# Ctrl+C while the program is still loading ends it at once, as for any program that does
# not catch it (the shell says 130), instead of a KeyboardInterrupt traceback from inside an
# import; the entry point gives Python's handler back once the command line is loaded.
if _starting_as_the_program() and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
    signal.signal(signal.SIGINT, signal.SIG_DFL)

__version__ = "0.1.0"
