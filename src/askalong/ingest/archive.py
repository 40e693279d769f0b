"""A repository as a ZIP or tar archive, unpacked safely into a folder of our own.

Nothing lands outside the folder: a member with an absolute path, a ``..`` part or a
drive letter is refused, links and device files are skipped (a link could point out),
and the archive's file count and inflated size are capped before anything is written
(``MAX_ARCHIVE_FILES``, ``MAX_ARCHIVE_BYTES``; each file also within the file limit).
An archive uploaded over HTTP (``unpacked_upload``) is held to more: a link or device
member is refused too, naming it, since whoever sent it is not the machine's user.
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
    return is_archive_name(path) and Path(path).is_file()


def is_archive_name(name: str) -> bool:
    """Whether a file's name says it is an archive of a repository (``repo.tar.gz``)."""
    return name.lower().endswith(ARCHIVE_SUFFIXES)


def unpacked_upload(data: bytes, name: str, into: Path, *, max_file_bytes: int) -> Path:
    """The uploaded archive ``data`` (called ``name``) unpacked into the empty folder
    ``into``; the folder its files are in. Links and devices are refused."""
    stored = into / "archive"
    stored.write_bytes(data)
    folder = into / "files"
    folder.mkdir()
    unpack(str(stored), folder, max_file_bytes=max_file_bytes, refuse_links=True, shown=name)
    stored.unlink()
    return folder


def archive_stem(path: str) -> str:
    """The repository's name: the archive's name without its ending(s)."""
    name = Path(path).name
    for suffix in sorted(ARCHIVE_SUFFIXES, key=len, reverse=True):
        if name.lower().endswith(suffix):
            return name[: -len(suffix)] or name
    return name


def unpack(
    path: str,
    into: Path,
    *,
    max_file_bytes: int,
    refuse_links: bool = False,
    shown: str | None = None,
) -> int:
    """Unpack the archive at ``path`` into the empty folder ``into``; the files written.
    ``refuse_links``: a link or device member is an error instead of skipped; ``shown``
    is what errors call the archive (an upload's name rather than a temporary path)."""
    named = shown or path
    try:
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as archive:
                members = _zip_members(archive, named, refuse_links)
                return _write(named, into, members, archive.open, max_file_bytes)
        with tarfile.open(path) as tar:
            members = _tar_members(tar, named, refuse_links)
            return _write(named, into, members, tar.extractfile, max_file_bytes)
    except (zipfile.BadZipFile, tarfile.TarError, EOFError, OSError) as exc:
        raise Unreadable(f"cannot read the archive: {exc}", source=named) from exc


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


def _zip_members(archive: zipfile.ZipFile, path: str, refuse_links: bool) -> list[Member]:
    members = []
    for info in archive.infolist():
        if info.is_dir():
            continue
        if (info.external_attr >> 16) & 0o170000 == 0o120000:  # a link: never written
            if refuse_links:
                raise _link_refused(path, info.filename)
            continue
        members.append(Member(info.filename, info.file_size, info))
    return members


def _tar_members(archive: tarfile.TarFile, path: str, refuse_links: bool) -> list[Member]:
    # links, devices and folders are never written
    members = []
    for info in archive.getmembers():
        if info.isfile():
            members.append(Member(info.name, info.size, info))
        elif refuse_links and not info.isdir():
            raise _link_refused(path, info.name)
    return members


def _link_refused(path: str, name: str) -> InputError:
    return InputError(f"{name!r} is a link or device, not a file: refused", source=path)


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
