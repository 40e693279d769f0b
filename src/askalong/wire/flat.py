"""The JSON form of a flat value, derived from its dataclass: a frozen dataclass whose
fields are JSON scalars or tuples of them is written as its fields by name (a tuple as a
list) and read back the same way, so its builder and reader are not written out field by
field. Its ``TypedDict`` (the OpenAPI schema) is the one other declaration, held to the
dataclass's fields by tests/unit/test_wire_flat.py (``FLAT_FORMS`` there)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

    Value = TypeVar("Value", bound=DataclassInstance)


def flat_json(value: DataclassInstance) -> dict[str, Any]:
    """``value``'s fields by name, a tuple as a list."""
    return {f.name: _listed(getattr(value, f.name)) for f in fields(value)}


def from_flat(cls: type[Value], value: Mapping[str, Any]) -> Value:
    """A ``cls`` from the keys of ``value`` named as its fields, a list as a tuple; other
    keys are ignored, and a field absent from ``value`` (a form stored before the field
    existed) keeps its default."""
    named = {f.name: _tupled(value[f.name]) for f in fields(cls) if f.name in value}
    return cls(**named)


def _listed(item: object) -> object:
    return list(item) if isinstance(item, tuple) else item


def _tupled(item: object) -> object:
    return tuple(item) if isinstance(item, list) else item
