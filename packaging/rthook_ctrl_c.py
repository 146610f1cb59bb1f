"""The frozen program's first Python: Ctrl+C ends it at once from here on, as for any program
that does not catch it (the shell reports 130), until the program installs its own handlers.

PyInstaller runs the runtime hooks given in the spec before its own and before the program;
without this one, Ctrl+C in the first instants raised a KeyboardInterrupt inside the loading
of a module and printed a traceback.
"""

import signal

if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
    signal.signal(signal.SIGINT, signal.SIG_DFL)
