"""Entry point of the frozen bundle: the same as the ``sqrtdk-gui`` command."""

import locale
import os
import sys


def _coerce_c_locale() -> None:
    """Do what CPython's own ``python`` does for a C/POSIX locale (PEP 538): use C.UTF-8.

    PyInstaller's bootloader skips that step, and Qt then warns on stderr ("Detected locale
    "C" ... switched to "C.UTF-8"") when started with an empty environment (cron, ``env -i``,
    some launchers). An explicit LC_ALL is respected, as CPython respects it.
    """
    if os.environ.get("LC_ALL"):
        return
    try:
        locale.setlocale(locale.LC_CTYPE, "")
        codeset = locale.nl_langinfo(locale.CODESET)
    except (locale.Error, AttributeError):
        codeset = ""
    if codeset.upper().replace("-", "") != "UTF8":
        os.environ["LC_CTYPE"] = "C.UTF-8"
        try:
            locale.setlocale(locale.LC_CTYPE, "C.UTF-8")
        except locale.Error:
            pass


if __name__ == "__main__":
    _coerce_c_locale()
    from sqrtdk_gui.cli.entry import main

    sys.exit(main())
