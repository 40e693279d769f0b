"""How many cores we may use, and worker threads that each own one BLAS thread.

Multi-threaded OpenBLAS on a shared 2-core machine is a trap: its threads meet at a
barrier after every product, so when another process takes a core they spin and
wait (we measured 3x the CPU time per product under load). Instead each worker
thread asks OpenBLAS for one thread of its own (``openblas_set_num_threads_local``,
OpenBLAS >= 0.3.27) and whole batches run side by side, one per core. Idle workers
block on a queue: nothing spins. Where that call is missing we keep a single
worker and let BLAS thread itself.
"""

from __future__ import annotations

import ctypes
import math
import os
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

_CGROUP_V2 = Path("/sys/fs/cgroup/cpu.max")
_CGROUP_V1 = Path("/sys/fs/cgroup/cpu/cpu.cfs_quota_us")


def available_cores() -> int:
    """``OMP_NUM_THREADS`` when set, else the CPUs this process may run on (affinity,
    capped by a cgroup CPU quota when there is one)."""
    forced = os.environ.get("OMP_NUM_THREADS", "").split(",")[0].strip()
    if forced.isdigit() and int(forced) > 0:
        return int(forced)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    quota = cgroup_cpu_limit()
    return max(1, min(cores or 1, quota or cores or 1))


def cgroup_cpu_limit() -> int | None:
    """Whole CPUs allowed by a cgroup v2 ``cpu.max`` (or v1 CFS quota), rounded up."""
    try:
        if _CGROUP_V2.is_file():
            quota, period = _CGROUP_V2.read_text(encoding="ascii").split()[:2]
        elif _CGROUP_V1.is_file():
            quota = _CGROUP_V1.read_text(encoding="ascii").strip()
            period = (_CGROUP_V1.parent / "cpu.cfs_period_us").read_text(encoding="ascii")
        else:
            return None
        if quota in ("max", "-1"):
            return None
        return max(1, math.ceil(int(quota) / int(period)))
    except (OSError, ValueError):
        return None


def single_blas_thread() -> None:
    """No OpenBLAS helper threads in this process, unless the user chose a count.

    For a process that answers one question (``askalong ask``): its products are small
    (one query against a document's vectors), and OpenBLAS's helpers, started with numpy,
    spin after each one: ~45 CPU ms of such an ask (issue 28). Batches still run one
    per core on our own workers (``worker_pool``). OpenBLAS reads the variable when numpy
    loads it, so this must run before ``import numpy``; afterwards it changes nothing.
    """
    if "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def blas_thread_setter() -> Callable[[int], int] | None:
    """``openblas_set_num_threads_local`` of the OpenBLAS numpy loaded, if it has one."""
    for path in _loaded_openblas():
        try:
            lib = ctypes.CDLL(str(path))
        except OSError:
            continue
        setter = getattr(lib, "openblas_set_num_threads_local", None)
        if setter is not None:
            setter.argtypes = [ctypes.c_int]
            setter.restype = ctypes.c_int
            return setter
    return None


def _loaded_openblas() -> list[Path]:
    """Shared objects mapped into this process whose name says OpenBLAS (Linux)."""
    import numpy  # noqa: F401  (make sure its BLAS is loaded before looking)

    try:
        maps = Path("/proc/self/maps").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    found = {line.split()[-1] for line in maps.splitlines() if "openblas" in line.lower()}
    return sorted(Path(p) for p in found if p.startswith("/"))


def worker_pool(threads: int, *, blas: bool = True) -> tuple[ThreadPoolExecutor, int]:
    """A pool of ``threads`` workers with one BLAS thread each, and its size.

    Falls back to one worker (BLAS threading as configured) without the setter.
    With ``blas=False`` (work that runs outside BLAS) it is simply ``threads`` workers.
    """
    if not blas:
        return ThreadPoolExecutor(max_workers=max(1, threads), thread_name_prefix="e5"), threads
    setter = blas_thread_setter()
    if setter is None:
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="e5"), 1
    size = max(1, threads)
    pool = ThreadPoolExecutor(
        max_workers=size, thread_name_prefix="e5", initializer=setter, initargs=(1,)
    )
    return pool, size
