"""The program's entry point (``sqrtdk-gui``, ``python -m sqrtdk_gui``, the bundle's launcher).

It imports nothing itself, so that Ctrl+C while the program is still loading (numpy, the
model, a second or so) ends it as at any later moment: status 130, no traceback.
"""

from __future__ import annotations

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    try:
        from sqrtdk_gui.cli.main import main as run
    except BaseException as exc:
        from sqrtdk_gui.cli.interrupt import interrupted

        if interrupted(exc):
            return 130
        raise
    return run(argv)

