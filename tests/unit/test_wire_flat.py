"""The flat values' JSON forms are derived from their dataclasses (wire/flat.py): each
TypedDict names the dataclass's fields, in order, and a value survives the round trip."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import pytest
from typing_extensions import get_type_hints

from askalong.types import ConflictNotice, Hit, Quote, Timings
from askalong.values.feedback import Citation, Triage
from askalong.wire.answers import ConflictNoticeJSON, QuoteJSON, RankedHitJSON, TimingsJSON
from askalong.wire.feedback import CitationJSON, TriageJSON
from askalong.wire.flat import flat_json, from_flat

# (dataclass, its TypedDict): the values whose JSON builder and reader are flat_json / from_flat.
FLAT_FORMS: list[tuple[type[Any], type[Any]]] = [
    (Quote, QuoteJSON),
    (ConflictNotice, ConflictNoticeJSON),
    (Timings, TimingsJSON),
    (Hit, RankedHitJSON),
    (Citation, CitationJSON),
    (Triage, TriageJSON),
]
SAMPLES = [
    Quote(2, "d1", "b7", 3, 9, "quoted", 4, ("Intro", "Scope"), "supported"),
    ConflictNotice(1, 3, "number", ("42",), ("43",)),
    Timings(1.5, 20.0, 3.25, 24.75),
    Hit("c1", "d1", 0.5, "hybrid", 3.1, 1, 0.8, 2, None),
    Citation(1, "d1", "Paper", None, "b1", 0, 5, "words", "ab12", ("c1", "c2"), ("f0", "f1")),
    Triage("retrieval_miss", "no chunk held it", ("searched: x",), "terms"),
]


@pytest.mark.parametrize(("value", "form"), FLAT_FORMS, ids=lambda v: v.__name__)
def test_the_typed_dict_names_the_dataclass_fields_in_order(value: type, form: type) -> None:
    assert list(get_type_hints(form)) == [f.name for f in fields(value)]


@pytest.mark.parametrize("value", SAMPLES, ids=lambda v: type(v).__name__)
def test_a_flat_value_survives_its_json(value: Any) -> None:
    written = flat_json(value)
    assert all(not isinstance(item, tuple) for item in written.values())  # JSON has lists
    assert from_flat(type(value), written) == value


def test_a_field_absent_from_an_old_form_keeps_its_default_and_extra_keys_are_ignored() -> None:
    stored = {"chunk_id": "c1", "document_id": "d1", "score": 0.5, "mode": "keyword", "rank": 1}
    assert from_flat(Hit, stored) == Hit("c1", "d1", 0.5, "keyword")
