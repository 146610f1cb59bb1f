"""Test aid for building under wine 8 (never part of a bundle): KERNEL32.CopyFile2 is not
implemented there, and Python's shutil uses it through _winapi when it exists. Without it,
shutil copies files the portable way."""

import _winapi

if hasattr(_winapi, "CopyFile2"):
    del _winapi.CopyFile2
