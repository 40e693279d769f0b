"""The never-seen-documents sets (``unseen/questions.jsonl``, format in ``unseen/README.md``;
``unseen2/`` … ``unseen25/``, fresh test-only sets in the same format): their items read and
validated line by line, the documents they name, and the one match of a gold phrase in an
answer (the product's fold: case, width, whitespace, quotes, word hyphens).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from answers import contains_any  # the one gold match: askalong.text.fold on both sides

BENCHMARKS = Path(__file__).resolve().parent
# folders: questions.jsonl beside docs/
SETS = (
    "unseen", "unseen2", "unseen3", "unseen4", "unseen5", "unseen6", "unseen7", "unseen8",
    "unseen9", "unseen10", "unseen11", "unseen12", "unseen13", "unseen14", "unseen15",
    "unseen16", "unseen17", "unseen18", "unseen19", "unseen20", "unseen21", "unseen22",
    "unseen23", "unseen24", "unseen25",
)  # fmt: skip
# Held out: asked once, by the lead, for the report; never by default. Empty once the newest
# set has had its run (unseen22: 2026-12-08); unseen23 waits for the next report's one run.
TEST_SETS: tuple[str, ...] = ("unseen23",)
# Frozen and never run, held for the reports after next: no default run asks them either, and
# they are no dev sets; each moves to TEST_SETS in its turn (unseen24: frozen, waits behind
# unseen23; unseen25: frozen, waits behind unseen24).
UNRUN_SETS: tuple[str, ...] = ("unseen24", "unseen25")
DEV_SETS = tuple(s for s in SETS if s not in TEST_SETS + UNRUN_SETS)  # run and read while tuning
# DEV sets recorded after the shipped heads were fitted (on unseen … unseen16): in no fit, what
# a head's change is judged on before it ships (``training/weighed_recordings.py``)
UNFITTED_SETS: tuple[str, ...] = (
    "unseen17", "unseen18", "unseen19", "unseen20", "unseen21", "unseen22",
)  # fmt: skip
HERE = BENCHMARKS / "unseen"
QUESTIONS = HERE / "questions.jsonl"
DOCS = HERE / "docs"
SPLITS = ("dev", "test")
KINDS = (
    "factual", "why", "how", "explain", "example", "compare", "cross_section", "chinese",
    "cross_lingual", "follow_up", "uncovered", "code",
)  # fmt: skip
INTENT_KINDS = ("explain", "example", "compare")
MIN_ITEMS = 120
__all__ = ["Item", "contains_any", "load_items", "of_split", "questions_of"]


@dataclass(frozen=True)
class Item:
    id: str
    split: str
    doc: str  # a file or folder under the set's ``docs/``
    doc_kind: str
    kind: str
    lang: str
    question: str
    gold: tuple[str, ...]
    refuse: bool = False  # the document does not say: the right outcome is a refusal
    intent: str = "ask"
    selection: str | None = None
    previous: str | None = None  # the item this one follows up, asked first in one thread


def questions_of(name: str) -> Path:
    """The questions file of the set named ``name`` (one of ``SETS``)."""
    return BENCHMARKS / name / "questions.jsonl"


def load_items(path: Path = QUESTIONS) -> list[Item]:
    """The items of a JSON-lines file, whose documents lie in ``docs/`` beside it; a bad
    line raises naming the file, line and problem."""
    items: list[Item] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            items.append(_item(json.loads(line), items, path.parent / "docs"))
        except (ValueError, KeyError, TypeError) as exc:
            raise SystemExit(f"{path}:{number}: {exc}") from None
    return items


def _item(raw: dict[str, Any], before: Sequence[Item], docs: Path) -> Item:
    item = Item(
        id=raw["id"],
        split=raw["split"],
        doc=raw["doc"],
        doc_kind=raw["doc_kind"],
        kind=raw["kind"],
        lang=raw["lang"],
        question=raw.get("question", ""),
        gold=tuple(raw.get("gold", ())),
        refuse=bool(raw.get("refuse", False)),
        intent=raw.get("intent", "ask"),
        selection=raw.get("selection"),
        previous=raw.get("previous"),
    )
    problem = _problem(item, {i.id: i for i in before}, docs)
    if problem:
        raise ValueError(f"{item.id}: {problem}")
    return item


def _problem(item: Item, before: dict[str, Item], docs: Path) -> str:
    """What is wrong with one item, given the items above it ("" when nothing)."""
    if item.id in before:
        return "duplicate id"
    if item.split not in SPLITS or item.kind not in KINDS or item.lang not in ("en", "zh"):
        return f"split {item.split!r}, kind {item.kind!r} or lang {item.lang!r} unknown"
    if not (docs / item.doc).exists():
        return f"document {item.doc} not in {docs}"
    if item.refuse == bool(item.gold) or any(not g.strip() for g in item.gold):
        return "needs non-empty gold phrases, or refuse: true (never both)"
    if (item.kind == "uncovered") != item.refuse:
        return "refuse: true is for uncovered items, and only them"
    if (item.kind in INTENT_KINDS) != bool(item.selection) or (
        item.selection and item.intent != item.kind
    ):
        return "explain/example/compare items (only) carry a selection and their intent"
    if not item.question and not item.selection:
        return "neither a question nor a selection"
    previous = before.get(item.previous or "")
    if (item.kind == "follow_up") != bool(item.previous):
        return "follow-ups (only) name the previous item"
    if item.previous and (previous is None or previous.doc != item.doc):
        return f"previous {item.previous!r} is not an earlier item on the same document"
    return ""


def of_split(items: Sequence[Item], split: str) -> list[Item]:
    """The items of one split ("all": every item), in file order."""
    return [i for i in items if split == "all" or i.split == split]
