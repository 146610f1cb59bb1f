"""The program's entry point (``sqrtdk-gui``, ``python -m sqrtdk_gui``, the bundle's launcher).

While the program loads (numpy, the model, a second or so), Ctrl+C ends it at once, as for
any program that does not catch it: no traceback, and the shell reports 130. Once the
command line is loaded, Python's own handler is back and each command decides (the window
closes like Quit, long commands report what they did, all with status 130); a command that
has started Qt keeps ending at once on Ctrl+C until the process has ended.
"""

from __future__ import annotations

import signal

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    loading = signal.getsignal(signal.SIGINT) in (signal.default_int_handler, signal.SIG_DFL)
    if loading:  # (the package's import may have done this already)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
    try:
        from sqrtdk_gui.cli.args import the_process_ends_after_the_command
        from sqrtdk_gui.cli.main import main as run
    except BaseException as exc:
        from sqrtdk_gui.cli.interrupt import interrupted

        if interrupted(exc):
            return 130
        raise
    the_process_ends_after_the_command()
    if loading:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    return run(argv)
