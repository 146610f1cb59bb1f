"""The DT_NEEDED entries of an ELF shared object, read with the standard library only.

Used by the spec (to drop libraries that only removed plugins needed), by the bundle test
(every needed library of a bundled Qt plugin must be bundled or a base system library) and
by ``build.py --report``. No ``readelf``/``ldd`` required, and nothing is executed.
"""

from __future__ import annotations

import struct
from pathlib import Path

__all__ = ["needed", "is_elf", "has_debug_info"]

_SHT_DYNAMIC = 6
_DT_NEEDED = 1


def is_elf(path: str | Path) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


def _sections(data: bytes):
    """(header fields, [(name_offset, type, addr, offset, size, link, entsize)])."""
    if data[:4] != b"\x7fELF":
        raise ValueError("not an ELF file")
    is64 = data[4] == 2
    end = "<" if data[5] == 1 else ">"
    if is64:
        shoff, = struct.unpack_from(end + "Q", data, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from(end + "HHH", data, 0x3A)
        fmt = end + "IIQQQQIIQQ"
    else:
        shoff, = struct.unpack_from(end + "I", data, 0x20)
        shentsize, shnum, shstrndx = struct.unpack_from(end + "HHH", data, 0x2E)
        fmt = end + "IIIIIIIIII"
    sections = []
    for i in range(shnum):
        name, kind, _flags, addr, offset, size, link, _info, _align, entsize = \
            struct.unpack_from(fmt, data, shoff + i * shentsize)
        sections.append((name, kind, addr, offset, size, link, entsize))
    return (is64, end, shstrndx), sections


def needed(path: str | Path) -> list[str]:
    """Library names this ELF file asks the dynamic loader for (empty if it is no ELF)."""
    data = Path(path).read_bytes()
    if data[:4] != b"\x7fELF":
        return []
    (is64, end, _), sections = _sections(data)
    out = []
    for _name, kind, _addr, offset, size, link, entsize in sections:
        if kind != _SHT_DYNAMIC:
            continue
        strtab = sections[link]
        str_off = strtab[3]
        entry = entsize or (16 if is64 else 8)
        fmt = end + ("qQ" if is64 else "iI")
        for pos in range(offset, offset + size, entry):
            tag, value = struct.unpack_from(fmt, data, pos)
            if tag == 0:
                break
            if tag == _DT_NEEDED:
                start = str_off + value
                out.append(data[start:data.index(b"\0", start)].decode())
    return out


def has_debug_info(path: str | Path) -> bool:
    """True if the file carries DWARF sections (``strip --strip-debug`` would shrink it)."""
    data = Path(path).read_bytes()
    if data[:4] != b"\x7fELF":
        return False
    (_, _, shstrndx), sections = _sections(data)
    names_off = sections[shstrndx][3]
    for name, *_ in sections:
        start = names_off + name
        if data[start:data.index(b"\0", start)].startswith(b".debug_"):
            return True
    return False
