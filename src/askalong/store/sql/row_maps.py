"""A value's SQL row, derived from its dataclass: ``RowMap``, shared by both backends.

Each field is the column of its name, stored by its type: a bool as 0/1, a tuple or a nested
value as its JSON form's compact text (``wire/derived``), None as NULL, a scalar as itself;
read back the same way. A map declares only where a table departs from that (a column named
otherwise, a field with its own encoding, a field read but not written as itself: a count the
SELECT works out, a part of a packed column; a column written from the whole value), so adding
a field is one edit to the dataclass plus a migration that adds its column
(tests/contract/test_row_maps.py adds one to a toy value on both backends).
"""

from __future__ import annotations

import json
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, is_dataclass
from functools import cached_property
from typing import Any, Generic, TypeVar, Union, get_args, get_origin, get_type_hints

from askalong.store.sql.database import Row
from askalong.wire.derived import form_of, form_reader

V = TypeVar("V")


# One encoder for every row: ``json.dumps`` with options makes a new one per call.
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def to_json(value: object) -> str:
    """Compact JSON text, as every JSON column holds it."""
    return _ENCODER.encode(value)


@dataclass(frozen=True)
class Column:
    """A field stored otherwise than by its type under its own name."""

    name: str | None = None  # the column, when not the field's name
    write: Callable[[Any], object] | None = None  # the field's value -> the column's
    read: Callable[[Any], Any] | None = None  # the column's value -> the field's


@dataclass(frozen=True)
class _Stored:
    """One field as its column holds it."""

    field: str
    column: str
    write: Callable[[Any], object]
    read: Callable[[Any], Any]


@dataclass(frozen=True)
class RowMap(Generic[V]):
    """How the dataclass ``cls`` is a row of ``table``: ``columns`` names the fields stored
    otherwise than by their type; ``read_only`` the fields read but never written as
    themselves (a count the SELECT works out, or a part of a column ``extra`` writes);
    ``extra`` the columns written from the whole value (several fields packed in one, an
    index's copy of a nested field)."""

    cls: type[V]
    table: str
    columns: Mapping[str, Column] = field(default_factory=dict)
    read_only: frozenset[str] = frozenset()
    extra: Mapping[str, Callable[[V], object]] = field(default_factory=dict)

    @cached_property
    def _stored(self) -> tuple[_Stored, ...]:
        hints = get_type_hints(self.cls)
        names = [f.name for f in fields(self.cls)]  # type: ignore[arg-type]
        return tuple(_stored(name, hints[name], self.columns.get(name)) for name in names)

    @cached_property
    def _own(self) -> tuple[_Stored, ...]:
        """The fields a row writes as themselves (all but the read-only ones)."""
        return tuple(s for s in self._stored if s.field not in self.read_only)

    @cached_property
    def written(self) -> tuple[str, ...]:
        """The columns a row writes, in field order, then the extra ones."""
        return tuple(s.column for s in self._own) + tuple(self.extra)

    def selected(self, alias: str = "") -> str:
        """The table's columns a SELECT reads, comma-separated, each after ``alias.`` when
        given (a SELECT adds what it works out itself)."""
        prefix = f"{alias}." if alias else ""
        return ", ".join(prefix + column for column in dict.fromkeys(self.written))

    @cached_property
    def insert(self) -> str:
        marks = ", ".join("?" for _ in self.written)
        return f"INSERT INTO {self.table} ({', '.join(self.written)}) VALUES ({marks})"

    @cached_property
    def select(self) -> str:
        return f"SELECT {self.selected()} FROM {self.table}"

    def row(self, value: V) -> tuple[object, ...]:
        """The parameters of ``insert`` for ``value``."""
        own = [s.write(getattr(value, s.field)) for s in self._own]
        return (*own, *[write(value) for write in self.extra.values()])

    def named(self, value: V) -> dict[str, object]:
        """``value``'s row by column name (for an UPDATE of some of them)."""
        return dict(zip(self.written, self.row(value), strict=True))

    def value(self, row: Row) -> V:
        """The value of a row read by column name."""
        return self.cls(**{s.field: s.read(row[s.column]) for s in self._stored})


def _stored(name: str, hint: Any, column: Column | None) -> _Stored:
    column = column or Column()
    write, read = _by_type(hint)
    return _Stored(name, column.name or name, column.write or write, column.read or read)


def _by_type(hint: Any) -> tuple[Callable[[Any], object], Callable[[Any], Any]]:
    """How a field of type ``hint`` is written to its column and read back."""
    if hint is bool:
        return int, bool
    if _as_json(hint):
        from_form = form_reader(hint)
        write = to_json if _plain_tuple(hint) else _json_text  # the first skips a copy
        return write, lambda text: None if text is None else from_form(json.loads(text))
    return _same, _same


def _as_json(hint: Any) -> bool:
    """A tuple or a nested value (optional or not) is kept as its JSON form."""
    if get_origin(hint) in (Union, types.UnionType):
        return any(_as_json(arg) for arg in get_args(hint) if arg is not type(None))
    return get_origin(hint) is tuple or (isinstance(hint, type) and is_dataclass(hint))


def _plain_tuple(hint: Any) -> bool:
    """A tuple of strings or numbers: its JSON form is itself."""
    args = get_args(hint)
    return get_origin(hint) is tuple and all(arg in (str, int, float, ...) for arg in args)


def _json_text(value: object) -> str | None:
    return None if value is None else to_json(form_of(value))


def _same(value: object) -> object:
    return value
