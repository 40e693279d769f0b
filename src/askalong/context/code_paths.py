"""How an answer names a source file: by its path inside its repository (``retry.go``,
``src/app/main.py``), never by where the machine that added it keeps it."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import PurePosixPath


def shown_paths(sources: Sequence[str]) -> list[str]:
    """Each source's path below the folder all of them share; its name alone when they
    share none (absolute and relative sources mixed) or there is one."""
    paths = [PurePosixPath(source.replace("\\", "/")) for source in sources]
    try:
        root = PurePosixPath(os.path.commonpath([str(p.parent) for p in paths]))
    except ValueError:
        return [p.name for p in paths]
    return [p.relative_to(root).as_posix() for p in paths]
