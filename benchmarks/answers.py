"""The real-question set: does the direct answer answer a new reader's question?

Asks every item of ``benchmarks/answers/questions.jsonl`` (format and corpus in
``benchmarks/answers/README.md``) through the product's own path, the ``Library`` and
``make_asker`` with a ``Question`` as the CLI ``ask`` builds it (follow-ups in one thread,
Explain / Example / Compare on the selection located as the reader sends it), and prints
per kind: answer hit (a gold phrase inside ``Answer.answer``, not the quotes), evidence hit
(a gold or ``evidence`` phrase inside some quote), refusals (``not_covered``: the goal for
``uncovered``), Explain echo (answer and selection contain one another once folded), p50
latency, and in the same run the **BM25 top-1 paragraph** baseline (the keyword route's top
chunk over the same documents; hit = a gold phrase in its text).

The documents are ingested once into ``--home DIR/<key>`` (vectors included), where the
key hashes the ingestion-side askalong code (everything but the query-time packages), and
each document path is stamped (names, sizes, times) and ingested again when it changed, so
a stale library is never used (``answers_corpus.py``); the PostgreSQL manual takes minutes
the first time. ``--check`` only verifies that every gold, evidence and selection phrase
occurs in its parsed document (``answers_set.py``, which reads the set). ``--label`` names
a run (the previous answerer is this script run on an older checkout); ``--compare FILE``
prints a saved run's figures beside.

    PYTHONPATH=src .venv/bin/python benchmarks/answers.py --label before [--kinds why,how]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, cast

from _table import share
from answers_corpus import VECTORS, open_corpus
from answers_set import INTENT_KINDS, KINDS, Item, check, load_items

REPO = Path(__file__).resolve().parents[1]
QUESTIONS = REPO / "benchmarks" / "answers" / "questions.jsonl"
RESULTS = REPO / "benchmarks" / "results"


@dataclass(frozen=True)
class Outcome:
    id: str
    kind: str
    question: str
    answer: str
    status: str
    hit: bool  # for "uncovered": refused
    evidence_hit: bool
    refused: bool
    echo: bool
    bm25_hit: bool
    search_hit: bool  # a gold or evidence phrase in the search's top 10 chunks
    ms: float
    quotes: tuple[str, ...] = field(default=())


# -- scoring -----------------------------------------------------------------


def contains_any(text: str, phrases: Iterable[str]) -> bool:
    """A phrase inside the text, both folded (case, width, whitespace, word hyphens)."""
    from askalong.text.fold import fold

    folded = fold(text)
    return any(fold(p) and fold(p) in folded for p in phrases)


def is_echo(answer: str, selection: str | None) -> bool:
    """The direct answer repeats the selection: one contains the other once folded."""
    from askalong.text.fold import fold

    if not selection or not answer.strip():
        return False
    a, s = fold(answer), fold(selection)
    return a in s or s in a


def score(
    item: Item,
    answer: str,
    status: str,
    quotes: Sequence[str],
    top1: str,
    found: Sequence[str] = (),
) -> dict[str, Any]:
    """The figures of one item's answer (what ``Outcome`` records beside the texts): the
    quotes, the BM25 top-1 chunk and the search's top 10 chunks (``found``) are scored
    with the gold and evidence phrases."""
    refused = status == "not_covered"
    covered = item.kind != "uncovered"
    hit = not refused and contains_any(answer, item.gold) if covered else refused
    phrases = (*item.gold, *item.evidence)  # none for uncovered items: no evidence hit
    evidence = any(contains_any(q, phrases) for q in quotes)
    return {
        "hit": hit,
        "evidence_hit": evidence,
        "refused": refused,
        "echo": item.kind in INTENT_KINDS and is_echo(answer, item.selection),
        "bm25_hit": bool(item.gold) and contains_any(top1, item.gold),
        "search_hit": any(contains_any(text, phrases) for text in found),
    }


# -- asking --------------------------------------------------------------------


def ask_all(library: Any, ids: dict[str, list[str]], items: Sequence[Item]) -> list[Outcome]:
    """Every item asked as the CLI ``ask`` asks it (follow-ups in their thread), scored."""
    from askalong.asking.choose import make_asker

    asker = make_asker(library)
    threads: dict[str, str | None] = {}
    outcomes = []
    for item in items:
        outcome, thread_id = ask_one(library, asker, ids, item, threads.get(item.thread or ""))
        if item.thread:
            threads[item.thread] = thread_id
        outcomes.append(outcome)
        print(f"{item.id:<16} {'HIT ' if outcome.hit else 'miss'} {_short(outcome.answer)}")
    return outcomes


def ask_one(
    library: Any, asker: Any, ids: dict[str, list[str]], item: Item, thread: str | None
) -> tuple[Outcome, str | None]:
    """One item's outcome and the thread it was asked in."""
    from askalong.asking.asker import Question
    from askalong.types import Access, Intent

    access = Access.local()
    docs = tuple(library.store.get_document(d, access) for rel in item.documents for d in ids[rel])
    anchor = _anchor(library, docs[0].id, item.selection) if item.selection else None
    question = Question(item.question, cast(Intent, item.intent), anchor, docs, thread_id=thread)
    started = time.perf_counter()
    answer = asker.ask(question, access)
    ms = (time.perf_counter() - started) * 1000
    doc_ids = [d.id for d in docs]
    query = item.selection or answer.question  # a bare intent's question is "Explain this."
    top1 = _bm25_top1(library, query, doc_ids)
    found = _searched(library, query, doc_ids)
    quotes = tuple(q.text for q in answer.quotes)
    scored = score(item, answer.answer, answer.status, quotes, top1, found)
    fields = (item.id, item.kind, answer.question, answer.answer, answer.status)
    return Outcome(*fields, ms=ms, quotes=quotes, **scored), answer.thread_id


def _anchor(library: Any, doc_id: str, selection: str) -> Any:
    """The anchor as the reader sends it: block, span and the selected text."""
    from askalong.context.locate import locate_selection

    anchor = locate_selection(library.store.blocks(doc_id), selection, document_id=doc_id)
    if anchor is None:
        raise SystemExit(f"selection not found in {doc_id}: {selection!r} (run --check)")
    return anchor


def _bm25_top1(library: Any, query: str, doc_ids: Sequence[str]) -> str:
    """The keyword route's top chunk over the same documents (the baseline's paragraph)."""
    from askalong.types import Access

    hits = library.indexes.keyword.search(
        query, Access.local(), documents=frozenset(doc_ids), limit=1
    )
    return library.store.chunk(hits[0].chunk_id).text if hits else ""


def _searched(library: Any, query: str, doc_ids: Sequence[str]) -> tuple[str, ...]:
    """The texts of the product search's top 10 chunks (what the answer could draw on)."""
    from askalong.types import Access

    result = library.searcher.search(query, Access.local(), documents=doc_ids, k_max=10)
    return tuple(library.store.chunk(hit.chunk_id).text for hit in result.hits[:10])


def _short(text: str, width: int = 90) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


# -- the report ------------------------------------------------------------------

COLUMNS = (
    "items", "answer hit", "evidence hit", "refused", "echo", "BM25 top-1 hit", "search hit@10",
    "p50 ms",
)  # fmt: skip


def figures(outcomes: Sequence[dict[str, Any]]) -> dict[str, str]:
    """One table row's cells for these outcomes (saved JSON rows or ``asdict(Outcome)``)."""
    covered = [o for o in outcomes if o["kind"] != "uncovered"]  # no evidence to find there
    return {
        "items": str(len(outcomes)),
        "answer hit": share(outcomes, "hit"),
        "evidence hit": share(covered, "evidence_hit"),
        "refused": share(outcomes, "refused"),
        "echo": str(sum(o["echo"] for o in outcomes)),
        "BM25 top-1 hit": share(covered, "bm25_hit"),
        "search hit@10": share(covered, "search_hit"),
        "p50 ms": f"{statistics.median(o['ms'] for o in outcomes):.0f}",
    }


def by_kind(outcomes: Sequence[dict[str, Any]]) -> dict[str, dict[str, str]]:
    kinds = [k for k in KINDS if any(o["kind"] == k for o in outcomes)]
    rows = {k: figures([o for o in outcomes if o["kind"] == k]) for k in kinds}
    rows["**all**"] = figures(outcomes)
    return rows


def table(outcomes: Sequence[dict[str, Any]]) -> str:
    lines = ["| kind | " + " | ".join(COLUMNS) + " |", "|---|" + "---:|" * len(COLUMNS)]
    for kind, cells in by_kind(outcomes).items():
        lines.append(f"| {kind} | " + " | ".join(cells[c] for c in COLUMNS) + " |")
    return "\n".join(lines)


def comparison(outcomes: Sequence[dict[str, Any]], label: str, saved: Path) -> str:
    """This run's answer and evidence hits and refusals beside a saved run's on the same
    items, per kind."""
    other = json.loads(saved.read_text(encoding="utf-8"))
    asked = {o["id"] for o in outcomes}  # the same items only, whatever --kinds / --limit chose
    mine = by_kind(outcomes)
    theirs = by_kind([o for o in other["outcomes"] if o["id"] in asked])
    name = other["label"]
    lines = [
        f"| kind | answer hit {label} | answer hit {name} | evidence hit {label} "
        f"| evidence hit {name} | refused {label} | refused {name} |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for kind, cells in mine.items():
        old = theirs.get(kind, dict.fromkeys(COLUMNS, "—"))
        pairs = [(cells[c], old[c]) for c in ("answer hit", "evidence hit", "refused")]
        lines.append(f"| {kind} | " + " | ".join(f"{a} | {b}" for a, b in pairs) + " |")
    return "\n".join(lines)


def save(
    outcomes: Sequence[Outcome],
    label: str,
    notes: Sequence[str],
    extra: str,
    results: Path = RESULTS,
) -> Path:
    date = datetime.date.today().isoformat()
    rows = [asdict(o) for o in outcomes]
    out = results / f"answers-{label}-{date}.md"
    body = [f"# Real-question set, run `{label}` ({date})", "", *notes, "", table(rows), ""]
    if extra:
        body += [extra, ""]
    previous = out.read_text(encoding="utf-8") if out.exists() else ""
    marker = "## What goes wrong most"
    kept = previous[previous.index(marker) :] if marker in previous else ""  # a person's notes
    out.write_text("\n".join(body) + ("\n" + kept if kept else ""), encoding="utf-8")
    data = {"label": label, "date": date, "notes": list(notes), "outcomes": rows}
    out.with_suffix(".json").write_text(
        json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8"
    )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=Path, default=QUESTIONS)
    parser.add_argument("--home", type=Path, default=Path("/tmp/askalong-answers"))
    parser.add_argument("--label", default="run")
    parser.add_argument("--kinds", default="", help="comma-separated kinds to ask")
    parser.add_argument("--limit", type=int, default=0, help="ask at most N items")
    parser.add_argument("--compare", type=Path, default=None, help="a saved run's JSON")
    parser.add_argument("--check", action="store_true", help="only verify the set's phrases")
    parser.add_argument("--vectors", choices=VECTORS, default="all", help="see open_corpus")
    args = parser.parse_args()
    items = load_items(args.questions)
    paths = [rel for item in items for rel in item.documents]
    library, ids = open_corpus(args.home, paths, vectors="none" if args.check else args.vectors)
    with library:
        if args.check:
            problems = check(library, ids, items)
            print("\n".join(problems) or f"all phrases of {len(items)} items found")
            raise SystemExit(1 if problems else 0)
        chosen = _chosen(items, args.kinds, args.limit)
        outcomes = ask_all(library, ids, chosen)
    rows = [asdict(o) for o in outcomes]
    extra = comparison(rows, args.label, args.compare) if args.compare else ""
    print(table(rows) + ("\n\n" + extra if extra else ""))
    notes = [
        f"{len(chosen)} items of `{args.questions.name}`, offline (`ASKALONG_ANSWERER` unset), "
        f"vectors: {args.vectors}, "
        f"askalong at `{_commit()}`, load average {os.getloadavg()[0]:.1f} "
        f"on {os.cpu_count()} cores.",
        "answer hit: a gold phrase inside the direct answer (uncovered: refused); evidence hit: a "
        "gold or evidence phrase inside some quote; BM25 top-1: a gold phrase inside the keyword "
        "route's top chunk for the same question (the selection for an intent) and documents; "
        "search hit@10: a gold or evidence phrase in the product search's top 10 chunks "
        "(uncovered items left out of all three).",
    ]
    print(f"saved {save(outcomes, args.label, notes, extra)}")


def _chosen(items: Sequence[Item], kinds: str, limit: int) -> list[Item]:
    wanted = {k.strip() for k in kinds.split(",") if k.strip()}
    unknown = wanted - set(KINDS)
    if unknown:
        raise SystemExit(
            f"--kinds: unknown {', '.join(sorted(unknown))}; known: {', '.join(KINDS)}"
        )
    chosen = [i for i in items if not wanted or i.kind in wanted]
    return chosen[:limit] if limit else chosen


def _commit() -> str:
    import subprocess

    done = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    return done.stdout.strip() or "unknown"


if __name__ == "__main__":
    main()
