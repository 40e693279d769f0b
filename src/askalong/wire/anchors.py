"""The JSON forms of an anchor, where a question was asked (a block, a span of it and the
selected text), alone as an answer keeps it and placed (page, section) as threads show it."""

from __future__ import annotations

from typing import cast

from typing_extensions import TypedDict

from askalong.types import Anchor
from askalong.wire.derived import value_from_json, value_json
from askalong.wire.documents import SpanJSON


class AnchorJSON(TypedDict):
    """Where a question was asked: a block and a span of it, with the selected text; a
    selection over several blocks has every block's span in ``spans`` (the first is the
    block's; empty for one block and in turns stored before it)."""

    document_id: str
    block_id: str | None
    start: int | None
    end: int | None
    selected_text: str | None
    spans: list[SpanJSON]


class PlacedAnchorJSON(AnchorJSON):
    """An anchor with where its block is (both empty when the block is gone)."""

    page: int | None
    section_path: list[str]


def anchor_json(anchor: Anchor | None) -> AnchorJSON | None:
    return None if anchor is None else cast(AnchorJSON, value_json(anchor))


def placed_anchor_json(
    anchor: Anchor | None, page: int | None, section_path: tuple[str, ...]
) -> PlacedAnchorJSON | None:
    """``anchor_json`` plus where the anchor block is (page, section)."""
    base = anchor_json(anchor)
    if base is None:
        return None
    return {**base, "page": page, "section_path": list(section_path)}


def anchor_from_json(value: AnchorJSON | None) -> Anchor | None:
    """The anchor of ``value``; a key absent from an older form keeps its default."""
    return None if value is None else value_from_json(Anchor, value)
