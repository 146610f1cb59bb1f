"""Package the Linux bundle as a Debian package: dist/sqrtdk-gui_<version>-1_amd64.deb.

    python packaging/build_deb.py             # builds the bundle first if dist/sqrtdk-gui/ is missing
    python packaging/build_deb.py --rebuild   # always builds the bundle anew

The package puts the bundle (one folder, its own Qt and Python) in ``/opt/sqrtdk-gui``, a
``sqrtdk-gui`` command in ``/usr/bin``, the desktop entry and the icons where desktops look,
a manual page, and the copyright file. Its dependencies are the system libraries the bundle
does not carry (glibc, OpenGL, libxcb, fontconfig), found by reading the bundle's ELF files
and asking dpkg which installed package provides each. Built with ``dpkg-deb`` (root-owned
files, no fakeroot needed); ``lintian`` checks it (``packaging/test_deb.py``). Debian's tools
only: ``dpkg-deb`` and ``dpkg-query``.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "packaging"))

import build  # noqa: E402
import elfdeps  # noqa: E402

NAME, VERSION = build.project()
REVISION = "1"
ARCH = "amd64"
STAGE = ROOT / "build" / "deb"
MAINTAINER = "sqrtdk-gui developers <sqrtdk-gui@users.noreply.github.com>"
SUMMARY = "classroom instrument: why attention divides its logits by sqrt(d_k)"
DESCRIPTION = """\
A desktop teaching instrument that shows, live, why scaled dot-product
attention divides its logits by the square root of the head size d_k: the
spread of the logits, the saturated softmax, its vanishing Jacobian and
gradient, and how dividing by sqrt(d_k) keeps softmax responsive. A lesson
for the projector (a presentation clicker runs it), practice questions for
interview candidates and a small training lab. Works offline.
.
This package carries its own Python, Qt and numpy in /opt/sqrtdk-gui."""
# Reasons for the lintian tags a self-contained bundle raises by design.
LINTIAN_OVERRIDES = """\
# A self-contained application (its own Python, Qt and numpy) lives in /opt, as the FHS says
# add-on application software packages do.
{name}: dir-or-file-in-opt [opt/{name}/*]
# Those bundled libraries are the application's own copies, loaded only by it.
{name}: embedded-library *
{name}: shared-library-lacks-prerequisites *
{name}: spelling-error-in-binary *
{name}: hardening-no-fortify-functions *
{name}: custom-library-search-path *
# PyInstaller's bootloader, as its project builds it.
{name}: hardening-no-pie [opt/{name}/{name}]
# The program's own copy of DejaVu: every projected page is measured in exactly these files.
{name}: duplicate-font-file *
# A package made by the project, not uploaded to Debian.
{name}: initial-upload-closes-no-bugs *
{name}: unstripped-binary-or-object *
{name}: library-not-linked-against-libc *
{name}: package-installs-python-pycache-dir *
{name}: package-contains-python-dot-directory *
{name}: executable-in-usr-lib *
{name}: repeated-path-segment *
"""
MAN_PAGE = r""".TH SQRTDK-GUI 1 "" "sqrtdk-gui {version}" "User Commands"
.SH NAME
sqrtdk-gui \- why scaled dot-product attention divides its logits by sqrt(d_k)
.SH SYNOPSIS
.B sqrtdk-gui
[\fIoptions\fR]
.br
.B sqrtdk-gui
\fBstats\fR|\fBtrain\fR|\fBexport-slides\fR|\fBexport-handout\fR|\fBexport-concept-test\fR [\fIoptions\fR]
.SH DESCRIPTION
Opens the window: the logits of one attention layer, their softmax, its Jacobian and the
gradient that reaches the queries, live as the head size d_k and the temperature change,
with a lesson for the projector (F2 the lesson, F11 presentation mode, Page Down reveals and
moves on, F1 lists every key).
.PP
The commands compute without a window: \fBstats\fR the model's numbers, \fBtrain\fR the
training lab, \fBexport-slides\fR and \fBexport-handout\fR the lesson as pictures and one
file. \fBsqrtdk-gui \-\-help\fR and \fBsqrtdk-gui\fR \fIcommand\fR \fB\-\-help\fR list every option.
.SH OPTIONS
.TP
.B \-\-smoke\-test
Check the installation without a display (one line; status 0 when it works).
.TP
.B \-\-version
Print the versions a bug report needs.
.TP
.BI \-\-lang " code"
Speak en, de, es or zh_CN for this run.
.SH FILES
.I /opt/sqrtdk-gui/
the program with its own Python and Qt.
.SH EXIT STATUS
0 on success, 2 for bad input, 130 after Ctrl+C.
"""


def _copyright() -> str:
    fonts = ROOT / "sqrtdk_gui" / "gui" / "assets" / "fonts"
    mit = (ROOT / "LICENSE").read_text(encoding="utf-8")
    return "\n".join([
        "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/",
        f"Upstream-Name: {NAME}",
        "",
        "Files: *",
        "Copyright: sqrtdk-gui developers",
        "License: MIT",
        "",
        "Files: opt/sqrtdk-gui/_internal/sqrtdk_gui/gui/assets/fonts/DejaVu*",
        "Copyright: 2003 Bitstream, Inc.; DejaVu changes are in the public domain",
        "License: bitstream-vera",
        "",
        "Files: opt/sqrtdk-gui/_internal/sqrtdk_gui/gui/assets/fonts/NotoSansCJK*",
        "Copyright: 2014-2021 Adobe (http://www.adobe.com/)",
        "License: OFL-1.1",
        "",
        "Files: opt/sqrtdk-gui/_internal/PySide6/* opt/sqrtdk-gui/_internal/shiboken6/*",
        "Copyright: The Qt Company Ltd. and other contributors",
        "License: LGPL-3",
        " On Debian systems, the complete text of the GNU Lesser General Public License",
        " version 3 can be found in '/usr/share/common-licenses/LGPL-3'.",
        "",
        "Files: opt/sqrtdk-gui/_internal/numpy/* opt/sqrtdk-gui/_internal/numpy.libs/*",
        "Copyright: NumPy Developers; OpenBLAS contributors",
        "License: BSD-3-clause",
        " See opt/sqrtdk-gui/_internal/numpy-*.dist-info/ for the full texts.",
        "",
        "Files: opt/sqrtdk-gui/_internal/libpython*",
        "Copyright: Python Software Foundation",
        "License: PSF-2",
        " See https://docs.python.org/3/license.html",
        "",
        "License: MIT",
        *[" " + (line if line.strip() else ".") for line in mit.strip().splitlines()],
        "",
        "License: bitstream-vera",
        *[" " + (line if line.strip() else ".") for line in _license_body(fonts / "LICENSE-DejaVu.txt")],
        "",
        "License: OFL-1.1",
        *[" " + (line if line.strip() else ".") for line in (fonts / "OFL.txt").read_text(encoding="utf-8")
          .strip().splitlines()],
        "",
    ])


def _license_body(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").strip().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Permission is hereby granted"))
    return lines[start:]


def _depends(folder: Path) -> str:
    """The system packages providing the libraries the bundle's binaries need but do not carry."""
    bundled = {p.name for p in folder.rglob("*") if p.is_file() or p.is_symlink()}
    wanted: set[str] = set()
    for path in folder.rglob("*"):
        if path.is_file() and not path.is_symlink() and elfdeps.is_elf(path):
            wanted.update(lib for lib in elfdeps.needed(path) if lib not in bundled)
    packages: set[str] = set()
    unknown = []
    for lib in sorted(wanted):
        done = subprocess.run(["dpkg-query", "-S", f"*/{lib}"], capture_output=True, text=True)
        names = {line.split(":", 1)[0] for line in done.stdout.splitlines() if ":" in line}
        names = {n for n in names if not n.startswith(("lib32", "libx32"))}
        if not names:
            unknown.append(lib)
            continue
        packages.add(sorted(names, key=len)[0])
    if unknown:
        raise SystemExit(f"no installed package provides {', '.join(unknown)}: install them, then build again")
    glibc = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "libc6"], capture_output=True, text=True).stdout
    floor = ".".join(glibc.split("-")[0].split(".")[:2]) if glibc else "2.36"
    packages.discard("libc6")
    return ", ".join([f"libc6 (>= {floor})", *sorted(packages)])


def _install(src: Path, dst: Path, mode: int) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(src, dst)
    dst.chmod(mode)


def stage(folder: Path) -> Path:
    """The package's tree under build/deb/, ready for dpkg-deb."""
    root = STAGE / f"{NAME}_{VERSION}-{REVISION}_{ARCH}"
    shutil.rmtree(root, ignore_errors=True)
    opt = root / "opt" / NAME
    # The folder as the archive has it, minus what the package does itself (menu entry,
    # icons, the install script and its README).
    shutil.copytree(folder, opt, symlinks=True,
                    ignore=shutil.ignore_patterns("share", "install-desktop-entry.sh", "README.txt"))
    for path in opt.rglob("*"):  # a predictable mode for every file: executables 755, the rest 644
        if path.is_symlink():
            continue
        if path.is_dir():
            path.chmod(0o755)
        else:
            executable = path == opt / NAME
            path.chmod(0o755 if executable else 0o644)
    (root / "usr" / "bin").mkdir(parents=True)
    os.symlink(f"/opt/{NAME}/{NAME}", root / "usr" / "bin" / NAME)
    share = root / "usr" / "share"
    _install(ROOT / "resources" / f"{NAME}.desktop", share / "applications" / f"{NAME}.desktop", 0o644)
    for png in sorted((ROOT / "resources" / "icons" / "hicolor").glob(f"*/apps/{NAME}.png")):
        _install(png, share / "icons" / "hicolor" / png.relative_to(ROOT / "resources" / "icons" / "hicolor"), 0o644)
    _install(ROOT / "sqrtdk_gui" / "gui" / "assets" / f"{NAME}.svg",
             share / "icons" / "hicolor" / "scalable" / "apps" / f"{NAME}.svg", 0o644)
    doc = share / "doc" / NAME
    doc.mkdir(parents=True)
    (doc / "copyright").write_text(_copyright(), encoding="utf-8")
    changelog = (f"{NAME} ({VERSION}-{REVISION}) unstable; urgency=medium\n\n"
                 f"  * The standalone build {VERSION} (/opt/{NAME}); see the project's CHANGELOG.\n\n"
                 f" -- {MAINTAINER}  Thu, 01 Jan 2026 00:00:00 +0000\n")
    (doc / "changelog.Debian.gz").write_bytes(gzip.compress(changelog.encode(), compresslevel=9, mtime=0))
    man = share / "man" / "man1"
    man.mkdir(parents=True)
    (man / f"{NAME}.1.gz").write_bytes(gzip.compress(MAN_PAGE.replace("{version}", VERSION).encode(),
                                                     compresslevel=9, mtime=0))
    overrides = share / "lintian" / "overrides"
    overrides.mkdir(parents=True)
    (overrides / NAME).write_text(LINTIAN_OVERRIDES.format(name=NAME), encoding="utf-8")
    for path in share.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    for path in (root / "usr", root / "opt", root / "usr" / "bin"):
        path.chmod(0o755)
    control = root / "DEBIAN"
    control.mkdir()
    installed_kb = sum(p.stat().st_size for p in root.rglob("*") if p.is_file() and not p.is_symlink()) // 1024
    (control / "control").write_text("\n".join([
        f"Package: {NAME}",
        f"Version: {VERSION}-{REVISION}",
        f"Architecture: {ARCH}",
        f"Maintainer: {MAINTAINER}",
        f"Installed-Size: {installed_kb}",
        f"Depends: {_depends(folder)}",
        "Section: education",
        "Priority: optional",
        f"Description: {SUMMARY}",
        *[f" {line}" for line in DESCRIPTION.splitlines()],
        "",
    ]), encoding="utf-8")
    sums = []
    for path in sorted(p for p in root.rglob("*") if p.is_file() and not p.is_symlink() and control not in p.parents):
        sums.append(f"{hashlib.md5(path.read_bytes()).hexdigest()}  {path.relative_to(root).as_posix()}")
    (control / "md5sums").write_text("\n".join(sums) + "\n", encoding="utf-8")
    for path in control.iterdir():
        path.chmod(0o644)
    control.chmod(0o755)
    return root


def deb_path(dist: Path = build.DIST) -> Path:
    return dist / f"{NAME}_{VERSION}-{REVISION}_{ARCH}.deb"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rebuild", action="store_true", help="build the bundle anew even if dist/ has one")
    args = parser.parse_args(argv)
    if not sys.platform.startswith("linux") or shutil.which("dpkg-deb") is None:
        raise SystemExit("build_deb.py: needs Linux with dpkg-deb (Debian, Ubuntu)")
    folder = build.DIST / NAME
    if args.rebuild or not (folder / NAME).exists():
        subprocess.run([sys.executable, str(ROOT / "packaging" / "build.py"), "--no-archive"], check=True, cwd=ROOT)
    root = stage(folder)
    target = deb_path()
    target.unlink(missing_ok=True)
    subprocess.run(["dpkg-deb", "--root-owner-group", "-Zxz", "--build", str(root), str(target)], check=True,
                   stdout=subprocess.DEVNULL)
    print(f"wrote {target.relative_to(ROOT)}: {target.stat().st_size / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
