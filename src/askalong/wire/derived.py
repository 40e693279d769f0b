"""The JSON form of a value, derived from its dataclass: a frozen dataclass is written as its
fields by name, in order (a tuple as a list, a nested value as its own form, recursively) and
read back by the fields' types (a list as a tuple, a dict as the nested dataclass, None where
the field is optional), so its builder and reader are not written out field by field.

Where a form departs from its fields, ``SHAPES`` says how, once: a key named otherwise, a
nested value whose keys stand among its holder's, a field written first or last. Its ``TypedDict``
(the OpenAPI schema) is the one other declaration, held to these keys by
tests/unit/test_wire_derived.py (``DERIVED_FORMS`` there). The fields' types are read at run
time (``get_type_hints``, once per class), so a derived value's module imports the types its
fields name, not under ``TYPE_CHECKING`` only.
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, is_dataclass
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    TypeVar,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

from askalong.types import Claim
from askalong.values.accounts import Org
from askalong.values.collections import Collection
from askalong.values.feedback import Feedback, RankedChunk

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

    Value = TypeVar("Value", bound=DataclassInstance)


_SCALARS = (str, int, float, bool, type(None))


@dataclass(frozen=True)
class Shape:
    """How one value's form departs from its fields."""

    keys: Mapping[str, str] = field(default_factory=dict)  # field name -> its JSON key
    inline: frozenset[str] = frozenset()  # nested values whose keys join the holder's
    first: tuple[str, ...] = ()  # fields written before the others (the form's order)
    last: tuple[str, ...] = ()  # fields written after the others


SHAPES: Mapping[type, Shape] = {
    Claim: Shape(keys={"quote_numbers": "quotes"}),
    RankedChunk: Shape(inline=frozenset({"hit"})),  # {"rank", **hit, "title", ...}
    Feedback: Shape(last=("judged",)),  # the frozen copy after the record's own fields
    Org: Shape(last=("created",)),  # {"id", "parent", "created"}
    Collection: Shape(first=("id", "name")),  # {"id", "name", "owner", ...}
}


@dataclass(frozen=True)
class _Slot:
    """One field as the form holds it: its key (None: inline), and how it is written and
    read back (None: as it is, a scalar's case, decided once from the field's type)."""

    name: str
    key: str | None
    write: Callable[[Any], Any] | None
    read: Callable[[Any], Any] | None


def value_json(value: DataclassInstance) -> dict[str, Any]:
    """``value``'s fields by their keys: a tuple as a list, a nested value as its form."""
    written: dict[str, Any] = {}
    for slot in _slots(type(value)):
        item = getattr(value, slot.name)
        if slot.key is None:
            written.update(value_json(item))
        else:
            written[slot.key] = item if slot.write is None else slot.write(item)
    return written


def value_from_json(cls: type[Value], value: Mapping[str, Any]) -> Value:
    """A ``cls`` from the keys of ``value`` its fields are written as; other keys are
    ignored, and a field absent from ``value`` (a form stored before the field existed)
    keeps its default."""
    named = {}
    for slot in _slots(cls):
        if slot.key is None:
            named[slot.name] = value_from_json(_inlined(cls, slot.name), value)
        elif slot.key in value:
            item = value[slot.key]
            named[slot.name] = item if slot.read is None else slot.read(item)
    return cls(**named)


def json_keys(cls: type[DataclassInstance]) -> list[str]:
    """The keys of ``cls``'s form, in the order it writes them."""
    hints = get_type_hints(cls)
    keys: list[str] = []
    for slot in _slots(cls):
        keys += [slot.key] if slot.key is not None else json_keys(hints[slot.name])
    return keys


@functools.cache
def _slots(cls: type[DataclassInstance]) -> tuple[_Slot, ...]:
    shape = SHAPES.get(cls, Shape())
    hints = get_type_hints(cls)
    placed = (*shape.first, *shape.last)
    names = [*shape.first, *(f.name for f in fields(cls) if f.name not in placed), *shape.last]
    return tuple(_slot(name, _key(shape, name), hints[name]) for name in names)


def _slot(name: str, key: str | None, hint: Any) -> _Slot:
    if _is_scalar(hint):
        return _Slot(name, key, None, None)
    if get_origin(hint) is tuple and all(arg is ... or _is_scalar(arg) for arg in get_args(hint)):
        return _Slot(name, key, list, tuple)
    return _Slot(name, key, form_of, form_reader(hint))


def _is_scalar(hint: Any) -> bool:
    """A string, number, bool or literal, or one of them or None: written as it is."""
    if get_origin(hint) in (Union, types.UnionType):
        return all(arg is type(None) or _is_scalar(arg) for arg in get_args(hint))
    return hint in _SCALARS or get_origin(hint) is Literal


@functools.cache
def _inlined(cls: type[DataclassInstance], name: str) -> type[DataclassInstance]:
    inner: type[DataclassInstance] = get_type_hints(cls)[name]
    return inner


def _key(shape: Shape, name: str) -> str | None:
    return None if name in shape.inline else shape.keys.get(name, name)


def form_of(item: object) -> object:
    """Any field's JSON form: a value's own, a tuple as a list of forms, a scalar as itself."""
    if type(item) in _SCALARS:  # the common case first: most fields are scalars
        return item
    if is_dataclass(item) and not isinstance(item, type):
        return value_json(item)
    if isinstance(item, tuple):
        return [form_of(part) for part in item]
    return item


def form_reader(hint: Any) -> Callable[[Any], Any]:
    """How a field of type ``hint`` is read from its JSON form: by the type, once per class."""
    if isinstance(hint, type) and is_dataclass(hint):
        return functools.partial(value_from_json, hint)
    origin, args = get_origin(hint), get_args(hint)
    if origin in (Union, types.UnionType) and type(None) in args:
        present = [arg for arg in args if arg is not type(None)]
        inner = form_reader(present[0]) if len(present) == 1 else _same
        return lambda item: None if item is None else inner(item)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        each = form_reader(args[0])
        return lambda items: tuple(each(item) for item in items)
    return tuple if origin is tuple else _same


def _same(item: object) -> object:
    return item
