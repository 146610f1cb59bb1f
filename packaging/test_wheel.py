"""The Python route, as a user on any operating system takes it: build the wheel and sdist,
install the wheel into a truly fresh venv (its dependencies come from the package index) and
run the installed program.

    python -m pytest -q packaging/test_wheel.py      # builds into a temporary folder (≈ 1–2 min)

Not part of the main ``tests/`` run; CI runs it as its own step after ``python -m build``
(.ci/run) with ``SQRTDK_WHEEL_DIST=dist``, so the files tested are the files CI built.
Nothing here is Linux-only: the venv layout and the commands are chosen per platform.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "packaging"))

from build import project  # noqa: E402  (packaging/build.py: name and version from pyproject.toml)

NAME, VERSION = project()
DIST_NAME = NAME.replace("-", "_")
BAD_OUTPUT = re.compile(r"Traceback|^qt\.|[Ww]arning|Could not|Fatal", re.M)


def _env(home: Path, **extra) -> dict:
    """This environment (proxies and index settings reach pip) without anything that would
    let the installed program see the checkout or another venv."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME", "PYTHONSTARTUP", "SQRTDK_GUI_SETTINGS")}
    env.update(HOME=str(home), USERPROFILE=str(home), PYTHONNOUSERSITE="1", **extra)
    return env


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    given = os.environ.get("SQRTDK_WHEEL_DIST")
    if given:
        return (ROOT / given).resolve()
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, (done.stdout + done.stderr)[-4000:]
    return out


@pytest.fixture(scope="module")
def wheel(dist) -> Path:
    found = sorted(dist.glob(f"{DIST_NAME}-{VERSION}-py3-none-any.whl"))
    assert len(found) == 1, f"expected one pure-Python wheel of {VERSION} in {dist}: {sorted(dist.iterdir())}"
    return found[0]


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory) -> tuple[Path, dict]:
    """A fresh venv (no system site-packages) with only the wheel and what it depends on."""
    where = tmp_path_factory.mktemp("fresh venv")  # a space in the path, as on many desktops
    home = tmp_path_factory.mktemp("home")
    env = _env(home)
    subprocess.run([sys.executable, "-m", "venv", str(where / "venv")], check=True, timeout=300, env=env)
    scripts = where / "venv" / ("Scripts" if os.name == "nt" else "bin")
    python = scripts / ("python.exe" if os.name == "nt" else "python")
    done = subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                           str(wheel)], capture_output=True, text=True, timeout=1200, env=env, cwd=home)
    assert done.returncode == 0, (done.stdout + done.stderr)[-4000:]
    return scripts, env


def test_sdist_and_wheel_hold_the_whole_package(dist, wheel):
    sources = sorted(str(p.relative_to(ROOT)).replace(os.sep, "/") for p in (ROOT / "sqrtdk_gui").rglob("*.py"))
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        meta = f"{DIST_NAME}-{VERSION}.dist-info"
        entry_points = zf.read(f"{meta}/entry_points.txt").decode()
        metadata = zf.read(f"{meta}/METADATA").decode()
    assert [s for s in sources if s not in names] == []
    data = sorted(str(p.relative_to(ROOT)).replace(os.sep, "/") for p in (ROOT / "sqrtdk_gui").rglob("*")
                  if p.suffix in (".html", ".ttf", ".otf", ".svg", ".txt", ".qm", ".mo"))
    assert len(data) > 80 and [d for d in data if d not in names] == []  # lesson texts, fonts, icon
    assert not [n for n in names if n.startswith(("tests/", "packaging/", "benchmarks/"))]
    assert re.search(r"^sqrtdk-gui = sqrtdk_gui\.cli\.entry:main$", entry_points, re.M)
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)  # the MIT licence text
    for requirement in ("PySide6-Essentials", "pyqtgraph", "numpy"):
        assert f"Requires-Dist: {requirement}" in metadata
    sdists = sorted(dist.glob(f"{DIST_NAME}-{VERSION}.tar.gz"))
    assert len(sdists) == 1
    with tarfile.open(sdists[0]) as tar:
        members = {m.name.split("/", 1)[1] for m in tar.getmembers() if "/" in m.name}
    assert {"pyproject.toml", "README.md", "LICENSE", "sqrtdk_gui/cli/main.py",
            "sqrtdk_gui/core/lesson/pages/step1.html", "sqrtdk_gui/gui/assets/fonts/DejaVuSans.ttf"} <= members


def _run(scripts: Path, env: dict, *args: str, timeout: int = 300) -> subprocess.CompletedProcess:
    exe = scripts / (f"{NAME}.exe" if os.name == "nt" else NAME)
    done = subprocess.run([str(exe), *args], capture_output=True, text=True, timeout=timeout,
                          env=env, cwd=env["HOME"])
    assert done.returncode == 0, f"{args}: status {done.returncode}\n{done.stdout}{done.stderr}"
    assert not BAD_OUTPUT.search(done.stdout + done.stderr), done.stdout + done.stderr
    return done


def test_the_installed_program_passes_its_smoke_test(venv):
    scripts, env = venv
    done = _run(scripts, {**env, "QT_QPA_PLATFORM": "offscreen"}, "--smoke-test")
    assert done.stdout.startswith("smoke test passed"), done.stdout


def test_the_installed_program_reports_versions_and_computes(venv):
    scripts, env = venv
    lines = _run(scripts, env, "--version").stdout.splitlines()
    assert lines[0] == f"{NAME} {VERSION}"
    assert not [line for line in lines if line.endswith(("unknown", "not installed"))], lines
    done = _run(scripts, env, "stats", "--dk", "512", "--scaling", "none", "--json")
    assert '"logit_std": 2' in done.stdout  # σ ≈ 22.6


def test_the_installed_package_is_the_wheel_not_the_checkout(venv):
    scripts, env = venv
    python = scripts / ("python.exe" if os.name == "nt" else "python")
    done = subprocess.run([str(python), "-c", "import sqrtdk_gui, sys; print(sqrtdk_gui.__file__); "
                           "print(sys.prefix != sys.base_prefix)"],
                          capture_output=True, text=True, timeout=60, env=env, cwd=env["HOME"])
    where, in_venv = done.stdout.splitlines()
    assert in_venv == "True" and str(ROOT) not in where and "site-packages" in where
