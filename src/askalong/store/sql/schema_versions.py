"""Numbered schema migrations, ``<backend package>/migrations/NNNN_name.sql``: reading
them, and refusing a database a newer AskAlong has migrated. Each backend applies its own
(``store/sqlite/migrate.py``, ``store/postgres/migrate.py``), once each."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources

from askalong.errors import StoreError

_MIGRATION_FILE = re.compile(r"(\d{4})_([a-z0-9_]+)\.sql")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def read_migrations(package: str) -> tuple[Migration, ...]:
    """The numbered files in ``package``'s ``migrations`` folder, in order."""
    folder = resources.files(package).joinpath("migrations")
    found = [
        Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8"))
        for entry in folder.iterdir()
        if (match := _MIGRATION_FILE.fullmatch(entry.name))
    ]
    return tuple(sorted(found, key=lambda m: m.version))


def refuse_newer(done: Iterable[int], known: tuple[Migration, ...]) -> None:
    """``StoreError`` when the database has a version this AskAlong does not know."""
    unknown = set(done) - {m.version for m in known}
    if unknown:
        raise StoreError(
            f"the database has schema version {max(unknown)}, newer than this AskAlong knows;"
            " upgrade AskAlong"
        )
