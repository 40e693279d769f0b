"""Contextual descriptions (issue 16) on ``eval kb``: Recall@5 and MRR without and with
chunk descriptions, every variant asked in this one run.

Three knowledge bases of the same corpus, each cached under its own key
(``evaluate/kb_build.kb_settings``): ``off`` (the default), ``offline`` (descriptions are
the document title and section path) and ``scripted`` (the model path against the scripted
chat-completions server of ``tests/helpers``, whose description of each chunk is derived
from the request: the title and the chunk's first 15 words, ``describing.py``; it measures
the plumbing and that kind of description, not a real model's). Every item is asked through
the chat agent with the offline answerer, as ``askalong eval kb`` asks it.

    PYTHONPATH=src .venv/bin/python benchmarks/context_descriptions.py --home /tmp/aa-ctx \\
        [--embedder none] [--variant off --variant offline ...] [--out FILE]

``--home`` may hold a copy of a KB built before (``cp -a``): ``off`` reuses it.
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT.parent / "tests" / "helpers"))

from chat_server import ScriptedChatServer  # noqa: E402
from describing import describe_request  # noqa: E402

from _table import markdown_table, write_results  # noqa: E402
from askalong.config import load_settings  # noqa: E402
from askalong.evaluate.kb_build import kb_settings, open_kb  # noqa: E402
from askalong.evaluate.kb_corpus import load_kb_corpus  # noqa: E402
from askalong.evaluate.kb_items import load_items  # noqa: E402
from askalong.evaluate.kb_report import CategoryScores, summarise  # noqa: E402
from askalong.evaluate.kb_run import KbRunner  # noqa: E402
from askalong.index import keyword_query  # noqa: E402
from askalong.types import Access  # noqa: E402

ITEMS = ROOT / "kb" / "items.jsonl"
VARIANTS = ("off", "offline", "scripted")


@dataclass(frozen=True)
class Measured:
    variant: str
    rows: list[CategoryScores]
    build_seconds: float
    ask_seconds: float
    chat_calls: int
    chunks: int

    def row(self, category: str) -> CategoryScores:
        return next(r for r in self.rows if r.category == category)


@contextmanager
def describer(variant: str) -> Iterator[ScriptedChatServer | None]:
    if variant != "scripted":
        yield None
        return
    with ScriptedChatServer() as server:
        server.responder = describe_request
        yield server


def measure(
    variant: str, home: Path, embedder: str, evaldata: Path, only: set[str] | None = None
) -> Measured:
    items = tuple(i for i in load_items(ITEMS) if only is None or i.id in only)
    corpus = load_kb_corpus(ITEMS.with_name("corpus.json"), evaldata)
    with describer(variant) as server:
        llm = {} if server is None else {"llm_base_url": server.url, "llm_model": "scripted"}
        settings = load_settings(
            home=home, embedder=embedder, context_descriptions=variant != "off", **llm
        )
        print(f"{variant}: {kb_settings(settings, corpus).home}", file=sys.stderr)
        started = time.perf_counter()
        kb = open_kb(settings, corpus, evaldata)
        built = time.perf_counter() - started
        with kb.library:
            chunks = kb.library.store.count_documents(Access.local()).chunks
            started = time.perf_counter()
            runs = KbRunner(kb, corpus).run(items, None)
            asked = time.perf_counter() - started
        calls = 0 if server is None else len(server.chat_requests)
    return Measured(variant, summarise([r.score for r in runs]), built, asked, calls, chunks)


def _figure(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def _ratio(value: float | None, base: float | None) -> str:
    return "–" if not value or not base else f"{value / base:.2f}"


def report(measured: list[Measured], embedder: str) -> str:
    base = measured[0]
    header = (
        "variant",
        "category",
        "Recall@5",
        "MRR",
        "search R@5",
        "search MRR",
        "R@5 ratio",
        "refusal acc.",
        "leaks",
    )
    rows = []
    for m in measured:
        for category in ("answerable", "single_fact", "paraphrase", "summary", "conflict", "all"):
            r, b = m.row(category), base.row(category)
            rows.append(
                (
                    m.variant,
                    category,
                    _figure(r.recall),
                    _figure(r.mrr),
                    _figure(r.search_recall),
                    _figure(r.search_mrr),
                    _ratio(r.recall, b.recall),
                    _figure(r.refusal_accuracy),
                    str(r.leaks),
                )
            )
    costs = markdown_table(
        ("variant", "chunks", "model calls", "build s", "ask s"),
        "lrrrr",
        (
            (
                m.variant,
                str(m.chunks),
                str(m.chat_calls),
                f"{m.build_seconds:.0f}",
                f"{m.ask_seconds:.0f}",
            )
            for m in measured
        ),
    )
    day = datetime.date.today().isoformat()
    route = "keyword route only" if embedder == "none" else f"embedder {embedder}"
    return (
        f"# Contextual descriptions on eval kb ({day}, {route}, load {os.getloadavg()[0]:.0f})\n\n"
        + markdown_table(header, "llrrrrrrr", rows)
        + "\n"
        + costs
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path, required=True)
    parser.add_argument("--embedder", default="none")
    parser.add_argument("--variant", action="append", choices=VARIANTS)
    parser.add_argument(
        "--evaldata",
        type=Path,
        default=Path(os.environ.get("ASKALONG_EVALDATA", "/work/shared/evaldata")),
    )
    parser.add_argument("--out", type=Path, default=None)
    split = parser.add_mutually_exclusive_group()
    split.add_argument("--dev", action="store_true", help="Only the dev split (kb/dev.txt).")
    split.add_argument("--held-out", action="store_true", help="Only the items not in it.")
    parser.add_argument(
        "--weight", type=float, default=None, help="CONTEXT_WEIGHT to try (dev tuning)."
    )
    args = parser.parse_args()
    variants = args.variant or list(VARIANTS)
    if args.weight is not None:
        keyword_query.CONTEXT_WEIGHT = args.weight
    only = _dev_ids() if args.dev else None
    if args.held_out:
        only = {i.id for i in load_items(ITEMS)} - _dev_ids()
    measured = [measure(v, args.home, args.embedder, args.evaldata, only) for v in variants]
    text = report(measured, args.embedder)
    name = f"context-descriptions-run-{datetime.date.today().isoformat()}.md"
    write_results(text, name, args.out)


def _dev_ids() -> set[str]:
    lines = ITEMS.with_name("dev.txt").read_text(encoding="utf-8").splitlines()
    return {line.strip() for line in lines if line.strip() and not line.startswith("#")}


if __name__ == "__main__":
    main()
