"""The values' JSON forms are derived from their dataclasses (wire/derived.py): each TypedDict
names the keys its dataclass is written as, in order (a rename, an inlined value and a field
moved first or last declared once, in ``SHAPES``), a key holding a nested value holds that value's
TypedDict, and a value, nested ones included, survives the round trip."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, is_dataclass
from typing import Any, get_args

import pytest
import wire_forms
from typing_extensions import get_type_hints, is_typeddict

from askalong.types import (
    Anchor,
    Answer,
    AnswerPassage,
    AnswerSpan,
    BlockSpan,
    Claim,
    ConflictNotice,
    Hit,
    Quote,
    Timings,
)
from askalong.values.accounts import ApiToken, Membership, Org, User
from askalong.values.chat_answers import ChatPart
from askalong.values.collections import Collection
from askalong.values.feedback import Citation, Feedback, Judged, RankedChunk, Triage
from askalong.wire import (
    AnchorJSON,
    AnswerJSON,
    ChatPartJSON,
    ClaimJSON,
    CollectionJSON,
    MembershipJSON,
    OrgJSON,
    SpanJSON,
    TokenJSON,
    UserJSON,
)
from askalong.wire.answers import (
    AnswerPassageJSON,
    AnswerSpanJSON,
    ConflictNoticeJSON,
    QuoteJSON,
    RankedHitJSON,
    TimingsJSON,
)
from askalong.wire.derived import SHAPES, Shape, json_keys, value_from_json, value_json
from askalong.wire.feedback import (
    CitationJSON,
    FeedbackJSON,
    JudgedJSON,
    RankedChunkJSON,
    TriageJSON,
)

# (dataclass, its TypedDict): the values whose JSON builder and reader are derived.
DERIVED_FORMS: list[tuple[type[Any], type[Any]]] = [
    (Quote, QuoteJSON),
    (ConflictNotice, ConflictNoticeJSON),
    (Timings, TimingsJSON),
    (Hit, RankedHitJSON),
    (Citation, CitationJSON),
    (Triage, TriageJSON),
    (BlockSpan, SpanJSON),
    (AnswerSpan, AnswerSpanJSON),
    (AnswerPassage, AnswerPassageJSON),
    (Claim, ClaimJSON),
    (Anchor, AnchorJSON),
    (Answer, AnswerJSON),
    (Judged, JudgedJSON),
    (Feedback, FeedbackJSON),
    (User, UserJSON),
    (Org, OrgJSON),
    (Membership, MembershipJSON),
    (ApiToken, TokenJSON),
    (ChatPart, ChatPartJSON),
    (Collection, CollectionJSON),
]
SAMPLES = [
    Quote(2, "d1", "b7", 3, 9, "quoted", 4, ("Intro", "Scope"), "supported"),
    ConflictNotice(1, 3, "number", ("42",), ("43",)),
    Timings(1.5, 20.0, 3.25, 24.75),
    Hit("c1", "d1", 0.5, "hybrid", 3.1, 1, 0.8, 2, None),
    Citation(1, "d1", "Paper", None, "b1", 0, 5, "words", "ab12", ("c1", "c2"), ("f0", "f1")),
    Triage("retrieval_miss", "no chunk held it", ("searched: x",), "terms"),
    Anchor("d1", "b1", 0, 4, "text", (BlockSpan("b1", 0, 4), BlockSpan("b2", 0, 3))),
    wire_forms.answer(),
    wire_forms.feedback(),
    Org("eng", "2026-12-05", parent="acme"),
    ApiToken("t1", "alice", "ci", "2026-12-05", revoked=True),
    ChatPart("Hi?", "answered", "Hello [3]", (3,)),
    ChatPart("Who calls f?", "answered", "f is called from g [1]", (1,), "code_graph"),
    Collection("c0ffee", "alice", "手册", "2026-12-05", documents=2, chunks=9),
]


@pytest.mark.parametrize(("value", "form"), DERIVED_FORMS, ids=lambda v: v.__name__)
def test_the_typed_dict_names_the_derived_keys_in_order(value: type, form: type) -> None:
    assert list(get_type_hints(form)) == json_keys(value)


def test_a_ranked_chunk_writes_its_hit_inline() -> None:
    assert set(get_type_hints(RankedChunkJSON)) == set(json_keys(RankedChunk))
    assert json_keys(RankedChunk)[:2] == ["rank", "chunk_id"]


@pytest.mark.parametrize("value", SAMPLES, ids=lambda v: type(v).__name__)
def test_a_value_survives_its_json(value: Any) -> None:
    written = value_json(value)
    assert json.loads(json.dumps(written)) == written  # lists, not tuples, all the way down
    assert value_from_json(type(value), written) == value


def test_a_field_absent_from_an_old_form_keeps_its_default_and_extra_keys_are_ignored() -> None:
    stored = {"chunk_id": "c1", "document_id": "d1", "score": 0.5, "mode": "keyword", "rank": 1}
    assert value_from_json(Hit, stored) == Hit("c1", "d1", 0.5, "keyword")


def test_nested_values_are_read_back_as_their_dataclasses() -> None:
    written = value_json(wire_forms.answer())
    read = value_from_json(Answer, written)
    assert isinstance(read.anchor, Anchor) and isinstance(read.passage, AnswerPassage)
    assert isinstance(read.passage.answer_spans[0], AnswerSpan)
    assert read.claims[0].quote_numbers == (1,) and "quotes" in written["claims"][0]


@dataclass(frozen=True)
class _Part:
    name: str
    sizes: tuple[int, ...] = ()


@dataclass(frozen=True)
class _Whole:
    """A toy value: adding ``note`` to it is the one edit its form needs."""

    id: str
    parts: tuple[_Part, ...]
    best: _Part | None = None
    note: str = field(default="")


def test_a_field_added_to_a_dataclass_flows_into_its_form() -> None:
    whole = _Whole("w", (_Part("a", (1, 2)),), _Part("b"), note="new")
    written = value_json(whole)
    assert written == {
        "id": "w",
        "parts": [{"name": "a", "sizes": [1, 2]}],
        "best": {"name": "b", "sizes": []},
        "note": "new",
    }
    assert value_from_json(_Whole, written) == whole
    assert value_from_json(_Whole, {"id": "w", "parts": []}) == _Whole("w", ())


def _nested(hint: Any) -> list[Any]:
    """The dataclasses or TypedDicts a field's type holds (inside a tuple, list or Optional)."""
    if is_dataclass(hint) or is_typeddict(hint):
        return [hint]
    return [inner for arg in get_args(hint) for inner in _nested(arg)]


@pytest.mark.parametrize(("value", "form"), DERIVED_FORMS, ids=lambda v: v.__name__)
def test_a_nested_value_s_key_holds_its_own_form(value: type, form: type) -> None:
    """Where a field holds a value, its key holds that value's TypedDict (the pairing above)."""
    pairs = dict(DERIVED_FORMS) | {RankedChunk: RankedChunkJSON}
    shape, form_hints = SHAPES.get(value, Shape()), get_type_hints(form)
    for name, hint in get_type_hints(value).items():
        if _nested(hint) and name not in shape.inline:
            held = form_hints[shape.keys.get(name, name)]
            assert _nested(held) == [pairs[cls] for cls in _nested(hint)], name
