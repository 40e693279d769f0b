"""Where the context's budget loses a question's gold (issue 32), replayed offline.

``record``: every plain covered question of the DEV sets (``cross_lingual_search.plain``)
asked of its own documents over a home under ``--homes`` (``cross_lingual_search.home_of``);
for a question answered by search (``SearchEvidence``: not a named code question), the hits
its evidence reads and their chunks with their neighbours are pickled. Search is the slow
part; assembly is pure, so ``replay`` grows and assembles those hits with the context code
on ``PYTHONPATH`` (``small_to_big``, ``assemble_context``), within its own budget or
``--chars N`` characters (the rule before issue 32), and prints per kind the gold among
the hits read, the gold in the units, lost at the budget, gained and lost against an
earlier replay's ``--out`` (``--before``); then for the questions whose gold chunk is read
but not in the units, what fills the budget ahead of it (small to big without a budget:
the gold's text, its hit's rank, runs of adjacent hits merged, neighbour growth, near
duplicates, other documents), and the hit chunks' median size in characters and in size
units by script. Results: ``benchmarks/results/evidence-budget-DEV-2026-12-07.md``.

    PYTHONPATH=src:benchmarks python benchmarks/evidence_budget.py record \\
        --homes /tmp/xl --set unseen unseen2 --out /tmp/hits.pkl
    PYTHONPATH=src:benchmarks python benchmarks/evidence_budget.py replay /tmp/hits.pkl \\
        --chars 6000 --out /tmp/before.json
    PYTHONPATH=src:benchmarks python benchmarks/evidence_budget.py replay /tmp/hits.pkl \\
        --before /tmp/before.json
"""

from __future__ import annotations

import argparse
import json
import pickle
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import median
from typing import Any

from _table import markdown_table
from cross_lingual_search import home_of, kind, plain
from unseen_set import DEV_SETS, contains_any, load_items, questions_of

Key = tuple[str, str]  # (set, item id)


@dataclass(frozen=True)
class Read:
    """One question's evidence input: the hits read and their chunks (with neighbours)."""

    set: str
    id: str
    kind: str
    lang: str
    question: str
    terms: frozenset[str]
    gold: tuple[str, ...]
    hits: tuple[Any, ...]  # ``Hit``s in the order the evidence reads them
    chunks: tuple[Any, ...]  # ``Chunk``s: the hits' and their neighbours


def recorded_set(homes: Path, set_name: str) -> list[Read]:
    import unseen
    from askalong.asking.evidence_code_named import NamedCodeEvidence
    from askalong.asking.evidence_search import SearchEvidence
    from askalong.asking.question import Question, asked_question
    from askalong.types import Access

    items = load_items(questions_of(set_name))
    home, ids = home_of(homes, set_name, items)
    access = Access.local()
    out = []
    with unseen.open_library(home) as library:
        store = library.store
        for item in filter(plain, items):
            docs = tuple(store.get_document(d, access) for d in ids[item.doc])
            asked = asked_question(Question(item.question, "ask", None, docs), [], None)
            if NamedCodeEvidence(store).gather(asked, access) is not None:
                continue  # answered from the code graph, not from search hits
            hits = SearchEvidence(store, library.searcher).gather(asked, access).hits
            chunks = store.chunks_around([h.chunk_id for h in hits])
            read = Read(set_name, item.id, kind(item), item.lang, item.question,
                        asked.question.terms, item.gold, tuple(hits), tuple(chunks))  # fmt: skip
            out.append(read)
    return out


def assembled(read: Read, budget: Any = None) -> list[Any]:
    """The units the answerer reads: the context code on the path, within ``budget``
    (a ``context.units.Budget``; None: its own, ``CONTEXT_BUDGET``)."""
    from askalong.context.assemble import assemble_context
    from askalong.context.small_to_big import small_to_big

    if budget is None:
        return assemble_context(read.terms, None, (), small_to_big(read.hits, _by_doc(read)))
    units = small_to_big(read.hits, _by_doc(read), budget=budget)
    return assemble_context(read.terms, None, (), units, budget=budget)


def unbounded(read: Read) -> list[Any]:
    """Small to big with no budget to speak of: every unit, in its order."""
    from askalong.context.small_to_big import small_to_big
    from askalong.context.units import Budget

    return small_to_big(read.hits, _by_doc(read), budget=Budget(10**9, len))


def _by_doc(read: Read) -> dict[str, list[Any]]:
    by_doc: dict[str, list[Any]] = {}
    for chunk in read.chunks:
        by_doc.setdefault(chunk.document_id, []).append(chunk)
    return by_doc


def gold_read(read: Read) -> bool:
    gold = {c.id for c in read.chunks if contains_any(c.text, read.gold)}
    return any(h.chunk_id in gold for h in read.hits)


def in_units(read: Read, units: Sequence[Any]) -> bool:
    return any(contains_any(u.text, read.gold) for u in units)


def per_kind(reads: Sequence[Read], got: dict[Key, bool], before: dict[Key, bool]) -> str:
    """Per kind: the gold among the hits read, in the units, lost at the budget; gained
    and lost against ``before``."""
    counts: dict[str, Counter[str]] = {}
    for read in reads:
        c = counts.setdefault(read.kind, Counter())
        now = got[(read.set, read.id)]
        was = before.get((read.set, read.id), now)
        c["questions"] += 1
        c["gold read"] += gold_read(read)
        c["gold in units"] += now
        c["lost at the budget"] += gold_read(read) and not now
        c["gained"] += now and not was
        c["lost"] += was and not now
    total = sum(counts.values(), Counter())
    columns = ("questions", "gold read", "gold in units", "lost at the budget", "gained", "lost")
    rows = [(k, *(str(counts[k][c]) for c in columns)) for k in sorted(counts)]
    rows.append(("all", *(str(total[c]) for c in columns)))
    return markdown_table(("kind", *columns), "l" + "r" * len(columns), rows)


# -- why the budget loses it -----------------------------------------------------------


def why(read: Read) -> dict[str, Any]:
    """What fills the budget ahead of the gold: the units small to big makes without a
    budget, in its order, up to the first holding a gold phrase."""
    units = unbounded(read)
    at = next((n for n, u in enumerate(units) if contains_any(u.text, read.gold)), len(units))
    rank = {h.chunk_id: n for n, h in enumerate(read.hits, 1)}
    gold = [c for c in read.chunks if c.id in rank and contains_any(c.text, read.gold)]
    ahead = units[:at]
    chars = sum(len(u.text) for u in ahead)
    cited = sum(s.end - s.start for u in ahead for s in u.cited_spans)
    return {
        "gold hit rank": min(rank[c.id] for c in gold),
        "gold text": _script(gold[0].text),
        "units ahead": len(ahead),
        "chars ahead": chars,
        "growth chars ahead": chars - cited,
        "a run of adjacent hits ahead": any(_hits_in(u, rank) > 1 for u in ahead),
        "gold unit a run": at < len(units) and _hits_in(units[at], rank) > 1,
        "near duplicates ahead": _near_duplicates(ahead),
        "other documents ahead": len({u.document_id for u in ahead} - {gold[0].document_id}),
    }


def _script(text: str) -> str:
    from askalong.text.scripts import is_cjk

    return "Chinese" if sum(map(is_cjk, text)) > 0.3 * len(text) else "English"


def _hits_in(unit: Any, rank: dict[str, int]) -> int:
    """The hit chunks among a unit's chunks (the others are neighbours it grew into)."""
    return sum(chunk_id in rank for chunk_id in unit.chunk_ids)


def _near_duplicates(units: Sequence[Any]) -> int:
    """Units whose text mostly repeats an earlier one's (character 8-grams, over 60%)."""

    def grams(text: str) -> set[str]:
        return {text[i : i + 8] for i in range(max(len(text) - 7, 1))}

    seen: list[set[str]] = []
    count = 0
    for unit in units:
        own = grams(unit.text)
        count += any(len(own & other) > 0.6 * len(own) for other in seen)
        seen.append(own)
    return count


WHY_HEADER = (
    "kind", "lost at the budget", "gold in English text", "gold hit rank 2-3 / 4-5 / 6-10",
    "a run of adjacent hits ahead", "gold's unit a run", "neighbour growth / chars ahead",
    "near duplicates ahead", "another document ahead",
)  # fmt: skip


def why_table(found: Sequence[dict[str, Any]]) -> str:
    """The budget's losses per kind: what the gold is, where it ranks, what is ahead."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for row in found:
        groups.setdefault(row["kind"], []).append(row)
    rows = [(k, *_why_cells(groups[k])) for k in sorted(groups)]
    rows.append(("all", *_why_cells(found)))
    return markdown_table(WHY_HEADER, "l" + "r" * (len(WHY_HEADER) - 1), rows)


def _why_cells(rows: Sequence[dict[str, Any]]) -> list[str]:
    ranks = Counter(
        "2-3" if r["gold hit rank"] <= 3 else "4-5" if r["gold hit rank"] <= 5 else "6-10"
        for r in rows
    )
    growth = sum(r["growth chars ahead"] for r in rows)
    return [
        str(len(rows)),
        str(sum(r["gold text"] == "English" for r in rows)),
        " / ".join(str(ranks[b]) for b in ("2-3", "4-5", "6-10")),
        str(sum(r["a run of adjacent hits ahead"] for r in rows)),
        str(sum(r["gold unit a run"] for r in rows)),
        f"{growth:,} / {sum(r['chars ahead'] for r in rows):,}",
        str(sum(r["near duplicates ahead"] for r in rows)),
        str(sum(r["other documents ahead"] > 0 for r in rows)),
    ]


def chunk_sizes(reads: Sequence[Read]) -> str:
    """The hit chunks read (over 400 characters), by script: median characters and size
    units, what a budget of characters holds of each."""
    from askalong.text.size import size_units

    hit_ids = {h.chunk_id for r in reads for h in r.hits}
    texts = {c.id: c.text for r in reads for c in r.chunks if c.id in hit_ids}
    sizes: dict[str, list[tuple[int, int]]] = {"Chinese": [], "English": []}
    for text in texts.values():
        if len(text) > 400:
            sizes[_script(text)].append((len(text), size_units(text)))
    rows = [
        (k, str(len(v)), f"{median(a for a, _ in v):,.0f}", f"{median(b for _, b in v):,.0f}")
        for k, v in sizes.items()
        if v
    ]
    header = ("hit chunk text", "chunks", "median characters", "median size units")
    return markdown_table(header, "lrrr", rows)


# -- the command --------------------------------------------------------------------------


def replayed(reads: Sequence[Read], args: argparse.Namespace) -> None:
    from askalong.context.units import Budget

    budget = None if args.chars is None else Budget(args.chars, len)
    before: dict[Key, bool] = {}
    if args.before:
        earlier = json.loads(args.before.read_text(encoding="utf-8"))
        before = {(k.split("/")[0], k.split("/", 1)[1]): v for k, v in earlier.items()}
    got = {(r.set, r.id): in_units(r, assembled(r, budget)) for r in reads}
    print(per_kind(reads, got, before))
    lost = [r for r in reads if gold_read(r) and not got[(r.set, r.id)]]
    found = [{"set": r.set, "id": r.id, "kind": r.kind, **why(r)} for r in lost]
    print(why_table(found))
    print(chunk_sizes(reads))
    if args.out:
        saved = {f"{s}/{i}": v for (s, i), v in got.items()}
        args.out.write_text(json.dumps(saved, indent=0), encoding="utf-8")
    if args.why:
        args.why.write_text(json.dumps(found, indent=1, ensure_ascii=False), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    record = sub.add_parser("record", help="search and pickle each question's hits read")
    record.add_argument("--homes", type=Path, required=True, help="one home a set, reused")
    record.add_argument("--set", nargs="+", default=list(DEV_SETS), choices=DEV_SETS)
    record.add_argument("--out", type=Path, required=True)
    replay = sub.add_parser("replay", help="assemble the recorded hits, print per kind")
    replay.add_argument("recorded", type=Path, nargs="+")
    replay.add_argument("--chars", type=int, help="a budget of this many characters instead")
    replay.add_argument("--before", type=Path, help="an earlier --out: gained and lost")
    replay.add_argument("--out", type=Path, help="each question's gold in units, as JSON")
    replay.add_argument("--why", type=Path, help="each budget loss's diagnosis, as JSON")
    args = parser.parse_args()
    if args.command == "record":
        reads = [r for name in args.set for r in recorded_set(args.homes, name)]
        args.out.write_bytes(pickle.dumps(reads))
        return
    replayed([r for path in args.recorded for r in pickle.loads(path.read_bytes())], args)


if __name__ == "__main__":
    main()
