"""Offline by construction: a whole session opens no socket and loads no networking code."""

import json
import subprocess
import sys
import textwrap

SESSION = textwrap.dedent(r"""
    import json, os, socket, sys, tempfile
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    attempts = []

    def refuse(name):
        def blocked(*args, **kwargs):
            attempts.append(name)
            raise OSError(f"network access attempted: {name}")
        return blocked

    socket.socket.connect = refuse("connect")
    socket.socket.connect_ex = refuse("connect_ex")
    socket.socket.bind = refuse("bind")
    socket.create_connection = refuse("create_connection")
    socket.getaddrinfo = refuse("getaddrinfo")

    from PySide6.QtWidgets import QApplication
    app = QApplication([])
    from sqrtdk_gui.core.io import presets
    from sqrtdk_gui.gui.export import view as exporting
    from sqrtdk_gui.core.lesson.content import SCENARIOS
    from sqrtdk_gui.gui.window.main_window import MainWindow

    w = MainWindow(threaded=True)
    w.show()
    for step in range(1, 6):
        w.lesson.go_to(step)
        w.render_ready()
    for s in SCENARIOS:
        w.lesson.choose_scenario(s.key)
        w.render_ready()
    w.set_theme("dark"); w.zoom_in(); w.presentation.enter(); w.presentation.leave()
    w.set_autoplay(True); app.processEvents(); w.set_autoplay(False)
    folder = tempfile.mkdtemp()
    exporting.export_png(w, os.path.join(folder, "v.png"), (800, 450))
    exporting.export_svg(w, os.path.join(folder, "v.svg"))
    exporting.export_csv(w.controller.result, os.path.join(folder, "v.csv"))
    presets.save(w.current_state(), os.path.join(folder, "p.json"))
    w.presets.load(os.path.join(folder, "p.json"))
    exporting.export_slides(w, folder, (640, 360), progress=lambda i, n, name: i < 2)
    w.close(); w.deleteLater(); app.processEvents()
    network = sorted(m for m in sys.modules if m.split(".")[0] in
                     ("urllib3", "requests", "http", "ssl", "ftplib", "smtplib", "xmlrpc")
                     or m in ("urllib.request", "PySide6.QtNetwork", "PySide6.QtWebEngineCore"))
    print(json.dumps({"attempts": attempts, "network_modules": network}))
""")


def test_a_whole_session_stays_offline():
    done = subprocess.run([sys.executable, "-c", SESSION], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report == {"attempts": [], "network_modules": []}
