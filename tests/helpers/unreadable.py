"""A folder that cannot be read, even when the tests run as root.

Root reads past file modes by two capabilities, CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH.
While the folder is locked, a root test gives them up from its thread's effective set
(keeping them permitted, so they come back afterwards): the kernel then refuses the read
exactly as it would for an ordinary user, and the code under test sees a real EACCES.
"""

from __future__ import annotations

import ctypes
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

_CAPABILITY_VERSION_3 = 0x20080522  # <linux/capability.h>: two 32-bit words per set
_READ_OVERRIDES = (1 << 1) | (1 << 2)  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH


class _Header(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _Sets(ctypes.Structure):
    _fields_ = [
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    ]


@contextmanager
def unreadable(folder: Path) -> Iterator[Path]:
    """``folder`` with mode 000 (and, for root, no capability to read past it)."""
    folder.chmod(0)
    try:
        with _without_read_overrides():
            yield folder
    finally:
        folder.chmod(0o755)


@contextmanager
def _without_read_overrides() -> Iterator[None]:
    if os.geteuid() != 0:
        yield
        return
    libc = ctypes.CDLL(None, use_errno=True)
    header = _Header(_CAPABILITY_VERSION_3, 0)  # pid 0: this thread
    saved = (_Sets * 2)()
    _call(libc.capget, header, saved)
    lowered = (_Sets * 2)(*saved)
    lowered[0].effective &= ~_READ_OVERRIDES
    _call(libc.capset, header, lowered)
    try:
        yield
    finally:
        _call(libc.capset, header, saved)


def _call(function: Any, header: _Header, sets: ctypes.Array[_Sets]) -> None:
    if function(ctypes.byref(header), sets) != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"{function.__name__}: {os.strerror(errno)}")
