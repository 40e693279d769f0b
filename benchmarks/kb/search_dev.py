"""The KB evaluation's search diagnostic alone (search R@5 / MRR), on the dev items by
default: one ``search_knowledge`` retrieval of each answerable item's question as its
asker, ranked against the gold evidence as ``askalong eval kb`` ranks it, and each miss
printed with what ranked first. Fast (no answer is composed), so the ranking can be
looked at between changes; tune on the dev items only.

    ASKALONG_EVALDATA=... python benchmarks/kb/search_dev.py --home DIR [--all] [--misses]

``DIR`` is an ``eval kb`` home whose knowledge base is built (the build is not resumed
here: documents without vectors are searched by keyword, as the product does).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from pathlib import Path

from askalong.config import Settings, load_settings
from askalong.evaluate.kb_build import kb_settings, open_kb, user_access
from askalong.evaluate.kb_corpus import KbCorpus, load_kb_corpus
from askalong.evaluate.kb_items import load_items
from askalong.evaluate.kb_metrics import K, ranking_scores
from askalong.evaluate.kb_run import KbRunner
from askalong.evaluate.metrics import mean

HERE = Path(__file__).resolve().parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--home", type=Path, required=True)
    parser.add_argument("--all", action="store_true", help="every item, not the dev split")
    parser.add_argument("--misses", action="store_true", help="print each miss's top hits")
    args = parser.parse_args()
    evaldata = Path(os.environ["ASKALONG_EVALDATA"])
    corpus = load_kb_corpus(HERE / "corpus.json", evaldata)
    items = load_items(HERE / "items.jsonl")
    dev = set((HERE / "dev.txt").read_text("utf-8").split())
    chosen = [
        i for i in items if (args.all or i.id in dev) and i.expected == "answer" and i.gold_count
    ]
    settings = dataclasses.replace(load_settings(), home=args.home)
    kb = open_kb(settings, corpus, evaldata) if _built(settings, corpus) else None
    if kb is None:
        print(f"no built knowledge base under {args.home}", file=sys.stderr)
        return 1
    with kb.library:
        runner = KbRunner(kb, corpus)
        rows = []
        for item in chosen:
            access = user_access(kb.library, item.asker)
            searched = runner.searched(item.question, access)
            recall, mrr, _ = ranking_scores(item, searched)
            rows.append((item, recall, mrr))
            if args.misses and (recall < 1 or mrr < 1):
                print(f"\n== {item.id} [{item.category}] R@{K} {recall:.2f} MRR {mrr:.2f}")
                print(f"   Q: {item.question}")
                for gold in item.gold_evidence:
                    print(f"   gold {gold.document}: {gold.text[:90]}")
                for n, chunk in enumerate(searched, 1):
                    text = " ".join(chunk.text.split())[:110]
                    print(f"   {n}. {chunk.document[-40:]}: {text}")
    by_category: dict[str, list[tuple[float, float]]] = {}
    for item, recall, mrr in rows:
        by_category.setdefault(item.category, []).append((recall, mrr))
    print(f"\n| category | items | search R@{K} | search MRR |\n| --- | ---: | ---: | ---: |")
    for category, scores in [*by_category.items(), ("answerable", [r[1:] for r in rows])]:
        recalls, mrrs = [s[0] for s in scores], [s[1] for s in scores]
        print(f"| {category} | {len(scores)} | {mean(recalls):.3f} | {mean(mrrs):.3f} |")
    return 0


def _built(settings: Settings, corpus: KbCorpus) -> bool:
    return (kb_settings(settings, corpus).home / "kb.json").exists()


if __name__ == "__main__":
    sys.exit(main())
