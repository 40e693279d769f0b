"""What goes in: files, folders (document and source files below them, never through a
link out of the folder unless asked) and URLs, read within limits. Source files that a
repository's ``.gitignore`` excludes, vendored, binary, minified, generated or empty ones
are skipped with a reason counted, not reported as failures; build and configuration
files are taken inside a repository only (``ingest/sources.py``)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from askalong.errors import TooLarge, Unreadable
from askalong.ingest.fetch import is_url
from askalong.ingest.sources import (
    Ignores,
    folder_skip,
    is_repository_root,
    is_source,
    source_skip,
)
from askalong.parse.code.file_names import is_config_name


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
FOLLOW_HINT = "add --follow-links to take it"  # the CLI flag that lifts the folder fence


@dataclass(frozen=True)
class Skipped:
    """A path a folder walk did not take, and why: reported as an input that failed."""

    source: str
    reason: str
    counted: str = ""  # a repository skip ("vendored", ...): counted, not a failure

    def __str__(self) -> str:
        return f"{self.source}: {self.reason}"


def expand_inputs(inputs: Iterable[str], *, follow_links: bool = False) -> list[str | Skipped]:
    """Folders become the document files below them (sorted, hidden ones skipped); URLs stay.

    A folder walk stays inside the folder: a link to a file outside it and a link to a
    folder are skipped, and said so, unless ``follow_links``. An unreadable folder is
    skipped and said so. What is named on the command line is always taken.
    """
    expanded: list[str | Skipped] = []
    for item in inputs:
        path = Path(item)
        if not is_url(item) and path.is_dir():
            walk = _Walk(path.resolve(), follow_links)
            expanded.extend(walk.below(path, Ignores().entering(path), in_repository=False))
        else:
            expanded.append(item)
    return expanded


def folder_name(item: str) -> str | None:
    """The collection name a folder argument gives: the folder's own name (of the resolved
    path, so ``.`` names the folder one stands in); None for a file or a URL."""
    path = Path(item)
    if is_url(item) or not path.is_dir():
        return None
    return path_text(path.resolve().name) or path_text(path.resolve())


class _Walk:
    """One folder argument's walk: where it may go, and the folders it has been through."""

    def __init__(self, root: Path, follow_links: bool) -> None:
        self.root = root  # resolved: where every file taken must be
        self.follow_links = follow_links
        self.seen: set[tuple[int, int]] = set()  # folders walked, as (device, inode)

    def below(
        self, folder: Path, ignores: Ignores, *, in_repository: bool
    ) -> Iterator[str | Skipped]:
        """Files first, then subfolders, each sorted by name; a folder met twice (through
        a link) is walked once. ``in_repository``: a folder above is a repository's root."""
        try:
            key = _identity(folder)
            with os.scandir(folder) as listing:
                entries = sorted((e for e in listing if not e.name.startswith(".")), key=_name)
        except OSError as exc:
            yield Skipped(path_text(folder), f"cannot read the folder: {_reason(exc)}")
            return
        if key in self.seen:
            return
        self.seen.add(key)
        in_repository = in_repository or is_repository_root(folder)
        for entry in entries:
            if not _is_folder(entry):
                yield from self._taken(Path(entry.path), ignores, in_repository)
        for entry in entries:
            if _is_folder(entry):
                skip = folder_skip(Path(entry.path), ignores)
                if skip is not None:
                    yield Skipped(path_text(entry.path), skip, counted=skip)
                else:
                    inner = ignores.entering(Path(entry.path))
                    linked = entry.is_symlink()
                    yield from self._folder(Path(entry.path), linked, inner, in_repository)

    def _taken(self, path: Path, ignores: Ignores, in_repository: bool) -> Iterator[str | Skipped]:
        """A document file, or a source file that is not skipped (``ingest/sources``); a
        build or configuration file only inside a repository."""
        if path.suffix.lower() in DOCUMENT_SUFFIXES:
            yield self._file(path)
        elif is_config_name(path.name) and not in_repository:
            return
        elif is_source(path):
            skip = source_skip(path, ignores)
            yield self._file(path) if skip is None else Skipped(path_text(path), skip, skip)

    def _file(self, path: Path) -> str | Skipped:
        if self.follow_links or _inside(path, self.root):
            return str(path)
        return Skipped(path_text(path), f"a link to a file outside the folder; {FOLLOW_HINT}")

    def _folder(
        self, path: Path, linked: bool, ignores: Ignores, in_repository: bool
    ) -> Iterator[str | Skipped]:
        if linked and not self.follow_links:
            yield Skipped(path_text(path), f"a link to a folder, not followed; {FOLLOW_HINT}")
        else:
            yield from self.below(path, ignores, in_repository=in_repository)


def _identity(folder: Path) -> tuple[int, int]:
    info = folder.stat()
    return info.st_dev, info.st_ino


def _name(entry: os.DirEntry[str]) -> str:
    return entry.name


def _is_folder(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()  # through a link: a link to a folder is a folder here
    except OSError:
        return False  # vanished or unreadable: taken as a file, which names the problem


def _inside(path: Path, root: Path) -> bool:
    try:
        return path.resolve().is_relative_to(root)
    except (OSError, RuntimeError):  # a link loop (RuntimeError before Python 3.13)
        return False


def path_text(path: str | Path) -> str:
    """A path as text that can be stored and printed: a byte that is not UTF-8 (the
    operating system hands it over as a lone surrogate) becomes ``\\xNN``."""
    text = str(path)
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # a surrogate no file name produces
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def read_file(path: Path, max_bytes: int) -> bytes:
    """Read a regular file within the size limit, naming the path in any error."""
    source = path_text(path)
    try:
        info = path.stat()
    except FileNotFoundError as exc:
        raise Unreadable("no such file or folder", source=source) from exc
    except OSError as exc:
        raise Unreadable(f"cannot read: {_reason(exc)}", source=source) from exc
    if not path.is_file():
        raise Unreadable("not a regular file", source=source)
    if info.st_size > max_bytes:
        raise TooLarge.of(info.st_size, max_bytes, source=source)
    try:
        return path.read_bytes()
    except OSError as exc:
        raise Unreadable(f"cannot read: {_reason(exc)}", source=source) from exc
