"""What goes in: files, folders (document files below them) and URLs, read within limits."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from askalong.errors import TooLarge, Unreadable
from askalong.ingest.fetch import is_url


@dataclass(frozen=True)
class Upload:
    """Raw content from anywhere (a file, a URL, an HTTP upload), with where it came from."""

    data: bytes
    source: str  # shown to people; never used as a path
    name: str  # a display name for the title fallback


# Inside folders only files with these endings are taken (a folder of papers often holds
# their data files too); a file named on the command line is always tried.
DOCUMENT_SUFFIXES = frozenset(
    {".pdf", ".html", ".htm", ".xhtml", ".md", ".markdown", ".txt", ".text", ".rst", ".docx"}
)


def expand_inputs(inputs: Iterable[str]) -> list[str]:
    """Folders become the document files below them (sorted, hidden ones skipped); URLs stay."""
    expanded: list[str] = []
    for item in inputs:
        path = Path(item)
        if not is_url(item) and path.is_dir():
            expanded.extend(str(p) for p in _files_below(path))
        else:
            expanded.append(item)
    return expanded


def _files_below(folder: Path) -> Iterator[Path]:
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if not name.startswith(".") and Path(name).suffix.lower() in DOCUMENT_SUFFIXES:
                yield Path(root) / name


def read_file(path: Path, max_bytes: int) -> bytes:
    """Read a regular file within the size limit, naming the path in any error."""
    source = str(path)
    try:
        info = path.stat()
    except FileNotFoundError as exc:
        raise Unreadable("no such file or folder", source=source) from exc
    except OSError as exc:
        raise Unreadable(f"cannot read: {exc.strerror or exc}", source=source) from exc
    if not path.is_file():
        raise Unreadable("not a regular file", source=source)
    if info.st_size > max_bytes:
        raise TooLarge.of(info.st_size, max_bytes, source=source)
    try:
        return path.read_bytes()
    except OSError as exc:
        raise Unreadable(f"cannot read: {exc.strerror or exc}", source=source) from exc
