"""Read and write the user's files so that nothing is ever lost or hangs (standard library only).

Every file the program writes (screenshots, exports, slides, presets, settings) goes through
``write_bytes``: the data goes to a temporary file in the target's folder, is flushed to the
disk, gets the target's permissions (and owner, where the system allows), and only then
replaces the target in one rename. A full disk, a file-size limit or a crash therefore leaves
the old file byte for byte as it was. A symbolic link is written through: the file it points
to is replaced and the link stays. A target that is not a regular file (a folder, a device, a
FIFO, a socket) is refused with one sentence and never touched.

Every file the program reads (presets, settings) goes through ``read_bytes``: it refuses
anything but a regular file without blocking (a FIFO would wait for a writer forever) and
reads at most a bounded number of bytes.

Why not Qt's QSaveFile: ``core`` never imports Qt and presets are saved from here; and
QSaveFile (Qt 6.11) keeps a symlink and the permissions but writes a regular file over a FIFO
or a device node instead of refusing it, which is the very loss this module prevents.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from typing import TypeAlias

from sqrtdk_gui.core.i18n import N_, _

__all__ = ["IOFailure", "read_bytes", "write_bytes", "write_text", "resolve_target", "kind_of"]


class IOFailure(OSError):
    """A read or write that cannot be done; ``str()`` is one sentence for the user.

    ``reason`` is the part after the file name ("it is a FIFO ...", "No space left on device"),
    for messages that name the file themselves. Both are in the language of the moment they
    were raised (``verb`` is "read", "write" or "use").
    """

    def __init__(self, code: int | None, verb: str, path: str, reason: str) -> None:
        template = _(_MESSAGES[verb]) if verb in _MESSAGES else "cannot {verb} {path}: {reason}"
        self.message = template.format(verb=verb, path=repr(path), reason=reason)
        super().__init__(code or 0, self.message)
        self.reason = reason

    def __str__(self) -> str:
        return self.message


_MESSAGES = {"read": N_("cannot read {path}: {reason}"), "write": N_("cannot write {path}: {reason}"),
             "use": N_("cannot use {path}: {reason}")}

# What the functions below take as a file name: anything os.fspath() accepts.
_Path: TypeAlias = str | bytes | os.PathLike[str] | os.PathLike[bytes]

_KINDS = ((stat.S_ISDIR, N_("a folder")), (stat.S_ISFIFO, N_("a FIFO (named pipe)")),
          (stat.S_ISCHR, N_("a device")), (stat.S_ISBLK, N_("a device")), (stat.S_ISSOCK, N_("a socket")))
_OTHER_KIND = N_("not a regular file")


def kind_of(mode: int) -> str:
    """'a folder', 'a device', ... for a ``st_mode`` that is not a regular file (translated)."""
    return _(next((name for test, name in _KINDS if test(mode)), _OTHER_KIND))


def _not_regular(mode: int) -> str:
    return _("it is {kind}, not a regular file").format(kind=kind_of(mode))


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc) or type(exc).__name__


def _check_name(path: _Path) -> str:
    path = os.fspath(path)
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    if not path:
        raise IOFailure(errno.ENOENT, "use", "", _("an empty file name names no file"))
    if "\0" in path:
        raise IOFailure(errno.EINVAL, "use", path, _("not a valid file name"))
    return path


# --- reading ---------------------------------------------------------------------------------

def read_bytes(path: _Path, limit: int) -> bytes:
    """The contents of the regular file ``path``, at most ``limit`` bytes, without blocking.

    Raises FileNotFoundError if it does not exist (callers often treat that as "no file yet")
    and IOFailure with one sentence for everything else: not a regular file, larger than
    ``limit``, unreadable.
    """
    path = _check_name(path)
    try:
        # Look before opening: opening some devices already does something (a watchdog, a
        # tape); fstat below checks again what was actually opened.
        mode = os.stat(path).st_mode
        if not stat.S_ISREG(mode):
            raise IOFailure(errno.EINVAL, "read", path, _not_regular(mode))
        # O_NONBLOCK: a FIFO swapped in meanwhile must not wait for a writer.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
                     | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))
    except (FileNotFoundError, IOFailure):
        raise
    except OSError as exc:
        raise IOFailure(exc.errno, "read", path, _reason(exc)) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise IOFailure(errno.EINVAL, "read", path, _not_regular(info.st_mode))
        if info.st_size > limit:
            raise IOFailure(errno.EFBIG, "read", path,
                            _("it is {size} bytes, more than the {limit} bytes such a file can have").format(
                                size=f"{info.st_size:,}", limit=f"{limit:,}"))
        chunks, size = [], 0
        while size <= limit:  # the file may grow while we read: never take more than limit + 1
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except IOFailure:
        raise
    except OSError as exc:
        raise IOFailure(exc.errno, "read", path, _reason(exc)) from None
    finally:
        os.close(fd)
    if size > limit:
        raise IOFailure(errno.EFBIG, "read", path,
                        _("it is more than the {limit} bytes such a file can have").format(limit=f"{limit:,}"))
    return b"".join(chunks)


# --- writing ---------------------------------------------------------------------------------

def resolve_target(path: _Path) -> str:
    """The regular file a write to ``path`` replaces (symlinks followed), or IOFailure.

    The file need not exist yet; its folder must.
    """
    path = _check_name(path)
    try:
        real = os.path.realpath(path)
        info = os.stat(real)
    except FileNotFoundError:
        folder = os.path.dirname(real) or "."
        if not os.path.isdir(folder):
            raise IOFailure(errno.ENOENT, "write", path,
                            _("folder {folder} does not exist").format(folder=repr(folder))) from None
        return real
    except OSError as exc:  # a symlink loop, a name too long, a folder we may not enter
        raise IOFailure(exc.errno, "write", path, _reason(exc)) from None
    if not stat.S_ISREG(info.st_mode):
        raise IOFailure(errno.EINVAL, "write", path,
                        _("it is {kind}, not a regular file, and is left untouched").format(
                            kind=kind_of(info.st_mode)))
    return real


def _new_file_mode() -> int:
    """0666 less the umask: what open() would give a new file (mkstemp gives 0600)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:  # Linux: read without changing it
            for line in f:
                if line.startswith("Umask:"):
                    return 0o666 & ~int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)  # elsewhere: read it by setting it, then put it straight back
    os.umask(mask)
    return 0o666 & ~mask


def write_bytes(path: _Path, data: bytes) -> str:
    """Replace (or create) the file ``path`` with ``data``, atomically; returns the file written.

    On any failure the target is unchanged, the temporary file is removed and IOFailure
    says why in one sentence. A writable file in a folder where no temporary file can be made
    (a read-only folder) is written over in place instead, and put back as it was if that fails.
    """
    shown = _check_name(path)
    real = resolve_target(shown)
    folder = os.path.dirname(real) or "."
    try:
        old = os.stat(real)
    except FileNotFoundError:
        old = None
    except OSError as exc:
        raise IOFailure(exc.errno, "write", shown, _reason(exc)) from None
    if old is not None and not os.access(real, os.W_OK):
        # Replacing by rename would succeed in a writable folder; a read-only file means "keep".
        raise IOFailure(errno.EACCES, "write", shown, _("the file is read-only"))
    try:  # a short hidden name, so that a name at the length limit still has a temporary twin
        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(real)[:40]}.", suffix=".tmp",
                                   dir=folder)
    except OSError as exc:
        if old is not None and exc.errno in (errno.EACCES, errno.EPERM):
            return _write_in_place(real, shown, data)
        raise IOFailure(exc.errno, "write", shown, _reason(exc)) from None
    try:
        try:
            if old is not None:
                if hasattr(os, "fchown"):
                    try:  # keep owner and group (only root may give a file away)
                        os.fchown(fd, old.st_uid, old.st_gid)
                    except OSError:
                        pass
                mode = stat.S_IMODE(old.st_mode)
            else:
                mode = _new_file_mode()
            if hasattr(os, "fchmod"):
                os.fchmod(fd, mode)
            _write_all(fd, data)
        finally:
            os.close(fd)
        if not hasattr(os, "fchmod"):
            os.chmod(tmp, mode)
        os.replace(tmp, real)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise IOFailure(exc.errno, "write", shown, _reason(exc)) from None
        raise
    _sync_folder(folder)
    return real


def _write_all(fd: int, data: bytes) -> None:
    """``data`` from the start of ``fd``, the rest cut off, flushed to the disk."""
    os.lseek(fd, 0, os.SEEK_SET)
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
    os.ftruncate(fd, len(data))
    os.fsync(fd)


def _write_in_place(real: str, shown: str, data: bytes) -> str:
    """Write over an existing file (no temporary file can be made beside it); on failure the
    old bytes, read first, are written back."""
    try:
        fd = os.open(real, os.O_RDWR)
    except OSError as exc:
        raise IOFailure(exc.errno, "write", shown, _reason(exc)) from None
    try:
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        old = b"".join(chunks)
        try:
            _write_all(fd, data)
        except OSError as exc:
            try:
                _write_all(fd, old)
            except OSError:
                pass
            raise IOFailure(exc.errno, "write", shown, _reason(exc)) from None
    finally:
        os.close(fd)
    return real


def write_text(path: _Path, text: str, encoding: str = "utf-8") -> str:
    return write_bytes(path, text.encode(encoding))


def _sync_folder(folder: str) -> None:
    """Make the rename itself durable where the system allows it (best effort)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
