"""Nothing the user saved is lost: safe writes and the one hardened reader (core/safe_io.py).

A full disk is a file-size limit (RLIMIT_FSIZE, with SIGXFSZ ignored as the program does) in
a forked child. Permission tests run in a forked child as ``nobody`` when the tests run as
root (root may write anything, so they would pass without testing); otherwise as the user.
Device nodes are created with mknod inside the test folder, never touched in /dev.
"""

from __future__ import annotations

import errno
import json
import os
import pickle
import pwd
import resource
import shutil
import signal
import stat
import tempfile
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.io import presets, safe_io

ROOT = os.geteuid() == 0
OLD = b"the user's old file \x00\xff" * 100


# --- helpers -----------------------------------------------------------------------------------

def in_child(func, *, as_nobody=False, file_limit=None):
    """Run ``func()`` in a forked child (optionally as nobody, optionally with a file-size
    limit); returns ("ok", value) or ("error", exception type name, errno, message)."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        outcome = ("error", "nothing", None, "")
        try:
            os.close(read_end)
            if as_nobody:
                nobody = pwd.getpwnam("nobody")
                os.setgroups([])
                os.setgid(nobody.pw_gid)
                os.setuid(nobody.pw_uid)
            if file_limit is not None:
                signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
                resource.setrlimit(resource.RLIMIT_FSIZE, (file_limit, file_limit))
            outcome = ("ok", func())
        except BaseException as exc:  # noqa: BLE001 - reported to the parent
            outcome = ("error", type(exc).__name__, getattr(exc, "errno", None), str(exc))
        finally:
            try:
                os.write(write_end, pickle.dumps(outcome))
            finally:
                os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as f:
        data = f.read()
    os.waitpid(pid, 0)
    return pickle.loads(data)


@pytest.fixture
def shared_dir():
    """A folder every user may write into (tmp_path's parents are private to root)."""
    folder = tempfile.mkdtemp(prefix="sqrtdk-safe-io-", dir="/tmp")
    os.chmod(folder, 0o777)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def leftovers(folder, *keep) -> list[str]:
    """Files in ``folder`` other than ``keep``: a failed write must leave no temporary file."""
    return sorted(set(os.listdir(folder)) - set(keep))


def make_node(path, kind: str) -> None:
    if kind == "folder":
        os.mkdir(path)
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "socket":
        os.mknod(path, stat.S_IFSOCK | 0o644)  # a socket inode; nothing listens, nothing opens it
    elif kind == "device":
        if not ROOT:
            pytest.skip("creating a device node needs root")
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # a private twin of /dev/null
    else:
        raise ValueError(kind)


NODE_TEST = {"folder": stat.S_ISDIR, "fifo": stat.S_ISFIFO, "socket": stat.S_ISSOCK,
             "device": stat.S_ISCHR}


class FifoGuard:
    """If a read opened the FIFO and waits for a writer, open it for writing so that the
    test fails instead of hanging; ``rescued`` says whether that was needed."""

    def __init__(self, path, after=10.0):
        self.rescued = False
        self._done = threading.Event()

        def rescue():
            if not self._done.wait(after):
                self.rescued = True
                fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
                os.close(fd)

        self._thread = threading.Thread(target=rescue, daemon=True)
        self._thread.start()

    def stop(self):
        self._done.set()
        self._thread.join()


# --- writing -----------------------------------------------------------------------------------

def test_write_replaces_the_file_and_keeps_its_permissions(tmp_path):
    target = tmp_path / "keep.png"
    target.write_bytes(OLD)
    target.chmod(0o640)
    assert safe_io.write_bytes(str(target), b"new") == str(target)
    assert target.read_bytes() == b"new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert leftovers(tmp_path, "keep.png") == []


@pytest.mark.skipif(not ROOT, reason="only root can give a file to another owner")
def test_write_by_root_keeps_the_files_owner(tmp_path):
    target = tmp_path / "owned.csv"
    target.write_bytes(OLD)
    nobody = pwd.getpwnam("nobody")
    os.chown(target, nobody.pw_uid, nobody.pw_gid)
    safe_io.write_bytes(str(target), b"new")
    info = target.stat()
    assert (info.st_uid, info.st_gid) == (nobody.pw_uid, nobody.pw_gid)


def test_a_new_file_gets_the_permissions_of_the_umask(tmp_path):
    old = os.umask(0o027)
    try:
        safe_io.write_bytes(str(tmp_path / "new.svg"), b"<svg/>")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.svg").stat().st_mode) == 0o640  # mkstemp alone: 0600


def test_a_symlink_is_written_through_and_stays_a_symlink(tmp_path):
    real = tmp_path / "real.json"
    real.write_bytes(OLD)
    real.chmod(0o644)
    link = tmp_path / "link.json"
    link.symlink_to("real.json")
    safe_io.write_bytes(str(link), b"new")
    assert link.is_symlink() and os.readlink(link) == "real.json"
    assert real.read_bytes() == b"new" and stat.S_IMODE(real.stat().st_mode) == 0o644
    dangling = tmp_path / "dangling.json"
    dangling.symlink_to("made-later.json")
    safe_io.write_bytes(str(dangling), b"x")
    assert dangling.is_symlink() and (tmp_path / "made-later.json").read_bytes() == b"x"


@pytest.mark.parametrize("via_link", [False, True], ids=["direct", "through-a-symlink"])
@pytest.mark.parametrize("kind", ["folder", "fifo", "socket", "device"])
def test_a_target_that_is_not_a_regular_file_is_refused_and_untouched(tmp_path, kind, via_link):
    node = tmp_path / "node"
    make_node(node, kind)
    target = tmp_path / "link" if via_link else node
    if via_link:
        target.symlink_to(node)
    with pytest.raises(safe_io.IOFailure) as info:
        safe_io.write_bytes(str(target), b"data")
    message = str(info.value)
    assert "not a regular file" in message and "\n" not in message
    assert NODE_TEST[kind](os.lstat(node).st_mode)  # still a folder, FIFO, socket, device
    assert leftovers(tmp_path, "node", "link") == []


@pytest.mark.parametrize("name,why", [("", "empty"), ("missing/a.png", "does not exist"),
                                      ("x" * 300 + ".png", "too long"),
                                      ("file.txt/a.png", "Not a directory")])
def test_impossible_names_are_one_sentence(tmp_path, name, why):
    (tmp_path / "file.txt").write_text("x")
    path = name if name == "" else str(tmp_path / name)
    with pytest.raises(safe_io.IOFailure, match=why):
        safe_io.write_bytes(path, b"data")
    assert leftovers(tmp_path, "file.txt") == []


def test_a_full_disk_leaves_the_old_file_byte_for_byte(tmp_path):
    target = tmp_path / "slide.png"
    target.write_bytes(OLD)
    target.chmod(0o644)
    outcome = in_child(lambda: safe_io.write_bytes(str(target), b"n" * 100_000), file_limit=20_000)
    assert outcome[:3] == ("error", "IOFailure", errno.EFBIG), outcome
    assert "File too large" in outcome[3] and str(target) in outcome[3]
    assert target.read_bytes() == OLD and stat.S_IMODE(target.stat().st_mode) == 0o644
    assert leftovers(tmp_path, "slide.png") == []


def test_without_the_limit_the_same_write_succeeds(tmp_path):
    # The control for the test above: the child itself works, only the limit makes it fail.
    target = tmp_path / "slide.png"
    target.write_bytes(OLD)
    assert in_child(lambda: safe_io.write_bytes(str(target), b"n" * 100_000))[0] == "ok"
    assert target.read_bytes() == b"n" * 100_000


def test_a_read_only_file_is_not_replaced(shared_dir):
    target = os.path.join(shared_dir, "lesson.json")
    with open(target, "wb") as f:
        f.write(OLD)
    if ROOT:
        nobody = pwd.getpwnam("nobody")
        os.chown(target, nobody.pw_uid, nobody.pw_gid)
    os.chmod(target, 0o444)
    outcome = in_child(lambda: safe_io.write_bytes(target, b"new"), as_nobody=ROOT)
    assert outcome[:2] == ("error", "IOFailure") and "read-only" in outcome[3], outcome
    with open(target, "rb") as f:
        assert f.read() == OLD
    assert leftovers(shared_dir, "lesson.json") == []


def test_a_folder_without_write_permission_is_a_clear_failure(shared_dir):
    locked = os.path.join(shared_dir, "locked")
    os.mkdir(locked, 0o555)
    os.chmod(locked, 0o555)
    outcome = in_child(lambda: safe_io.write_bytes(os.path.join(locked, "a.png"), b"x"),
                       as_nobody=ROOT)
    assert outcome[:2] == ("error", "IOFailure") and "Permission denied" in outcome[3], outcome
    assert os.listdir(locked) == []


# --- reading -----------------------------------------------------------------------------------

def test_read_returns_a_regular_files_bytes_and_bounds_the_size(tmp_path):
    path = tmp_path / "p.json"
    path.write_bytes(b"x" * 100)
    assert safe_io.read_bytes(str(path), 100) == b"x" * 100
    with pytest.raises(safe_io.IOFailure, match="more than the 99 bytes"):
        safe_io.read_bytes(str(path), 99)
    with pytest.raises(FileNotFoundError):
        safe_io.read_bytes(str(tmp_path / "missing.json"), 100)
    with pytest.raises(safe_io.IOFailure, match="empty"):
        safe_io.read_bytes("", 100)


@pytest.mark.parametrize("kind", ["folder", "fifo", "device"])
def test_read_refuses_what_is_not_a_regular_file_without_blocking(tmp_path, kind):
    node = tmp_path / "node.json"
    make_node(node, kind)
    guard = FifoGuard(node) if kind == "fifo" else None
    try:
        with pytest.raises(safe_io.IOFailure, match="not a regular file"):
            safe_io.read_bytes(str(node), 1 << 20)
    finally:
        if guard is not None:
            guard.stop()
    assert guard is None or not guard.rescued, "the read blocked on the FIFO"


# --- presets: saved safely, read by the hardened reader ----------------------------------------

def test_saving_a_preset_keeps_0644_and_the_symlink(tmp_path):
    real = tmp_path / "real.json"
    presets.save(presets.State(), real)
    real.chmod(0o644)
    link = tmp_path / "lesson.json"
    link.symlink_to(real)
    presets.save(presets.State(params=Params(d_k=9)), link)
    assert link.is_symlink() and stat.S_IMODE(real.stat().st_mode) == 0o644
    assert presets.load(link).params.d_k == 9


def test_saving_a_preset_over_a_fifo_refuses_without_blocking(tmp_path):
    fifo = tmp_path / "lesson.json"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="FIFO"):
        presets.save(presets.State(), fifo)  # a write never opens the target itself
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_a_preset_on_a_full_disk_leaves_the_old_preset(tmp_path):
    path = tmp_path / "lesson.json"
    presets.save(presets.State(params=Params(d_k=5)), path)
    original = path.read_bytes()
    outcome = in_child(lambda: presets.save(presets.State(params=Params(d_k=7)), path), file_limit=100)
    assert outcome[:3] == ("error", "IOFailure", errno.EFBIG), outcome
    assert path.read_bytes() == original and leftovers(tmp_path, "lesson.json") == []


def _preset(**fields) -> str:
    return json.dumps({"format": presets.FORMAT, "version": 1, **fields})


HOSTILE = {
    "nested-deeply": ("[" * 100_000, "nested"),
    "nested-in-a-value": (_preset(params={"d_k": [[[[[[[[[[[[1]]]]]]]]]]]]}), "nested"),
    "scenario-list": (_preset(lesson={"scenario": [1, 2]}), "lesson.scenario"),
    "scenario-object": (_preset(lesson={"scenario": {"a": 1}}), "lesson.scenario"),
    "lesson-list": (_preset(lesson=[1]), "\"lesson\""),
    "huge-integer": ('{"format": "sqrtdk-gui preset", "version": ' + "9" * 5000 + "}", "digits"),
    "zoom-nan": (_preset(zoom=float("nan")), "zoom"),
    "zoom-infinite": (_preset(zoom=float("inf")), "zoom"),
    "d_k-float": (_preset(params={"d_k": 64.5}), "d_k"),
    "top-level-list": ("[1, 2, 3]", "not a sqrtdk-gui preset"),
    "top-level-string": ('"sqrtdk-gui preset"', "not a sqrtdk-gui preset"),
    "version-string": (_preset(version="1"), "version"),
    "brackets-in-strings-are-fine": (_preset(theme="[[[[[[[[[[[[[[[["), "unknown theme"),
}


@pytest.mark.parametrize("case", HOSTILE)
def test_hostile_preset_contents_are_one_preset_error(tmp_path, case):
    text, why = HOSTILE[case]
    path = tmp_path / "p.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(presets.PresetError, match=why) as info:
        presets.load(path)
    assert "\n" not in str(info.value) and len(str(info.value)) < 200


@pytest.mark.parametrize("content,why", [(b"\xff\xfe not utf-8", "UTF-8"),
                                         (b" " * (presets.MAX_BYTES + 1), "more than")])
def test_undecodable_or_huge_preset_files_are_one_preset_error(tmp_path, content, why):
    path = tmp_path / "p.json"
    path.write_bytes(content)
    with pytest.raises(presets.PresetError, match=why):
        presets.load(path)


def test_a_preset_that_is_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "lesson.json"
    os.mkfifo(fifo)
    guard = FifoGuard(fifo)
    try:
        with pytest.raises(presets.PresetError, match="FIFO"):
            presets.load(fifo)
    finally:
        guard.stop()
    assert not guard.rescued


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6),
                     lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=8)
_SLOTS = st.fixed_dictionaries({}, optional={
    "format": st.just(presets.FORMAT) | _JSON,
    "version": st.just(1) | _JSON,
    "params": st.dictionaries(st.sampled_from(["d_k", "keys", "queries", "scaling", "seed",
                                               "temperature", "dtype", "nope"]), _JSON) | _JSON,
    "lesson": st.fixed_dictionaries({}, optional={"step": _JSON, "scenario": _JSON | st.just("qk_norm")})
    | _JSON,
    "theme": st.just("dark") | _JSON,
    "zoom": _JSON,
})


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_SLOTS)
def test_any_json_in_any_slot_is_a_state_or_a_specific_preset_error(data):
    try:
        state = presets.from_json(json.dumps(data))
    except presets.PresetError as exc:
        # Each case has its own message; the catch-all ("not a usable preset") is a last resort.
        assert "not a usable preset" not in str(exc) and "\n" not in str(exc)
    else:
        assert isinstance(state, presets.State)


def _no_temporary_files(monkeypatch):
    """As in a read-only folder: no temporary file can be made beside the target."""
    def refuse(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(safe_io.tempfile, "mkstemp", refuse)


def test_a_writable_file_in_a_read_only_folder_is_written_over_in_place(tmp_path, monkeypatch):
    target = tmp_path / "preset.json"
    target.write_bytes(b"the old preset, longer than the new one " * 10)
    _no_temporary_files(monkeypatch)
    assert safe_io.write_bytes(target, b"new") == str(target)
    assert target.read_bytes() == b"new"


def test_an_in_place_write_that_fails_puts_the_old_bytes_back(tmp_path, monkeypatch):
    target = tmp_path / "preset.json"
    old = b"the teacher's preset " * 100
    target.write_bytes(old)
    _no_temporary_files(monkeypatch)
    real_fsync, calls = os.fsync, []

    def fail_first(fd):  # the new bytes cannot be made durable (a full or failing disk)
        calls.append(fd)
        if len(calls) == 1:
            raise OSError(errno.ENOSPC, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(safe_io.os, "fsync", fail_first)
    with pytest.raises(safe_io.IOFailure, match="No space left"):
        safe_io.write_bytes(target, b"x" * 5000)
    assert target.read_bytes() == old


def test_a_new_file_in_a_read_only_folder_is_still_refused_in_one_sentence(tmp_path, monkeypatch):
    _no_temporary_files(monkeypatch)
    with pytest.raises(safe_io.IOFailure, match="ermission denied"):
        safe_io.write_bytes(tmp_path / "new.json", b"{}")
    assert not (tmp_path / "new.json").exists()
