"""The JSON forms of an anchor, where a question was asked (a block, a span of it and the
selected text), alone as an answer keeps it and placed (page, section) as threads show it."""

from __future__ import annotations

from typing_extensions import TypedDict

from askalong.types import Anchor, BlockSpan
from askalong.wire.documents import SpanJSON, span_json


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
    if anchor is None:
        return None
    return {
        "document_id": anchor.document_id,
        "block_id": anchor.block_id,
        "start": anchor.start,
        "end": anchor.end,
        "selected_text": anchor.selected_text,
        "spans": [span_json(span) for span in anchor.spans],
    }


def placed_anchor_json(
    anchor: Anchor | None, page: int | None, section_path: tuple[str, ...]
) -> PlacedAnchorJSON | None:
    """``anchor_json`` plus where the anchor block is (page, section)."""
    base = anchor_json(anchor)
    if base is None:
        return None
    return {**base, "page": page, "section_path": list(section_path)}


def anchor_from_json(value: AnchorJSON | None) -> Anchor | None:
    if value is None:
        return None
    return Anchor(
        document_id=value["document_id"],
        block_id=value.get("block_id"),
        start=value.get("start"),
        end=value.get("end"),
        selected_text=value.get("selected_text"),
        spans=tuple(BlockSpan(s["block_id"], s["start"], s["end"]) for s in value.get("spans", [])),
    )
