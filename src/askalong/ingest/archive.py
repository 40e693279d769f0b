"""A repository as a ZIP or tar archive, unpacked safely into a folder of our own.

Nothing lands outside the folder: a member with an absolute path, a ``..`` part or a
drive letter is refused, links and device files are skipped (a link could point out),
and the archive's file count and inflated size are capped before anything is written
(``MAX_ARCHIVE_FILES``, ``MAX_ARCHIVE_BYTES``; each file also within the file limit).
Every error names the archive and the member.
"""

from __future__ import annotations

import shutil
import tarfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO, Any

from askalong.errors import InputError, TooLarge, Unreadable

MAX_ARCHIVE_FILES = 20_000
MAX_ARCHIVE_BYTES = 1024 * 2**20
ARCHIVE_SUFFIXES = (".zip", ".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz")


@dataclass(frozen=True)
class Member:
    name: str
    size: int
    key: object  # the archive's own entry (ZipInfo, TarInfo)


def is_archive(path: str) -> bool:
    return path.lower().endswith(ARCHIVE_SUFFIXES) and Path(path).is_file()


def archive_stem(path: str) -> str:
    """The repository's name: the archive's name without its ending(s)."""
    name = Path(path).name
    for suffix in sorted(ARCHIVE_SUFFIXES, key=len, reverse=True):
        if name.lower().endswith(suffix):
            return name[: -len(suffix)] or name
    return name


def unpack(path: str, into: Path, *, max_file_bytes: int) -> int:
    """Unpack the archive at ``path`` into the empty folder ``into``; the files written."""
    try:
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as archive:
                return _write(path, into, _zip_members(archive), archive.open, max_file_bytes)
        with tarfile.open(path) as tar:
            return _write(path, into, _tar_members(tar), tar.extractfile, max_file_bytes)
    except (zipfile.BadZipFile, tarfile.TarError, EOFError, OSError) as exc:
        raise Unreadable(f"cannot read the archive: {exc}", source=path) from exc


def _write(
    path: str,
    into: Path,
    members: list[Member],
    opener: Callable[[Any], IO[bytes] | None],
    max_file_bytes: int,
) -> int:
    _check_limits(path, members, max_file_bytes)
    for member in members:
        target = into.joinpath(*_safe_parts(path, member.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        source = opener(member.key)
        assert source is not None  # a regular file always opens
        with source, target.open("wb") as out:
            shutil.copyfileobj(source, out)
    return len(members)


def _zip_members(archive: zipfile.ZipFile) -> list[Member]:
    members = []
    for info in archive.infolist():
        mode = info.external_attr >> 16
        if not info.is_dir() and (mode & 0o170000) != 0o120000:  # links are skipped
            members.append(Member(info.filename, info.file_size, info))
    return members


def _tar_members(archive: tarfile.TarFile) -> list[Member]:
    # links, devices and folders are never written
    return [Member(i.name, i.size, i) for i in archive.getmembers() if i.isfile()]


def _check_limits(path: str, members: list[Member], max_file_bytes: int) -> None:
    if len(members) > MAX_ARCHIVE_FILES:
        raise TooLarge(f"{len(members):,} files (at most {MAX_ARCHIVE_FILES:,})", source=path)
    total = sum(m.size for m in members)
    if total > MAX_ARCHIVE_BYTES:
        limit = MAX_ARCHIVE_BYTES / 2**20
        raise TooLarge(
            f"inflates to {total / 2**20:,.0f} MB (at most {limit:,.0f} MB)", source=path
        )
    for member in members:
        _safe_parts(path, member.name)
        if member.size > max_file_bytes:
            raise TooLarge.of(member.size, max_file_bytes, source=f"{path}: {member.name}")


def _safe_parts(path: str, name: str) -> tuple[str, ...]:
    """The member's path parts, refused when it would leave the folder."""
    pure = PurePosixPath(name.replace("\\", "/"))
    parts = pure.parts
    if pure.is_absolute() or ".." in parts or not parts or ":" in parts[0]:
        raise InputError(f"{name!r} would be written outside the archive's folder", source=path)
    return parts
