"""Triage accuracy on thumbs-down cases with a known cause (issue 16).

Each case of ``tests/data/triage_cases.jsonl`` (written by hand, before any run, from real
documents: pages of the PostgreSQL manual and CMRC 2018 articles) is a question, the
answer given, the asker's reason, the quotes it cited (verbatim from the document) and
the retrieval mode, with the cause it was built to have: ``retrieval_miss`` (nothing cited,
or keyword-only fallback), ``retrieval_fault`` (the cited passages are about something
else), ``generation_fault`` (the cited passages hold the answer the answer got wrong or
left out). The documents are ingested into a fresh library (keyword route only); each
cited quote is found in its chunk, whose text is the cited parent, as the product would
take it from the stored turn. Then the offline triage (term coverage) labels each case.

    PYTHONPATH=src .venv/bin/python benchmarks/triage.py [--home /tmp/aa-triage] [--out FILE]
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evaldata import EVALDATA

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

from _table import markdown_table, write_results  # noqa: E402
from askalong.config import load_settings  # noqa: E402
from askalong.feedback.judged import sha256  # noqa: E402
from askalong.feedback.triage import triage_by_terms  # noqa: E402
from askalong.library import Library  # noqa: E402
from askalong.types import Access, Chunk, Timings  # noqa: E402
from askalong.values.feedback import TRIAGE_LABELS, Citation, Judged  # noqa: E402

CASES = REPO / "tests" / "data" / "triage_cases.jsonl"
PG = "manuals/postgresql-15-html"
CMRC = "qa/cmrc2018/cmrc2018_dev.json"


@dataclass(frozen=True)
class Outcome:
    case: str
    cause: str
    label: str
    evidence: tuple[str, ...]


def load_cases(path: Path = CASES) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def document_file(key: str, folder: Path, evaldata: Path) -> Path:
    """``pg:PAGE`` is a page of the PostgreSQL manual; ``cmrc:TITLE`` an article of CMRC
    2018 (dev), written out as text (its title, then its paragraphs)."""
    kind, name = key.split(":", 1)
    if kind == "pg":
        return evaldata / PG / f"{name}.html"
    data = json.loads((evaldata / CMRC).read_text(encoding="utf-8"))["data"]
    (article,) = [a for a in data if a.get("title") == name]
    path = folder / f"{name}.txt"
    text = "\n\n".join([name, *(p["context"] for p in article["paragraphs"])])
    path.write_text(text, encoding="utf-8")
    return path


def ingest(library: Library, keys: set[str], folder: Path, evaldata: Path) -> dict[str, str]:
    """document key -> document id"""
    ids = {}
    for key in sorted(keys):
        outcome = library.ingestor.add(str(document_file(key, folder, evaldata)), Access.local())
        assert outcome.document is not None, (key, outcome.error)
        ids[key] = outcome.document.id
    return ids


def judged_case(
    case: dict[str, Any], chunks: tuple[Chunk, ...], title: str
) -> tuple[Judged, list[str]]:
    """The case as the stored turn would freeze it, and its cited parents' texts."""
    citations, parents = [], []
    for n, quote in enumerate(case["cited"], 1):
        held = [c for c in chunks if quote in c.text]
        assert held, f"{case['id']}: {quote!r} is in no chunk of {case['document']}"
        chunk = held[0]
        parents.append(chunk.text)
        citations.append(
            Citation(n, chunk.document_id, title, chunk.page_start, chunk.spans[0].block_id, 0,
                     len(quote), quote, sha256(quote), (chunk.id,), (sha256(chunk.text),))
        )  # fmt: skip
    judged = Judged(
        question=case["question"],
        answer=case["answer"],
        status=case["status"],
        explanation="",
        citations=tuple(citations),
        retrieved=(),
        retrieval_mode=case["mode"],
        fallbacks=tuple(case["fallbacks"]),
        answerer="extractive",
        model=None,
        route=None,
        timings=Timings(),
    )
    return judged, list(dict.fromkeys(parents))


def run(home: Path, cases: list[dict[str, Any]], evaldata: Path = EVALDATA) -> list[Outcome]:
    settings = load_settings(home=home, embedder="none")
    folder = home / "cases"
    folder.mkdir(parents=True, exist_ok=True)
    outcomes = []
    with Library(settings) as library:
        ids = ingest(library, {c["document"] for c in cases}, folder, evaldata)
        store = library.store
        for case in cases:
            doc_id = ids[case["document"]]
            title = store.get_document(doc_id, Access.local()).title
            judged, parents = judged_case(case, store.chunks(doc_id), title)
            triage = triage_by_terms(judged, case["reason"], parents)
            outcomes.append(Outcome(case["id"], case["cause"], triage.label, triage.evidence))
    return outcomes


def report(outcomes: list[Outcome], seconds: float) -> str:
    right = sum(o.cause == o.label for o in outcomes)
    rows = []
    for label in TRIAGE_LABELS:
        built = [o for o in outcomes if o.cause == label]
        said = [o for o in outcomes if o.label == label]
        hit = sum(o.label == label for o in built)
        rows.append(
            [label, str(len(built)), f"{hit / len(built):.2f}" if built else "-",
             f"{hit / len(said):.2f}" if said else "-"]
        )  # fmt: skip
    rows.append(["all", str(len(outcomes)), f"{right / len(outcomes):.2f}", ""])
    confusion = Counter((o.cause, o.label) for o in outcomes)
    conf_rows = [
        [cause, *(str(confusion[(cause, label)]) for label in TRIAGE_LABELS)]
        for cause in TRIAGE_LABELS
    ]
    wrong = [f"- {o.case}: built {o.cause}, said {o.label} ({'; '.join(o.evidence)})"
             for o in outcomes if o.cause != o.label]  # fmt: skip
    return "\n".join([
        f"# Triage of thumbs-down cases (offline, term coverage), {datetime.date.today()}",
        "",
        f"{len(outcomes)} cases from `tests/data/triage_cases.jsonl`; {seconds:.1f} s in all "
        "(ingestion included). Recall: the share of a cause's cases given its label; "
        "precision: the share of a label's cases that have that cause.",
        "",
        markdown_table(["cause", "cases", "recall", "precision"], "lrrr", rows),
        "Confusion (rows: the cause built, columns: the label given):",
        "",
        markdown_table(["built \\ said", *TRIAGE_LABELS], "lrrr", conf_rows),
        "Cases labelled otherwise than built:" if wrong else "Every case labelled as built.",
        "",
        *wrong,
        "",
    ])  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path, help="library folder (default: a temporary one)")
    parser.add_argument("--cases", type=Path, default=CASES)
    parser.add_argument("--out", type=Path, help="results file (default: results/triage-DATE.md)")
    args = parser.parse_args()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="aa-triage-") as scratch:
        home = args.home or Path(scratch) / "home"
        outcomes = run(home, load_cases(args.cases))
    text = report(outcomes, time.perf_counter() - started)
    write_results(text, f"triage-{datetime.date.today()}.md", args.out)


if __name__ == "__main__":
    main()
