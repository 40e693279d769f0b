"""The JSON form of the contradiction scan (``askalong conflicts --json``): what the scan
run just now did, and each pair with both spans and what differs."""

from __future__ import annotations

from typing_extensions import TypedDict

from askalong.values.conflicts import ConflictPair, ConflictSide, ScanReport
from askalong.wire.documents import SpanJSON, span_json
from askalong.wire.titles import shown_title

EXCERPT_CONTEXT = 80  # characters of the chunk shown around the changed tokens


class ConflictSideJSON(TypedDict):
    """One side: ``text`` is the chunk's text around ``start:end`` (its changed tokens),
    which is ``span`` of the document's block."""

    document_id: str
    title: str
    page: int | None
    chunk_id: str
    start: int
    end: int
    span: SpanJSON | None
    tokens: list[str]
    text: str


class ConflictJSON(TypedDict):
    kind: str  # "number" | "date" | "version" | "setting" | "negation"
    cosine: float
    dice: float
    found_at: str
    sides: list[ConflictSideJSON]


class ScanJSON(TypedDict):
    documents: int
    chunks: int
    skipped: int  # chunks with no vector yet: scanned again next time
    compared: int
    found: int
    seconds: float


class ConflictsJSON(TypedDict):
    """``askalong conflicts --json``: the scan run first, then the pairs."""

    scan: ScanJSON
    conflicts: list[ConflictJSON]


def conflicts_json(
    report: ScanReport,
    pairs: list[ConflictPair],
    titles: dict[str, str],
    texts: dict[str, str],
) -> ConflictsJSON:
    return {
        "scan": scan_json(report),
        "conflicts": [conflict_json(p, titles, texts) for p in pairs],
    }


def conflict_side_json(side: ConflictSide, title: str, chunk_text: str) -> ConflictSideJSON:
    start = max(side.start - EXCERPT_CONTEXT, 0)
    return {
        "document_id": side.document_id,
        "title": shown_title(title),
        "page": side.page,
        "chunk_id": side.chunk_id,
        "start": side.start,
        "end": side.end,
        "span": None if side.block_span is None else span_json(side.block_span),
        "tokens": list(side.tokens),
        "text": chunk_text[start : side.end + EXCERPT_CONTEXT],
    }


def conflict_json(
    pair: ConflictPair, titles: dict[str, str], texts: dict[str, str]
) -> ConflictJSON:
    """``titles`` by document id, ``texts`` by chunk id."""
    return {
        "kind": pair.kind,
        "cosine": pair.cosine,
        "dice": pair.dice,
        "found_at": pair.found_at,
        "sides": [
            conflict_side_json(s, titles.get(s.document_id, ""), texts.get(s.chunk_id, ""))
            for s in (pair.first, pair.second)
        ],
    }


def scan_json(report: ScanReport) -> ScanJSON:
    return {
        "documents": report.documents,
        "chunks": report.chunks,
        "skipped": report.skipped,
        "compared": report.compared,
        "found": report.found,
        "seconds": round(report.seconds, 3),
    }
