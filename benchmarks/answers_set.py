"""The real-question set's items (``answers/questions.jsonl``, format in
``answers/README.md``): read and validated line by line, and ``--check``, which proves every
gold, evidence and selection phrase occurs in the parsed text of its documents."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

KINDS = (
    "factual", "why", "how", "explain", "example", "compare", "cross_section", "chinese",
    "long_manual", "cross_lingual", "uncovered", "follow_up",
)  # fmt: skip
INTENT_KINDS = ("explain", "example", "compare")


@dataclass(frozen=True)
class Item:
    id: str
    kind: str
    documents: tuple[str, ...]
    question: str
    gold: tuple[str, ...]
    lang: str
    intent: str = "ask"
    selection: str | None = None
    evidence: tuple[str, ...] = ()
    thread: str | None = None  # items sharing a thread are asked in order, in one thread


def load_items(path: Path) -> list[Item]:
    """The items of a JSON-lines file; a bad line raises naming the file, line and problem."""
    items, seen = [], set()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = _item(json.loads(line))
        except (ValueError, KeyError, TypeError) as exc:
            raise SystemExit(f"{path}:{number}: {exc}") from None
        if item.id in seen:
            raise SystemExit(f"{path}:{number}: duplicate id {item.id!r}")
        seen.add(item.id)
        items.append(item)
    return items


def _item(raw: dict[str, Any]) -> Item:
    kind = raw["kind"]
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}")
    item = Item(
        id=raw["id"],
        kind=kind,
        documents=tuple(raw["documents"]),
        question=raw.get("question", ""),
        gold=tuple(raw.get("gold", ())),
        lang=raw["lang"],
        intent=raw.get("intent", "ask"),
        selection=raw.get("selection"),
        evidence=tuple(raw.get("evidence", ())),
        thread=raw.get("thread"),
    )
    if not item.documents:
        raise ValueError(f"{item.id}: no documents")
    if (item.kind == "uncovered") != (not item.gold):
        raise ValueError(f"{item.id}: gold is required, and empty only for uncovered items")
    if item.kind in INTENT_KINDS and (item.intent != item.kind or not item.selection):
        raise ValueError(
            f"{item.id}: a {item.kind} item needs intent {item.kind!r} and a selection"
        )
    if not item.question and not item.selection:
        raise ValueError(f"{item.id}: neither a question nor a selection")
    return item


def check(library: Any, ids: dict[str, list[str]], items: Sequence[Item]) -> list[str]:
    """Problems found: a gold, evidence or selection phrase missing from the parsed text
    of the item's documents, or a gold phrase that only the selection itself holds."""
    from askalong.context.locate import locate_selection
    from askalong.text.fold import fold

    texts: dict[str, str] = {}
    problems = []
    for item in items:
        doc_ids = [d for rel in item.documents for d in ids[rel]]
        folded = "\n".join(
            texts.get(d) or texts.setdefault(d, _folded_text(library, d)) for d in doc_ids
        )
        for phrase in (*item.gold, *item.evidence):
            if fold(phrase) not in folded:
                problems.append(f"{item.id}: {phrase!r} not in {', '.join(item.documents)}")
        if item.selection:
            if locate_selection(library.store.blocks(doc_ids[0]), item.selection) is None:
                problems.append(f"{item.id}: selection not found: {item.selection!r}")
            elif any(fold(g) in fold(item.selection) for g in item.gold):
                problems.append(f"{item.id}: a gold phrase is inside the selection itself")
    return problems


def _folded_text(library: Any, doc_id: str) -> str:
    from askalong.text.fold import fold

    return "\n".join(fold(block.text) for block in library.store.blocks(doc_id))
