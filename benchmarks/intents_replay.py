"""Explain / Example / Compare on recorded DEV evidence: the rule path against the learned
scorer's, answered again in seconds (``unseen_replay.py record``'s recordings).

Every recorded intent item (its request: the selection's anchor unit, the material and
search units) is answered by each way of choosing the sentences, in one run:

- ``rules``: the cued material (definitions, example and contrast cue sentences), else
  the rule scorer's best sentences for the selection's key terms (``intent_ranked``);
- ``learned``: the material of the text's structure (``intents.STRUCTURAL``: what a
  selection ending "…:" announces, the table it names, the work it cites), else the
  learned scorer's best sentence for those terms (``intent_learned``), then the words
  beside the selection: the path under the learned scorer;
- ``cued+learned``: every kind of cued material when there is some, else as ``learned``.

Each answer is shaped as the asker shapes it (``shape.shaped_draft``) and judged as
``unseen.py`` judges it: *hit*, a gold phrase in the direct answer; *echo*, the direct
answer and the selection contain one another once folded (``answers.is_echo``);
*inside*, a quote cited in the direct answer overlaps the selection's spans. Printed per
set, per intent and per language (``zh``: a Chinese document), for every way.

    PYTHONPATH=src:benchmarks python benchmarks/intents_replay.py /work/data/learn/unseen*.pkl

``--vectors none``: every way without an embedder (the product with ``ASKALONG_EMBEDDER=none``).
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import get_args

from _table import markdown_table
from answers import is_echo
from askalong.answer.base import Draft, DraftRequest
from askalong.answer.scorer.model import Scorer
from askalong.answer.shape import shaped_draft
from askalong.context.material import MaterialKind, Selection
from askalong.types import BlockSpan
from unseen_replay import MARKS, bundled_embedder, recording
from unseen_set import TEST_SETS, UNRUN_SETS, Item, contains_any

INTENTS = ("explain", "example", "compare")
FIGURES = ("hit", "echo", "inside")
CITED = re.compile(r"\[(\d+)\]")
Way = Callable[[DraftRequest], Draft | None]


@dataclass(frozen=True)
class Judged:
    """One intent item answered one way."""

    set: str
    item: Item
    answer: str
    hit: bool
    echo: bool
    inside: bool


def ways(scorer: Scorer | None = None, vectors: bool = True) -> dict[str, Way]:
    """Each way of answering an intent, by name (the learned ones on the bundled e5, or on
    no embedder without ``vectors``, with ``scorer``'s heads, the shipped ones by
    default)."""
    from askalong.answer.extractive.intent_learned import learned_ranker
    from askalong.answer.extractive.intents import STRUCTURAL, answer_intent

    embedder = bundled_embedder() if vectors else None

    def way(request: DraftRequest, learned: bool, cued: frozenset[MaterialKind]) -> Draft | None:
        question = request.question
        ranked = learned_ranker(question.text, embedder, scorer) if learned else None
        result = answer_intent(question, request.units, request.intent, ranked, cued)
        if result is None:
            return None
        return Draft(result.status, result.answer, result.quotes, result.explanation)

    return {
        "rules": lambda r: way(r, False, STRUCTURAL),
        "learned": lambda r: way(r, True, STRUCTURAL),
        "cued+learned": lambda r: way(r, True, frozenset(get_args(MaterialKind))),
    }


def judged(name: str, item: Item, request: DraftRequest, draft: Draft) -> Judged:
    """``draft`` shaped as the asker shapes it, judged as ``unseen.py`` judges it."""
    shaped = shaped_draft(draft, request.question.language)
    text = MARKS.sub("", shaped.answer)
    selection = Selection("", request.units[0].cited_spans)
    cited = {int(n) for n in CITED.findall(shaped.answer)}
    inside = any(
        selection.overlaps(BlockSpan(q.block_id, q.start, q.end))
        for q in shaped.quotes
        if q.number in cited
    )
    hit = shaped.status != "not_covered" and contains_any(text, item.gold)
    return Judged(name, item, text, hit, is_echo(text, item.selection), inside)


def replayed(paths: Sequence[Path], chosen: dict[str, Way]) -> dict[str, list[Judged]]:
    """Every recorded intent item of ``paths`` answered each way."""
    out: dict[str, list[Judged]] = {name: [] for name in chosen}
    for name, item, request in recorded(paths):
        if request.intent not in INTENTS:
            continue
        for way, answer in chosen.items():
            draft = answer(request)
            if draft is not None:
                out[way].append(judged(name, item, request, draft))
    return out


def recorded(paths: Sequence[Path]) -> Iterator[tuple[str, Item, DraftRequest]]:
    """Every recorded item of ``paths`` with its set's name and its request; a held-out
    set is refused."""
    for path in paths:
        name, items, requests = recording(path)
        if name in TEST_SETS + UNRUN_SETS:
            raise SystemExit(f"{name} is held out: no replay on it")
        yield from ((name, i, requests[i.id]) for i in items if i.id in requests)


def language_of(item: Item) -> str:
    return "zh" if "zh" in item.doc_kind else "en"


def table(results: dict[str, list[Judged]]) -> str:
    """Hits (echo, inside) per group, one column per way."""
    first = next(iter(results.values()))
    groups: dict[str, list[int]] = {}
    for k, j in enumerate(first):
        language = f"lang {language_of(j.item)}"
        for group in (j.set, f"{j.set} {j.item.kind}", j.item.kind, language):
            groups.setdefault(group, []).append(k)
        groups.setdefault(f"{language} {j.item.kind}", []).append(k)
        groups.setdefault("all", []).append(k)
    rows = []
    for group, members in sorted(groups.items(), key=lambda g: _order(g[0])):
        cells = []
        for judged_way in results.values():
            part = [judged_way[k] for k in members]
            hits, echo, inside = (
                sum(getattr(j, f) for j in part) for f in ("hit", "echo", "inside")
            )
            cells.append(f"{hits} ({echo}/{inside})")
        rows.append((group, str(len(members)), *cells))
    header = ("set / intent / language", "items", *results)
    return markdown_table(header, "lr" + "r" * len(results), rows)


def _order(group: str) -> tuple[int, str]:
    """Sets (each with its intents), then intents, then languages, then all."""
    if group == "all":
        return (3, group)
    if group.startswith("lang"):
        return (2, group)
    return (1, group) if group in INTENTS else (0, group)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("recordings", type=Path, nargs="+")
    parser.add_argument("--show", type=int, default=0, help="answers to print per way")
    parser.add_argument(
        "--vectors", choices=("all", "none"), default="all", help="none: no embedder"
    )
    args = parser.parse_args()
    results = replayed(args.recordings, ways(vectors=args.vectors == "all"))
    print("hit (echo / inside) per way, DEV recordings\n")
    print(table(results))
    for way, judged_way in results.items():
        for j in judged_way[: args.show]:
            print(f"{way} {j.item.id} [{j.item.kind}] hit={j.hit}: {j.answer[:240]}")


if __name__ == "__main__":
    main()
