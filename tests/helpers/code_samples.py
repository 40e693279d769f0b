"""Real source nobody here wrote: the Python standard library this interpreter runs on, and
Debian's golang.org/x/sync (errgroup, semaphore, singleflight), fetched with
``apt-get download`` and unpacked with ``dpkg -x`` (CI unpacks it once into
``ASKALONG_GO_SYNC``). When apt cannot fetch it, the test fails saying so."""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
from pathlib import Path

import pytest

STDLIB = Path(threading.__file__).parent
GO_PACKAGE = "golang-golang-x-sync-dev"
GO_SYNC_PATH = Path("usr/share/gocode/src/golang.org/x/sync")


def copy_stdlib(into: Path, *relative: str) -> Path:
    """The named stdlib files and folders copied under ``into`` (a repository folder)."""
    for name in relative:
        source = STDLIB / name
        target = into / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, target)
    return into


def go_sync(workdir: Path) -> Path:
    """The x/sync source folder: from ``ASKALONG_GO_SYNC``, else fetched into ``workdir``."""
    given = os.environ.get("ASKALONG_GO_SYNC")
    root = Path(given) if given else workdir
    if not (root / GO_SYNC_PATH).is_dir():
        _fetch(root)
    return root / GO_SYNC_PATH


def _fetch(root: Path) -> None:
    root.mkdir(parents=True, exist_ok=True)
    fetched = subprocess.run(
        ["apt-get", "download", GO_PACKAGE], cwd=root, capture_output=True, text=True, timeout=120
    )
    debs = list(root.glob(f"{GO_PACKAGE}_*.deb"))
    if fetched.returncode != 0 or not debs:
        pytest.fail(f"apt-get download {GO_PACKAGE} failed: {fetched.stderr.strip()[-400:]}")
    subprocess.run(["dpkg", "-x", str(debs[0]), str(root)], check=True, timeout=60)
