"""Is there a display to open a window on? Decided before Qt is imported (standard library only).

Without one, Qt's xcb plugin aborts the process (status 134) with five lines ending
"Reinstalling the application may fix this problem", which sends a teacher the wrong way.
The check is deliberately cheap and conservative: it only reports a problem when it is sure
(no display named at all, or a local X display whose socket does not exist); a remote X
display (``host:N``, e.g. through ssh -X) or a Wayland session is trusted, because checking
those would mean opening a network connection.
"""

from __future__ import annotations

import importlib.util
import os
import re
import stat
import sys
from collections.abc import Mapping

from sqrtdk_gui.core.i18n import N_, _

__all__ = ["display_problem", "platform_problem", "available_platforms", "NO_DISPLAY_HINT"]

# What to do instead (English; shown through _()).
NO_DISPLAY_HINT = N_("run it in a desktop session or set DISPLAY; --screenshot FILE and "
                     "--smoke-test need no display")
# Platform plugins that need a display server; any other (offscreen, vnc, eglfs, ...) does not.
_NEEDS_X = ("xcb",)
_NEEDS_WAYLAND = ("wayland", "wayland-egl", "wayland-brcm")
_DISPLAY = re.compile(r"^(?P<host>[^:]*):(?P<number>\d+)(?:\.\d+)?$")
X11_SOCKETS = "/tmp/.X11-unix"


def _plugins(env: Mapping[str, str]) -> list[str]:
    """The platform plugins Qt will try, in order (QT_QPA_PLATFORM may be 'wayland;xcb')."""
    value = env.get("QT_QPA_PLATFORM", "")
    return [part.split(":")[0].strip() for part in value.split(";") if part.strip()]


def _plugin_folders(env: Mapping[str, str]) -> list[str]:
    """Where Qt looks for platform plugins: its own folder (found without importing Qt, in a
    bundle or an installed PySide6) and the folders the environment adds."""
    folders = [os.path.join(p, "platforms") for p in env.get("QT_PLUGIN_PATH", "").split(os.pathsep) if p]
    folders += [p for p in env.get("QT_QPA_PLATFORM_PLUGIN_PATH", "").split(os.pathsep) if p]
    roots = [getattr(sys, "_MEIPASS", None)]
    try:
        spec = importlib.util.find_spec("PySide6")
    except (ImportError, ValueError):
        spec = None
    roots += list(spec.submodule_search_locations or []) if spec is not None else []
    for root in filter(None, roots):
        for sub in ("Qt/plugins/platforms", "plugins/platforms", "PySide6/Qt/plugins/platforms"):
            folders.append(os.path.join(root, sub))
    return folders


def available_platforms(env: Mapping[str, str] | None = None) -> set[str]:
    """The platform plugin names Qt can load here ("xcb", "offscreen", ...); empty if unknown."""
    env = os.environ if env is None else env
    names = set()
    for folder in _plugin_folders(env):
        try:
            entries = os.listdir(folder)
        except OSError:
            continue
        for entry in entries:  # libqxcb.so, qwindows.dll, libqcocoa.dylib
            match = re.match(r"^(?:lib)?q(.+?)(?:\.so|\.dll|\.dylib)$", entry)
            if match:
                names.add(match.group(1))
    return names


def platform_problem(env: Mapping[str, str] | None = None) -> str | None:
    """One sentence if QT_QPA_PLATFORM names only plugins Qt does not have (it would abort
    with status 134), else None. Silent when the plugins cannot be found to compare."""
    env = os.environ if env is None else env
    wanted = _plugins(env)
    have = available_platforms(env)
    if not wanted or not have or any(p in have for p in wanted):
        return None
    shown = env.get("QT_QPA_PLATFORM", "")[:60]
    return _("QT_QPA_PLATFORM={value} names no platform plugin this Qt has "
             "(it has {plugins}); unset it or choose one of those").format(
        value=repr(shown), plugins=", ".join(sorted(have)))


def _abstract_socket_listed(name: str) -> bool:
    """True if the abstract Unix socket ``@name`` is in /proc/net/unix (Linux; read, not opened)."""
    try:
        with open("/proc/net/unix", encoding="ascii", errors="replace") as f:
            return any(line.rstrip("\n").endswith(" @" + name) for line in f)
    except OSError:
        return False


def _local_x_server(number: str, sockets: str) -> bool:
    path = os.path.join(sockets, f"X{number}")
    try:
        if stat.S_ISSOCK(os.stat(path).st_mode):
            return True
    except OSError:
        pass
    return _abstract_socket_listed(path)


def display_problem(env: Mapping[str, str] | None = None, platform: str | None = None,
                    sockets: str = X11_SOCKETS) -> str | None:
    """One sentence saying why a window cannot open here, or None if it probably can."""
    env = os.environ if env is None else env
    platform = sys.platform if platform is None else platform
    if platform.startswith(("win", "darwin", "cygwin", "msys")):
        return None  # a window system is always there
    plugins = _plugins(env)
    have = available_platforms(env)
    if have:  # Qt skips a plugin it does not have: only the ones it will try count
        plugins = [p for p in plugins if p in have] or plugins
    if any(p not in _NEEDS_X + _NEEDS_WAYLAND for p in plugins):
        return None  # e.g. offscreen: no display needed
    if env.get("WAYLAND_DISPLAY") and (not plugins or any(p in _NEEDS_WAYLAND for p in plugins)):
        return None
    if plugins and not any(p in _NEEDS_X for p in plugins):
        return _("no Wayland display to open the window on (WAYLAND_DISPLAY is not set): {hint}").format(
            hint=_(NO_DISPLAY_HINT))
    display = env.get("DISPLAY", "")
    if not display:
        return _("no display to open the window on (DISPLAY is not set): {hint}").format(hint=_(NO_DISPLAY_HINT))
    match = _DISPLAY.match(display)
    if match is None:
        return _("DISPLAY={value} is not a display name such as :0: {hint}").format(
            value=repr(display), hint=_(NO_DISPLAY_HINT))
    if match["host"] not in ("", "unix"):
        return None  # a remote X server: trusted (checking it would open a connection)
    if not _local_x_server(match["number"], sockets):
        return _("no X server is running on display {display} (DISPLAY is set, but nothing "
                 "listens there): {hint}").format(display=display, hint=_(NO_DISPLAY_HINT))
    return None
