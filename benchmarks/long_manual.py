"""Long manuals: is the right page found when a question is asked in a user's words?

The PostgreSQL 15 manual (``manuals/postgresql-15-html``, 1,174 pages, one document each)
and the questions in ``benchmarks/data/long_manual_questions.json``: written in users'
words, each avoiding the words of the chapter that answers it (no "isolation" for
Transaction Isolation, no "index" for Indexes), with the gold page file name(s). A
question is a hit at k when one of the first k chunks of the ranking lies on a gold page.

Rows: keyword, vector and hybrid, each "text" (the keyword route's text fields alone,
``KeywordIndex.sections = False``, chunk by chunk), "before" (section titles as their own
field, section scores, the manual's own index and glossary pages) and "after" (also
pages ranked first, ``retrieve/pages.py``), in the same run over the same library.
``--questions`` picks the question file (``long_manual_dev_questions.json``: the
questions the page ranking was tuned on; the default file is the measurement).
Ingesting the manual takes minutes: the library is kept in ``--home`` and reused (the
manual is added with ``askalong add`` when the home lacks its pages; a home holding
other documents too, as the real-question set's does, is searched on the manual's pages).

    python benchmarks/long_manual.py [--home /tmp/pg-home] [--out FILE]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from askalong.config import load_settings
from askalong.library import Library
from askalong.types import Access
from evaldata import EVALDATA

ROOT = Path(__file__).resolve().parents[1]
MANUAL = EVALDATA / "manuals" / "postgresql-15-html"
QUESTIONS = ROOT / "benchmarks" / "data" / "long_manual_questions.json"
CUTS = (1, 5, 10)
MODES = {"keyword": (True, False), "vector": (False, True), "hybrid": (True, True)}
# variant -> (section fields on, pages ranked first): "text" the chunk text alone, chunk
# by chunk; "before" with section titles, scores and index pages (main before pages);
# "after" also ranking pages first (``retrieve/pages.py``).
VARIANTS = {"text": (False, False), "before": (True, False), "after": (True, True)}
SUBSET = (
    " (`--embedded-only`: the pages with vectors so far, the questions with a gold page among them)"
)


@dataclass(frozen=True)
class Item:
    question: str
    gold: frozenset[str]  # page file names


@dataclass(frozen=True)
class Row:
    mode: str
    variant: str  # a key of VARIANTS
    ranks: tuple[int | None, ...]  # per question: 1-based rank of the first gold chunk
    seconds: float

    def hit_at(self, k: int) -> float:
        return sum(1 for r in self.ranks if r is not None and r <= k) / len(self.ranks)


def load_items(path: Path = QUESTIONS) -> list[Item]:
    raw = json.loads(path.read_text(encoding="utf-8"))
    return [Item(entry["q"], frozenset(entry["gold"])) for entry in raw]


def ensure_manual(home: Path) -> None:
    """Add the manual to ``home`` unless it holds the manual's pages already."""
    with Library(load_settings()) as library:
        if manual_pages(library):
            return
    print(f"adding {MANUAL} to {home} (minutes)", file=sys.stderr, flush=True)
    subprocess.run(["askalong", "add", str(MANUAL)], check=True, env=os.environ.copy())


def first_gold(library: Library, item: Item, pages: dict[str, str], mode: str) -> int | None:
    use_keyword, use_vectors = MODES[mode]
    hits = library.searcher.ranking(
        item.question,
        Access.local(),
        documents=tuple(pages),
        use_keyword=use_keyword,
        use_vectors=use_vectors,
    )
    for rank, hit in enumerate(hits[: max(CUTS)], start=1):
        if pages.get(hit.document_id) in item.gold:
            return rank
    return None


def manual_pages(library: Library) -> dict[str, str]:
    """Document id -> page file name of the manual's pages in the library (which may
    hold other documents too: the real-question set's library does; they are left out)."""
    return {
        document.id: Path(document.source).name
        for document in library.store.list_documents(Access.local())
        if Path(document.source).parent.name == MANUAL.name
    }


def embedded_pages(library: Library, pages: dict[str, str]) -> dict[str, str]:
    """The pages whose vectors are all there (a manual still being embedded)."""
    vectors = library.indexes.vectors
    if vectors is None:
        raise SystemExit("--embedded-only: vectors are off (ASKALONG_EMBEDDER=none)")
    pending = vectors.scope(Access.local(), frozenset(pages)).pending
    return {ref: name for ref, name in pages.items() if ref not in pending}


def run(
    items: Sequence[Item], modes: Sequence[str] = tuple(MODES), *, embedded_only: bool = False
) -> tuple[list[Row], int, list[Item]]:
    """The rows of ``modes`` x ``VARIANTS``, how many manual pages were searched and the
    items asked (with ``embedded_only``: the pages with vectors, the items with a gold
    page among them, every row over those same pages)."""
    rows = []
    with Library(load_settings()) as library:
        pages = manual_pages(library)
        if embedded_only:
            pages = embedded_pages(library, pages)
            items = [item for item in items if item.gold & set(pages.values())]
        keyword, policy = library.indexes.keyword, library.searcher.policy
        for mode in modes:
            for variant, (sections, by_pages) in VARIANTS.items():
                if mode == "vector" and variant == "before":
                    continue  # the vector route reads no keyword field: "text" it is
                keyword.sections = sections
                library.searcher.policy = replace(
                    policy, pages_from=policy.pages_from if by_pages else None
                )
                started = time.perf_counter()
                ranks = tuple(first_gold(library, item, pages, mode) for item in items)
                elapsed = (time.perf_counter() - started) / len(items)
                rows.append(Row(mode, variant, ranks, elapsed))
        library.searcher.policy = policy
    return rows, len(pages), list(items)


def table(rows: Sequence[Row]) -> str:
    lines = [
        "| mode | variant | hit@1 | hit@5 | hit@10 | ms / query |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for row in rows:
        hits = " | ".join(f"{row.hit_at(k):.3f}" for k in CUTS)
        lines.append(f"| {row.mode} | {row.variant} | {hits} | {row.seconds * 1000:.0f} |")
    return "\n".join(lines) + "\n"


def per_question(items: Sequence[Item], rows: Sequence[Row]) -> str:
    head = "| question | gold | " + " | ".join(f"{r.mode} {r.variant}" for r in rows) + " |"
    lines = [head, "|---|---|" + "---:|" * len(rows)]
    for i, item in enumerate(items):
        ranks = " | ".join(str(row.ranks[i] or "—") for row in rows)
        lines.append(f"| {item.question} | {', '.join(sorted(item.gold))} | {ranks} |")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--home", type=Path, default=None, help="ASKALONG_HOME to keep")
    parser.add_argument("--mode", dest="modes", action="append", choices=sorted(MODES))
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--questions", type=Path, default=QUESTIONS, help="a questions file")
    parser.add_argument(
        "--embedded-only",
        action="store_true",
        help="search only the pages that have vectors (the manual still being embedded)",
    )
    args = parser.parse_args(argv)
    if args.home is not None:
        os.environ["ASKALONG_HOME"] = str(args.home)
    home = Path(os.environ.get("ASKALONG_HOME") or Path.home() / ".askalong")
    ensure_manual(home)
    items = load_items(args.questions)
    rows, pages, items = run(items, args.modes or tuple(MODES), embedded_only=args.embedded_only)
    today = datetime.date.today().isoformat()
    text = (
        f"# Long manual retrieval, {today}\n\n"
        f"The PostgreSQL 15 manual ({len(items)} questions in users' words, "
        f"`{args.questions.name}`), "
        f"{pages} pages{SUBSET if args.embedded_only else ''}. hit@k: a chunk of a gold "
        "page among the first k of the ranking. text: the keyword route's text fields "
        "alone, chunk by chunk; before: with "
        "section titles as a field, section scores, the manual's index and glossary pages; "
        "after: also pages ranked first (`retrieve/pages.py`). The vector route reads no "
        "keyword field (its text row is its before row).\n\n"
        + table(rows)
        + "\nFirst rank of a gold page per question (— : not in the top 10):\n\n"
        + per_question(items, rows)
    )
    print(text, flush=True)
    path = args.out or ROOT / "benchmarks" / "results" / f"long-manual-{today}.md"
    path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
