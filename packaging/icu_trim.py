"""Shrink Qt's ICU data library (libicudata, 32 MB) to what the program's languages can use.

Qt Core links ICU, so the library must be there, but nearly all of its data is for other
languages: collation, names of languages, currencies, units and time zones in ~800 locales,
5 MB of legacy code-page converters, CJK/Thai line-break dictionaries and transliterators.
This keeps the ICU common-data package's structure (the ICU "data filter" idea, applied to
the finished package) and every item that is not locale-specific, plus the ``root`` locale
and those of the languages spoken (``en*``, ``de*``, ``es*``, ``zh*``), and links it into a
new ``libicudata.so.<N>`` with the same SONAME and symbol. Locale lookups for any other
locale fall back to root, as ICU always does.

    python packaging/icu_trim.py --list              # what the data holds, by group
    python packaging/icu_trim.py OUT.so              # write the trimmed library

The spec calls ``trimmed_library``; without a C compiler (``cc``) it keeps the full data.
"""

from __future__ import annotations

import argparse
import collections
import re
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))  # the checkout's package
from sqrtdk_gui.core.i18n import LANGUAGES  # noqa: E402

import elfdeps  # noqa: E402

__all__ = ["spoken_languages", "read_package", "filter_package", "keep_item", "trimmed_library", "find_library"]

_LOCALE = re.compile(r"^[a-z]{2,3}(_[A-Za-z0-9]+)*$")
_ALWAYS = {"root", "pool", "res_index"}


def spoken_languages() -> tuple[str, ...]:
    """The codes of the languages the program speaks (its table of languages: de, zh_CN, ...)."""
    return tuple(LANGUAGES)


# The languages the program speaks: their locale data stays ("zh" for "zh_CN").
SPOKEN = {code.split("_")[0] for code in spoken_languages()}
# Whole groups an English user interface never reaches through Qt.
_DROP_DIRS = {"translit"}


def find_library() -> Path:
    import PySide6

    found = sorted((Path(PySide6.__file__).resolve().parent / "Qt" / "lib").glob("libicudata.so.*"))
    if not found:
        raise FileNotFoundError("PySide6 ships no libicudata")
    return found[0]


def _symbol(path: Path) -> tuple[str, int, int, int]:
    """(name, file offset, size, ICU major version) of the icudtNN_dat symbol."""
    data = path.read_bytes()
    (is64, end, _), sections = elfdeps._sections(data)
    if not is64:
        raise ValueError("only 64-bit ELF is supported")
    for _name, kind, _addr, offset, size, link, entsize in sections:
        if kind != 11:  # SHT_DYNSYM
            continue
        str_off = sections[link][3]
        for pos in range(offset, offset + size, entsize or 24):
            st_name, _info, _other, shndx, value, st_size = struct.unpack_from(end + "IBBHQQ", data, pos)
            start = str_off + st_name
            name = data[start:data.index(b"\0", start)].decode()
            match = re.fullmatch(r"icudt(\d+)_dat", name)
            if match:
                sec = sections[shndx]
                return name, sec[3] + (value - sec[2]), st_size, int(match.group(1))
    raise ValueError(f"{path} exports no icudtNN_dat symbol")


def read_package(path: Path) -> tuple[bytes, list[tuple[str, bytes]]]:
    """The package header and its items (name, bytes) in TOC order."""
    name, offset, size, _ = _symbol(path)
    blob = path.read_bytes()[offset:offset + size]
    if blob[2:4] != b"\xda\x27" or blob[12:16] != b"CmnD":
        raise ValueError(f"{name} is not an ICU common-data package")
    return read_package_bytes(blob)


def keep_item(name: str) -> bool:
    """Keep everything but other languages' locale data, code pages, dictionaries, translit."""
    parts = name.split("/")[1:]  # drop the "icudt73l" package prefix
    folder = parts[0] if len(parts) > 1 else ""
    base = parts[-1]
    stem, _, ext = base.rpartition(".")
    if folder in _DROP_DIRS or ext in ("cnv", "dict"):
        return False
    if ext == "res" and _LOCALE.match(stem) and stem not in _ALWAYS:
        lang = stem.split("_")[0]
        # English keeps all its data, as before; the other languages spoken only their
        # main locale data (Qt's QLocale has its own CLDR tables for numbers and dates; the
        # app sorts nothing by a language's collation and names no currencies or zones).
        return lang == "en" or (lang in SPOKEN and folder == "")
    return True


def filter_package(header: bytes, items: list[tuple[str, bytes]], keep=keep_item) -> bytes:
    """A new common-data package with the kept items (names stay sorted; data 16-aligned)."""
    kept = [(n, d) for n, d in items if keep(n)]
    count = len(kept)
    names = b"".join(n.encode() + b"\0" for n, _ in kept)
    name_offsets, pos = [], 4 + 8 * count
    for n, _ in kept:
        name_offsets.append(pos)
        pos += len(n.encode()) + 1
    pad = (-(len(header) + pos)) % 16
    pos += pad
    data_offsets, chunks = [], []
    for _, d in kept:
        data_offsets.append(pos)
        d = d + b"\0" * ((-len(d)) % 16)
        chunks.append(d)
        pos += len(d)
    toc = struct.pack("<I", count) + b"".join(
        struct.pack("<II", no, do) for no, do in zip(name_offsets, data_offsets))
    return header + toc + names + b"\0" * pad + b"".join(chunks)


def link_library(package: bytes, symbol: str, soname: str, out: Path) -> None:
    """A shared library exporting ``symbol`` = ``package`` (read-only, 16-byte aligned)."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if not cc:
        raise FileNotFoundError("no C compiler (cc) to link the trimmed ICU data")
    with tempfile.TemporaryDirectory() as tmp:
        dat = Path(tmp) / "icudata.dat"
        dat.write_bytes(package)
        asm = Path(tmp) / "icudata.S"
        asm.write_text(
            f'.section .rodata\n.globl {symbol}\n.type {symbol}, @object\n.balign 16\n'
            f'{symbol}:\n.incbin "{dat}"\n.size {symbol}, . - {symbol}\n'
            '.section .note.GNU-stack,"",@progbits\n')
        out.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([cc, "-shared", "-nostdlib", f"-Wl,-soname,{soname}", "-o", str(out), str(asm)],
                       check=True)


def trimmed_library(source: Path, out: Path) -> tuple[int, int]:
    """Write the trimmed copy of ``source`` to ``out``; returns (old, new) data sizes."""
    symbol, _, size, _ = _symbol(source)
    header, items = read_package(source)
    package = filter_package(header, items)
    # Round trip: the new package must list exactly the kept items with identical bytes.
    _, again = read_package_bytes(package)
    want = [(n, d) for n, d in items if keep_item(n)]
    if [n for n, _ in again] != [n for n, _ in want] or any(
            a[:len(b.rstrip(b"\0"))] != b.rstrip(b"\0") for (_, a), (_, b) in zip(again, want)):
        raise ValueError("the trimmed ICU package does not round-trip")
    link_library(package, symbol, source.name, out)
    if _symbol(out)[2] != len(package):
        raise ValueError("the linked ICU data has the wrong size")
    return size, len(package)


def read_package_bytes(blob: bytes) -> tuple[bytes, list[tuple[str, bytes]]]:
    header_size, = struct.unpack_from("<H", blob, 0)
    toc = blob[header_size:]
    count, = struct.unpack_from("<I", toc, 0)
    entries = [struct.unpack_from("<II", toc, 4 + 8 * i) for i in range(count)]
    ends = [e[1] for e in entries[1:]] + [len(toc)]
    return blob[:header_size], [(toc[no:toc.index(b"\0", no)].decode(), toc[do:end])
                                for (no, do), end in zip(entries, ends)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path, help="write the trimmed library here")
    parser.add_argument("--list", action="store_true", help="sizes per group, kept and dropped")
    args = parser.parse_args()
    source = find_library()
    header, items = read_package(source)
    if args.list or not args.out:
        groups = collections.defaultdict(lambda: [0, 0])
        for name, data in items:
            parts = name.split("/")
            group = parts[1] if len(parts) > 2 else "*." + name.rsplit(".", 1)[-1]
            groups[group][0 if keep_item(name) else 1] += len(data)
        print(f"{'group':<12} {'kept MB':>8} {'dropped MB':>11}")
        for group, (kept, dropped) in sorted(groups.items(), key=lambda g: -sum(g[1])):
            print(f"{group:<12} {kept / 1e6:8.2f} {dropped / 1e6:11.2f}")
    if args.out:
        old, new = trimmed_library(source, args.out)
        print(f"wrote {args.out}: ICU data {old / 1e6:.1f} MB -> {new / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
