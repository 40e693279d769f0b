"""The KB evaluation's items (JSON lines), read and checked.

One item a line, the format ``askalong feedback export`` writes too::

    {"id", "question", "category", "expected": "answer"|"refuse",
     "gold_chunk_ids": [...], "gold_evidence": [{"document", "text"}],
     "asker": null|user, "source": "authored"|"feedback", "note"}

``document`` is a corpus key (``benchmarks/kb/corpus.json``) or a document title; ``text``
a verbatim snippet of it. ``asker`` null: the local single user, who sees everything.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, cast, get_args

from askalong.errors import InputError

Category = Literal[
    "single_fact",
    "paraphrase",
    "summary",
    "conflict",
    "private",
    "distractor",
    "no_answer",
    "from_feedback",
]
CATEGORIES: tuple[str, ...] = get_args(Category)
Expected = Literal["answer", "refuse"]
EXPECTED: tuple[str, ...] = get_args(Expected)
SOURCES = ("authored", "feedback")


@dataclass(frozen=True)
class GoldEvidence:
    document: str  # corpus key or title
    text: str  # verbatim snippet


@dataclass(frozen=True)
class KbItem:
    id: str
    question: str
    category: Category
    expected: Expected
    gold_chunk_ids: tuple[str, ...] = ()
    gold_evidence: tuple[GoldEvidence, ...] = ()
    asker: str | None = None
    source: str = "authored"
    note: str = ""

    @property
    def gold_count(self) -> int:
        return len(self.gold_evidence) + len(self.gold_chunk_ids)


def load_items(path: Path) -> tuple[KbItem, ...]:
    """Every item of the file; a bad line is an error naming the file and line."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read the items: {exc}", source=str(path)) from exc
    items: list[KbItem] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            items.append(parse_item(json.loads(line)))
        except json.JSONDecodeError as exc:
            raise InputError(f"not JSON: {exc}", source=where) from exc
        except InputError as exc:
            raise InputError(str(exc.args[0]), source=where) from exc
    twice = first_repeat(item.id for item in items)
    if twice is not None:
        raise InputError(f"item id {twice!r} appears twice", source=str(path))
    if not items:
        raise InputError("no items", source=str(path))
    return tuple(items)


def first_repeat(values: Iterable[str]) -> str | None:
    """The first value met a second time, or None."""
    seen: set[str] = set()
    for value in values:
        if value in seen:
            return value
        seen.add(value)
    return None


def parse_item(raw: Any) -> KbItem:
    if not isinstance(raw, dict):
        raise InputError("an item must be a JSON object")
    for name in ("id", "question"):
        if not isinstance(raw.get(name), str) or not raw[name].strip():
            raise InputError(f"{name!r} must be a non-empty string")
    category, expected = raw.get("category"), raw.get("expected")
    if category not in CATEGORIES:
        raise InputError(f"category {category!r}; valid: {', '.join(CATEGORIES)}")
    if expected not in EXPECTED:
        raise InputError(f"expected {expected!r}; valid: {', '.join(EXPECTED)}")
    source = raw.get("source", "authored")
    if source not in SOURCES:
        raise InputError(f"source {source!r}; valid: {', '.join(SOURCES)}")
    asker = raw.get("asker")
    if asker is not None and not isinstance(asker, str):
        raise InputError("'asker' must be a user name or null")
    chunks = raw.get("gold_chunk_ids") or []
    if not isinstance(chunks, list) or not all(isinstance(c, str) for c in chunks):
        raise InputError("'gold_chunk_ids' must be a list of strings")
    return KbItem(
        id=raw["id"],
        question=raw["question"],
        category=cast(Category, category),
        expected=cast(Expected, expected),
        gold_chunk_ids=tuple(chunks),
        gold_evidence=tuple(_evidence(e) for e in raw.get("gold_evidence") or []),
        asker=asker,
        source=source,
        note=str(raw.get("note", "")),
    )


def _evidence(raw: Any) -> GoldEvidence:
    if not isinstance(raw, dict) or not all(
        isinstance(raw.get(k), str) and raw[k].strip() for k in ("document", "text")
    ):
        raise InputError(f"gold evidence needs a document and a text: {raw!r}")
    return GoldEvidence(raw["document"], raw["text"])
