"""Where search loses a question's gold, stage by stage (issue 32: cross-lingual questions).

For each plain question of the DEV sets (intent ``ask``, no selection, not a follow-up;
covered), asked of its own documents as ``unseen.py`` asks it, live over the set's
documents added to a home under ``--homes`` (made once, then reused): the best rank of a
chunk holding a gold phrase in the keyword route's list, the vector route's, the fused
ranking; whether one is among the search's kept hits (threshold and dynamic top-K), among
the hits the evidence reads (with its top-up), and whether a gold phrase is in the units
the answerer reads (after the context's budget: a neighbour chunk may bring it).

Printed per kind of question (``unseen_replay.kind_of``; cross-lingual split by the
question's language), and with ``--out`` every question's stages and a digest of its
units as JSON; ``--before`` compares the units with such a file of an earlier run (how
many questions of each kind read other evidence, and the gold in units gained and lost).
``--answer`` drafts each answer from that evidence too (the default answerer: a gold
phrase in the direct answer); ``--across-share`` sets
``RetrievalPolicy.zscore_keyword_share_across`` for the run. Results:
``benchmarks/results/cross-lingual-search-DEV-2026-12-07.md``.

    PYTHONPATH=src:benchmarks python benchmarks/cross_lingual_search.py --homes /tmp/xl \\
        --set unseen unseen2 --kinds cross-lingual --out /tmp/after.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from _table import markdown_table
from unseen_replay import MARKS, kind_of
from unseen_set import DEV_SETS, Item, contains_any, load_items, questions_of

RANKS = ((1, "1"), (3, "2-3"), (10, "4-10"), (150, "11-150"))
STAGES = ("keyword", "vector", "fused")


@dataclass(frozen=True)
class Staged:
    """One question's gold through the stages of search."""

    set: str
    id: str
    kind: str  # ``kind_of``, cross-lingual with the question's language
    across: bool  # taken as asked across languages (``AskedQuestion.across``)
    gold_chunks: int  # chunks of its documents holding a gold phrase
    keyword: int | None  # best rank of a gold chunk in each list (None: not in it)
    vector: int | None
    fused: int | None
    kept: bool  # a gold chunk among the search's kept hits
    read: bool  # ... among the hits the evidence reads (the top-up included)
    in_units: bool  # a gold phrase in the units the answerer reads
    units: str  # a digest of the units' texts
    answered: bool | None = None  # a gold phrase in the direct answer (None: not asked)


def plain(item: Item) -> bool:
    """A question searched as asked: intent ``ask``, no selection, no thread; covered."""
    return item.intent == "ask" and not item.selection and not item.previous and not item.refuse


def kind(item: Item) -> str:
    found = kind_of(item)
    return f"{found} ({item.lang})" if found == "cross-lingual" else found


def home_of(homes: Path, set_name: str, items: Sequence[Item]) -> tuple[Path, dict]:
    """The set's home under ``homes``: its documents added and embedded once, reused."""
    import unseen

    home = homes / set_name
    corpus = home / unseen.CORPUS
    if not corpus.exists():
        home.mkdir(parents=True, exist_ok=True)
        unseen.build(home, questions_of(set_name).parent / "docs", items, True)
    return home, json.loads(corpus.read_text(encoding="utf-8"))


def staged(
    library: Any, asker: Any, set_name: str, item: Item, doc_ids: Sequence[str], answer: bool
) -> Staged:
    """``item`` asked of ``doc_ids``: its gold's best rank at each stage."""
    from askalong.asking.evidence_search import ANSWER_CHUNKS
    from askalong.asking.question import Question, asked_question
    from askalong.types import Access

    access = Access.local()
    docs = tuple(library.store.get_document(d, access) for d in doc_ids)
    gold = {
        c.id for d in doc_ids for c in library.store.chunks(d) if contains_any(c.text, item.gold)
    }
    searcher = library.searcher
    asked = asked_question(Question(item.question, "ask", None, docs), [], None)
    across = asked.across

    def best(hits: Sequence[Any]) -> int | None:
        return next((n for n, h in enumerate(hits, 1) if h.chunk_id in gold), None)

    ranks = {
        "keyword": searcher.ranking(item.question, access, documents=doc_ids, use_vectors=False),
        "vector": searcher.ranking(item.question, access, documents=doc_ids, use_keyword=False),
        "fused": searcher.ranking(item.question, access, documents=doc_ids, across=across),
    }
    kept = searcher.search(
        item.question, access, documents=doc_ids, k_max=ANSWER_CHUNKS, across=across
    )
    evidence = asker.evidence(asked, access)
    texts = [u.text for u in evidence.units]
    answered = _answered(asker, asked, evidence, item) if answer else None
    return Staged(
        set_name, item.id, kind(item), across, len(gold),
        *(best(ranks[stage]) for stage in STAGES),
        best(kept.hits) is not None, best(evidence.hits) is not None,
        any(contains_any(t, item.gold) for t in texts),
        hashlib.sha1("\x00".join(texts).encode()).hexdigest()[:12], answered,
    )  # fmt: skip


def _answered(asker: Any, asked: Any, evidence: Any, item: Item) -> bool:
    """Whether the answer drafted from ``evidence`` holds a gold phrase (not refused)."""
    said = asker.answered(asked, evidence)
    return said.status != "not_covered" and contains_any(MARKS.sub("", said.answer), item.gold)


def staged_set(
    homes: Path, set_name: str, kinds: Sequence[str], policy: Any = None, answer: bool = False
) -> list[Staged]:
    """Every plain question of ``set_name`` of ``kinds`` (all when empty), staged."""
    import unseen
    from askalong.asking.choose import make_asker

    items = load_items(questions_of(set_name))
    home, ids = home_of(homes, set_name, items)
    chosen = [i for i in items if plain(i) and (not kinds or kind_of(i) in kinds)]
    with unseen.open_library(home) as library:
        if policy is not None:
            library.searcher.policy = policy
        asker = make_asker(library)
        return [staged(library, asker, set_name, i, ids[i.doc], answer) for i in chosen]


def _bucket(rank: int | None) -> str:
    if rank is None:
        return "none"
    return next(label for top, label in RANKS if rank <= top)


def summary(done: Sequence[Staged]) -> list[str]:
    """One row: questions, each list's rank buckets, kept, read, in units."""
    cells = [
        str(len(done)),
        str(sum(t.across for t in done)),
        str(sum(t.gold_chunks > 0 for t in done)),
    ]
    for stage in STAGES:
        ranks = Counter(_bucket(getattr(t, stage)) for t in done)
        cells.append(" / ".join(str(ranks[label]) for _, label in (*RANKS, (0, "none"))))
    cells += [str(sum(getattr(t, key) for t in done)) for key in ("kept", "read", "in_units")]
    cells.append(str(sum(bool(t.answered) for t in done)))
    return cells


HEADER = (
    "kind", "questions", "taken as across", "gold in a chunk",
    *(f"{stage} rank 1 / 2-3 / 4-10 / 11-150 / none" for stage in STAGES),
    "kept by the search", "in the hits read", "gold in units", "gold answered",
)  # fmt: skip


def table(done: Sequence[Staged]) -> str:
    groups: dict[str, list[Staged]] = {}
    for t in done:
        groups.setdefault(t.kind, []).append(t)
    rows = [(key, *summary(groups[key])) for key in sorted(groups)]
    rows.append(("all", *summary(done)))
    return markdown_table(HEADER, "l" + "r" * (len(HEADER) - 1), rows)


def compared(done: Sequence[Staged], before: Path) -> str:
    """Per kind: questions whose units changed, gold in units gained and lost."""
    earlier = {(r["set"], r["id"]): r for r in json.loads(before.read_text(encoding="utf-8"))}
    counts: dict[str, Counter[str]] = {}
    for t in done:
        was = earlier.get((t.set, t.id))
        if was is None:
            continue
        c = counts.setdefault(t.kind, Counter())
        c["questions"] += 1
        c["units changed"] += was["units"] != t.units
        c["gold gained"] += t.in_units and not was["in_units"]
        c["gold lost"] += was["in_units"] and not t.in_units
    columns = ("questions", "units changed", "gold gained", "gold lost")
    rows = [(k, *(str(counts[k][c]) for c in columns)) for k in sorted(counts)]
    return markdown_table(("kind", *columns), "lrrrr", rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--homes", type=Path, required=True, help="one home a set, reused")
    parser.add_argument("--set", nargs="+", default=list(DEV_SETS), choices=DEV_SETS)
    parser.add_argument("--kinds", nargs="*", default=[], help="kind_of names; all when none")
    parser.add_argument("--out", type=Path, help="every question's stages, as JSON")
    parser.add_argument("--before", type=Path, help="an earlier --out to compare units with")
    parser.add_argument("--answer", action="store_true", help="answer too (learned answerer)")
    parser.add_argument("--across-share", type=float, help="zscore_keyword_share_across")
    args = parser.parse_args()
    policy = None
    if args.across_share is not None:
        from askalong.retrieve.policy import RetrievalPolicy

        policy = RetrievalPolicy(zscore_keyword_share_across=args.across_share)
    done = [
        t
        for name in args.set
        for t in staged_set(args.homes, name, args.kinds, policy, args.answer)
    ]
    print(table(done))
    if args.before:
        print(compared(done, args.before))
    if args.out:
        args.out.write_text(json.dumps([asdict(t) for t in done], indent=0), encoding="utf-8")


if __name__ == "__main__":
    main()
