"""Build the standalone sqrtdk-gui on this operating system and the archive to publish.

    python packaging/build.py                 # dist/sqrtdk-gui/ and the archive below
    python packaging/build.py --format gz     # Linux: a .tar.gz instead of .tar.xz
    python packaging/build.py --no-archive    # only the folder (or the .app)
    python packaging/build.py --archive-only  # only the archive of the folder built before (after signing)

The archive, in dist/:

- Linux:   sqrtdk-gui-<v>-linux-x86_64.tar.xz (the folder, a desktop entry and its installer)
- Windows: sqrtdk-gui-<v>-windows-x86_64.zip  (the folder: sqrtdk-gui.exe and sqrtdk-gui-console.exe)
- macOS:   sqrtdk-gui-<v>-macos-arm64.zip     (sqrtdk-gui.app, zipped by ditto; x86_64 on Intel)

Needs the ``package`` extra (``pip install ".[package]"``). Before it freezes anything it checks
that the icons and the Chinese font subset are current (``--skip-checks``: a harness that has
checked them elsewhere) and, on Linux, that the libraries of Qt's xcb plugin are installed on
this machine, because the bundle carries them (a teacher's fresh Debian lacks libxcb-icccm4
and libxcb-keysyms1); ``--allow-missing-xcb`` builds anyway.
"""

from __future__ import annotations

import argparse
import platform
import re
import subprocess
import sys
import tarfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "packaging"))

import elfdeps  # noqa: E402

SPEC = ROOT / "packaging" / "sqrtdk_gui.spec"
DIST = ROOT / "dist"
WORK = ROOT / "build" / "pyinstaller"
XCB_APT = ("libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxkbcommon-x11-0 libxcb-image0 "
           "libxcb-render-util0 libxcb-shape0 libxcb-randr0 libxcb-xkb1")
# Base libraries that PyInstaller deliberately leaves to the system (glibc, the GL driver
# stack, libxcb itself, Wayland): every Linux desktop has them.
SYSTEM_LIBS = ("libc.so", "libm.so", "libdl.so", "libpthread.so", "librt.so", "ld-linux",
               "libGL.so", "libEGL.so", "libGLX.so", "libOpenGL.so", "libdrm.so", "libxcb.so",
               "libxcb-dri", "libwayland-")


def project() -> tuple[str, str]:
    try:
        import tomllib
    except ModuleNotFoundError:
        import tomli as tomllib
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    # The version is written once, in the package (pyproject.toml reads it from there too).
    init = (ROOT / "sqrtdk_gui" / "__init__.py").read_text(encoding="utf-8")
    match = re.search(r'^__version__\s*=\s*"([^"]+)"', init, re.M)
    if match is None:
        raise SystemExit("sqrtdk_gui/__init__.py states no __version__")
    return meta["name"], match.group(1)


OS_NAMES = {"win32": "windows", "darwin": "macos"}
MACHINES = {"amd64": "x86_64", "x64": "x86_64", "aarch64": "arm64"}


def platform_tag() -> str:
    """The archive's system and machine: linux-x86_64, windows-x86_64, macos-arm64, ..."""
    system = OS_NAMES.get(sys.platform, sys.platform.rstrip("0123456789"))
    machine = platform.machine().lower() or "unknown"
    return f"{system}-{MACHINES.get(machine, machine)}"


def archive_path(fmt: str, dist: Path = DIST) -> Path:
    name, version = project()
    suffix = "zip" if sys.platform in OS_NAMES else f"tar.{fmt}"
    return dist / f"{name}-{version}-{platform_tag()}.{suffix}"


def _run(cmd: list[str]) -> None:
    print("+ " + " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, cwd=ROOT)


def _qt_dir() -> Path:
    import PySide6

    return Path(PySide6.__file__).resolve().parent / "Qt"


def _system_lib_dirs() -> list[Path]:
    """Where the dynamic loader finds libraries (ldconfig's cache, then the usual folders)."""
    dirs = []
    try:
        out = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True).stdout
        dirs = sorted({str(Path(line.split("=>")[-1].strip()).parent)
                       for line in out.splitlines() if "=>" in line})
    except OSError:
        pass
    dirs += ["/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64",
             "/lib", "/usr/lib"]
    return [Path(d) for d in dict.fromkeys(dirs)]


def missing_xcb_libraries() -> list[str]:
    """Libraries Qt's xcb platform plugin needs that neither Qt nor this system provides."""
    if not sys.platform.startswith("linux"):
        return []
    qt = _qt_dir()
    found_in_qt = {p.name for p in (qt / "lib").glob("*.so*")}
    system = _system_lib_dirs()
    missing = []
    for binary in (qt / "plugins" / "platforms" / "libqxcb.so", qt / "lib" / "libQt6XcbQpa.so.6"):
        if not binary.exists():
            continue
        for lib in elfdeps.needed(binary):
            if lib in found_in_qt or any((d / lib).exists() for d in system):
                continue
            missing.append(lib)
    return sorted(set(missing))


def preflight(allow_missing_xcb: bool, checks: bool = True) -> None:
    try:
        import PyInstaller  # noqa: F401
    except ModuleNotFoundError:
        raise SystemExit('PyInstaller is missing: pip install ".[package]"') from None
    for script in ("render_icons.py", "build_fonts.py") if checks else ():
        done = subprocess.run([sys.executable, str(ROOT / "packaging" / script), "--check"],
                              capture_output=True, text=True, cwd=ROOT)
        if done.returncode != 0:
            raise SystemExit(f"packaging/{script} --check failed:\n{done.stdout}{done.stderr}")
    missing = missing_xcb_libraries()
    if missing:
        message = (f"Qt's xcb plugin needs {', '.join(missing)}, which this machine lacks, so the "
                   f"bundle could not carry them and would not open a window on a fresh Debian.\n"
                   f"Install them first: sudo apt-get install {XCB_APT}")
        if not allow_missing_xcb:
            raise SystemExit(message + "\n(or build anyway with --allow-missing-xcb)")
        print("warning: " + message, file=sys.stderr)


def freeze(dist: Path = DIST, work: Path = WORK) -> Path:
    """The folder PyInstaller built (on macOS, the .app beside it)."""
    name, _ = project()
    _run([sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean", "--log-level", "WARN",
          "--distpath", str(dist), "--workpath", str(work), str(SPEC)])
    folder = dist / name
    program = folder / (f"{name}.exe" if sys.platform == "win32" else name)
    if not program.exists():
        raise SystemExit(f"PyInstaller did not produce {program}")
    if sys.platform == "darwin":
        app = dist / f"{name}.app"
        if not app.is_dir():
            raise SystemExit(f"PyInstaller did not produce {app}")
        return app
    return folder


def make_archive(folder: Path, fmt: str, dist: Path = DIST) -> Path:
    """The archive a teacher downloads: a zip on Windows and macOS, a tarball on Linux."""
    target = archive_path(fmt, dist)
    target.unlink(missing_ok=True)
    if sys.platform == "darwin":  # ditto keeps the app's symlinks and extended attributes
        _run(["ditto", "-c", "-k", "--sequesterRsrc", "--keepParent", str(folder), str(target)])
        return target
    if sys.platform == "win32":
        return _make_zip(folder, target)
    return _make_tarball(folder, target, fmt)


def _make_zip(folder: Path, target: Path) -> Path:
    """One top folder, sorted entries, fixed times: the same files give the same zip."""
    import zipfile

    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                info = zipfile.ZipInfo(f"{folder.name}/{path.relative_to(folder).as_posix()}",
                                       date_time=(2026, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = 0o644 << 16
                with path.open("rb") as f:
                    zf.writestr(info, f.read(), compresslevel=9)
    return target


def _make_tarball(folder: Path, target: Path, fmt: str) -> Path:
    """A reproducible-ish tarball: sorted entries, one top folder, no owner names."""

    def clean(info: tarfile.TarInfo) -> tarfile.TarInfo:
        info.uid = info.gid = 0
        info.uname = info.gname = ""
        return info

    mode = {"xz": "w:xz", "gz": "w:gz"}[fmt]
    kwargs = {"preset": 9} if fmt == "xz" else {"compresslevel": 9}
    with tarfile.open(target, mode, **kwargs) as tar:
        paths = sorted(folder.rglob("*"))
        tar.add(folder, arcname=folder.name, recursive=False, filter=clean)
        for path in paths:
            tar.add(path, arcname=f"{folder.name}/{path.relative_to(folder)}", recursive=False,
                    filter=clean)
    return target


def folder_size(folder: Path) -> int:
    """Bytes on disk that the folder's files take (symlinks count once, as their target)."""
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, default=DIST, help="where the folder and the archive go (default dist/)")
    parser.add_argument("--work", type=Path, default=WORK, help="PyInstaller's work folder (build/pyinstaller/)")
    parser.add_argument("--skip-checks", action="store_true",
                        help="do not check that the icons and the font subset are current")
    parser.add_argument("--format", choices=("xz", "gz"), default="xz",
                        help="archive compression (default xz: 29%% smaller than gz here, "
                             "38 vs 53 MB; gz compresses in 6-20 s instead of ~2 min)")
    parser.add_argument("--no-archive", action="store_true", help="only build the folder (or the .app)")
    parser.add_argument("--archive-only", action="store_true",
                        help="only archive the folder (or the .app) built before: signing goes between the two")
    parser.add_argument("--allow-missing-xcb", action="store_true",
                        help="build even if the xcb libraries to bundle are not installed")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    if args.archive_only:
        name, _ = project()
        folder = args.dist / (f"{name}.app" if sys.platform == "darwin" else name)
        if not folder.exists():
            raise SystemExit(f"nothing to archive: {folder} does not exist (build it first)")
        archive = make_archive(folder, args.format, args.dist)
        print(f"archive {archive}: {archive.stat().st_size / 1e6:.1f} MB ({time.perf_counter() - start:.0f} s)")
        return 0
    preflight(args.allow_missing_xcb, checks=not args.skip_checks)
    folder = freeze(args.dist, args.work)
    built = time.perf_counter()
    print(f"folder  {folder}: {folder_size(folder) / 1e6:.1f} MB ({built - start:.0f} s)")
    if not args.no_archive:
        archive = make_archive(folder, args.format, args.dist)
        print(f"archive {archive}: {archive.stat().st_size / 1e6:.1f} MB ({time.perf_counter() - built:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
