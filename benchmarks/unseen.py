"""Never-seen documents: does the direct answer hold on documents nobody tuned on?

Asks the items of one split of ``benchmarks/unseen/questions.jsonl`` (set, documents and
format in ``benchmarks/unseen/README.md``; ``--set unseen2`` … ``--set unseen25``: the later
sets in ``benchmarks/unseen2/`` … ``benchmarks/unseen25/``, each test-only until reported)
through the product's own path, in one run, for three systems:

- ``learned`` and ``rules``: the offline answerer with ``ASKALONG_SENTENCE_SCORER`` set to
  that value (each asked in its own child process, so no cached scorer crosses over), via
  ``make_asker`` with a ``Question`` as the CLI ``ask`` builds it: Explain / Example /
  Compare on the selection located as the reader sends it, follow-ups in the thread of the
  item they follow;
- ``bm25`` and ``bm25p``: the keyword route's top-1 chunk, and BM25's top-1 paragraph (one
  block: the unit the reader shows), over the same document (``unseen_baselines``; the
  question, or the selection for a bare intent); its text is the answer; never refused.

The documents are added to a fresh ``ASKALONG_HOME`` in a temporary folder (vectors
included unless ``--vectors none``). Printed per question kind and per document kind, for
each system: n, answer hit (a gold phrase in the direct answer; covered items), passage
hit (a gold phrase in a cited quote or the answer's passage; covered items), refused,
wrong refusals (covered but refused), uncovered refused, p50 ms. ``--out NAME`` writes the
tables to NAME (``.md`` added unless it ends so) and every answer beside it (the same name,
``.json``). ``--check`` only proves that every gold
phrase is in its parsed document and every selection is found; it asks nothing. ``--kinds explain
example compare`` asks only those kinds of item (and adds only their documents).

    PYTHONPATH=src .venv/bin/python benchmarks/unseen.py --split dev
    PYTHONPATH=src .venv/bin/python benchmarks/unseen.py --set unseen2 --split test
    PYTHONPATH=src .venv/bin/python benchmarks/unseen.py --set unseen3 --check --split all
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, cast

from _table import share
from answers_corpus import _embed
from unseen_baselines import BASELINES, baseline_answer
from unseen_calibrate import passage_probability
from unseen_set import KINDS, SETS, Item, contains_any, load_items, of_split, questions_of

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "benchmarks" / "results"
SCORERS = ("learned", "rules")  # values of ASKALONG_SENTENCE_SCORER
SYSTEMS = (*SCORERS, *BASELINES)
CORPUS = "corpus.json"  # in the home: each set document's ids


# -- the library -------------------------------------------------------------------


def open_library(home: Path) -> Any:
    """The library under ``home`` (``ASKALONG_HOME``), with the offline answerer."""
    from askalong.config import load_settings
    from askalong.library import Library

    os.environ["ASKALONG_HOME"] = str(home)
    os.environ.pop("ASKALONG_ANSWERER", None)  # the default: the offline extractive one
    return Library(load_settings())


def add_documents(
    library: Any, folder: Path, docs: Sequence[str], progress: Callable[[], None]
) -> dict:
    """Each set document (a file, or a folder of files, under ``folder``) added through the
    product's ingestor: a map from the set's name to its document ids."""
    from askalong.ingest.inputs import Skipped, expand_inputs
    from askalong.types import Access

    ids: dict[str, list[str]] = {}
    for doc in docs:
        ids[doc] = []
        for path in expand_inputs([str(folder / doc)]):
            if isinstance(path, Skipped):
                continue
            added = library.ingestor.add(path, Access.local())
            if added.document is None:
                raise SystemExit(f"{path}: not added: {added.error}")
            ids[doc].append(added.document.id)
        progress()
    return ids


def build(home: Path, folder: Path, items: Sequence[Item], vectors: bool) -> dict[str, list[str]]:
    """The items' documents (under ``folder``) added (and embedded) under ``home``; their
    ids, also saved."""
    docs = sorted({i.doc for i in items})
    with _progress() as bar, open_library(home) as library:
        task = bar.add_task("adding documents", total=len(docs))
        ids = add_documents(library, folder, docs, lambda: bar.advance(task))
        if vectors:
            bar.update(task, description="embedding")
            _embed(library, {d for doc_ids in ids.values() for d in doc_ids})
    (home / CORPUS).write_text(json.dumps(ids, indent=1), encoding="utf-8")
    return ids


# -- the set's own check ------------------------------------------------------------


def check(library: Any, ids: dict[str, list[str]], items: Sequence[Item]) -> list[str]:
    """Problems: a gold phrase missing from its parsed document, a selection not found, or
    a gold phrase inside the item's selection (an echo of it could then hit)."""
    problems = []
    for item in items:
        text = "\n".join(b.text for d in ids[item.doc] for b in library.store.blocks(d))
        problems += [f"{item.id}: {g!r} not in {item.doc}" for g in item.gold if not _has(text, g)]
        if item.selection and _anchor(library, ids[item.doc], item.selection) is None:
            problems.append(f"{item.id}: selection not found: {item.selection!r}")
        elif item.selection and contains_any(item.selection, item.gold):
            problems.append(f"{item.id}: a gold phrase is inside the selection")
    return problems


def _has(text: str, phrase: str) -> bool:
    return contains_any(text, [phrase])


def _anchor(library: Any, doc_ids: Sequence[str], selection: str) -> Any:
    """The anchor as the reader sends it (block, span, text), in the first of the
    document's files that holds the selection; None when none does."""
    from askalong.context.locate import locate_selection

    for doc_id in doc_ids:
        anchor = locate_selection(library.store.blocks(doc_id), selection, document_id=doc_id)
        if anchor is not None:
            return anchor
    return None


# -- asking (one system, in a child process) -------------------------------------------


def ask_all(home: Path, items: Sequence[Item], system: str) -> list[dict[str, Any]]:
    """Every item asked through the product's asker, follow-ups in their item's thread."""
    from askalong.asking.choose import make_asker

    ids = json.loads((home / CORPUS).read_text(encoding="utf-8"))
    threads: dict[str, str | None] = {}
    rows = []
    with _progress() as bar, open_library(home) as library:
        asker = make_asker(library)
        task = bar.add_task(f"asking ({system})", total=len(items))
        for item in items:
            row, threads[item.id] = ask_one(library, asker, ids[item.doc], item, threads)
            rows.append({"system": system, **row})
            bar.advance(task)
    return rows


def ask_one(
    library: Any, asker: Any, doc_ids: Sequence[str], item: Item, threads: dict
) -> tuple[dict[str, Any], str | None]:
    """One item's scored answer and the thread it was asked in."""
    from askalong.asking.question import Question
    from askalong.types import Access, Intent

    access = Access.local()
    docs = tuple(library.store.get_document(d, access) for d in doc_ids)
    anchor = _anchor(library, doc_ids, item.selection) if item.selection else None
    thread = threads.get(item.previous) if item.previous else None
    question = Question(item.question, cast(Intent, item.intent), anchor, docs, thread_id=thread)
    started = time.perf_counter()
    answer = asker.ask(question, access)
    ms = (time.perf_counter() - started) * 1000
    quotes = [q.text for q in answer.quotes]
    passage = _passage(answer)
    refused = answer.status == "not_covered"
    row = _scored(item, answer.answer, refused, [*quotes, passage], ms)
    row["passage_p"] = passage_probability(library, item.question, answer.hits)
    return {**row, "status": answer.status, "passage": passage, "quotes": quotes}, answer.thread_id


def _passage(answer: Any) -> str:
    """The answer's ``passage`` (its paragraph) where the answerer gives one."""
    passage = getattr(answer, "passage", None)
    return str(getattr(passage, "text", passage) or "")


def _scored(
    item: Item, answer: str, refused: bool, passages: Sequence[str], ms: float
) -> dict[str, Any]:
    """An answer's figures: the hits count only when covered and not refused."""
    covered = not item.refuse
    return {
        "id": item.id,
        "kind": item.kind,
        "doc_kind": item.doc_kind,
        "covered": covered,
        "answer": answer,
        "refused": refused,
        "answer_hit": covered and not refused and contains_any(answer, item.gold),
        "passage_hit": covered and any(contains_any(p, item.gold) for p in passages),
        "ms": ms,
    }


def baseline(home: Path, items: Sequence[Item]) -> list[dict[str, Any]]:
    """Each baseline's answer for each item (``unseen_baselines``): one text; never
    refused."""
    ids = json.loads((home / CORPUS).read_text(encoding="utf-8"))
    rows = []
    with open_library(home) as library:
        for system in BASELINES:
            for item in items:
                query = item.question or item.selection or ""
                started = time.perf_counter()
                text = baseline_answer(system, library, query, ids[item.doc])
                ms = (time.perf_counter() - started) * 1000
                rows.append({"system": system, **_scored(item, text, False, [text], ms)})
    return rows


def run_child(home: Path, args: argparse.Namespace, system: str) -> list[dict[str, Any]]:
    """One scorer's answers, asked in a child process with ``ASKALONG_SENTENCE_SCORER``."""
    out = home / f"answers-{system}.json"
    env = {**os.environ, "ASKALONG_SENTENCE_SCORER": system}
    command = [sys.executable, __file__, "--set", args.set, "--split", args.split]
    command += ["--child", system, "--home", str(home)]
    command += ["--kinds", *args.kinds] if args.kinds else []
    subprocess.run(command, env=env, check=True)
    return cast(list[dict[str, Any]], json.loads(out.read_text(encoding="utf-8")))


# -- the report ----------------------------------------------------------------------

COLUMNS = (
    "n", "answer hit", "passage hit", "refused", "wrong refusals", "uncovered refused", "p50 ms"
)  # fmt: skip


def figures(rows: Sequence[dict[str, Any]]) -> dict[str, str]:
    """One table row's cells."""
    covered = [r for r in rows if r["covered"]]
    uncovered = [r for r in rows if not r["covered"]]
    return {
        "n": str(len(rows)),
        "answer hit": share(covered, "answer_hit"),
        "passage hit": share(covered, "passage_hit"),
        "refused": share(rows, "refused"),
        "wrong refusals": share(covered, "refused"),
        "uncovered refused": share(uncovered, "refused"),
        "p50 ms": f"{statistics.median(r['ms'] for r in rows):.0f}" if rows else "—",
    }


def table(rows: Sequence[dict[str, Any]], key: str, order: Sequence[str]) -> str:
    """Rows grouped by ``key`` (then all together), one line per group and system."""
    groups = [g for g in order if any(r[key] == g for r in rows)] + ["**all**"]
    lines = [f"| {key} | system | " + " | ".join(COLUMNS) + " |"]
    lines.append("|---|---|" + "---:|" * len(COLUMNS))
    for group in groups:
        for system in SYSTEMS:
            picked = [r for r in rows if r["system"] == system and group in (r[key], "**all**")]
            cells = figures(picked)
            lines.append(f"| {group} | {system} | " + " | ".join(cells[c] for c in COLUMNS) + " |")
    return "\n".join(lines)


def report(rows: Sequence[dict[str, Any]], notes: Sequence[str]) -> str:
    doc_kinds = sorted({r["doc_kind"] for r in rows})
    return "\n\n".join(
        [
            *notes,
            "## Per kind of question",
            table(rows, "kind", KINDS),
            "## Per kind of document",
            table(rows, "doc_kind", doc_kinds),
        ]
    )


def scorer_setting_known() -> bool:
    """Whether this checkout's askalong reads ``ASKALONG_SENTENCE_SCORER`` at all (when
    not, ``learned`` and ``rules`` are the same answerer)."""
    import askalong

    package = Path(askalong.__file__).parent
    return any("SENTENCE_SCORER" in p.read_text(encoding="utf-8") for p in package.rglob("*.py"))


def _notes(questions: Path, split: str, items: Sequence[Item], vectors: bool) -> list[str]:
    date = datetime.date.today().isoformat()
    same = "" if scorer_setting_known() else (
        " This checkout has no `ASKALONG_SENTENCE_SCORER` setting: `learned` and `rules` "
        "are the same answerer."
    )  # fmt: skip
    return [
        f"# Never-seen documents `{questions.parent.name}`, split `{split}` ({date})",
        f"{len(items)} items of `{questions.relative_to(REPO)}`, offline answerer, vectors: "
        f"{'yes' if vectors else 'no'}, askalong at `{_commit()}`, load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores.{same}",
        "answer hit: a gold phrase in the direct answer, over covered items (a refusal never "
        "hits); passage hit: a gold phrase in a cited quote or the answer's passage; wrong "
        "refusals: covered items refused; uncovered refused: the right outcome for "
        "`uncovered` items. bm25: the keyword route's top-1 chunk for the question (the "
        "selection for a bare intent) over the item's document; bm25p: BM25's top-1 paragraph "
        "(one block) over the item's document; neither ever refuses.",
    ]


def _commit() -> str:
    done = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    return done.stdout.strip() or "unknown"


def _progress() -> Any:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    columns = (BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    return Progress("{task.description}", *columns, transient=True)


# -- main --------------------------------------------------------------------------------


def main() -> None:
    args = _arguments()
    questions = questions_of(args.set)
    items = of_split(load_items(questions), args.split)
    if args.kinds:  # only these kinds of question (e.g. the intents), documents they need
        items = [i for i in items if i.kind in args.kinds]
    if args.child:  # one scorer's answers, into the parent's home
        rows = ask_all(args.home, items, args.child)
        out = args.home / f"answers-{args.child}.json"
        out.write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
        return
    with tempfile.TemporaryDirectory(prefix="askalong-unseen-") as home:
        rows = _run(Path(home), items, args)
    if rows:
        _save(args.out, rows, _notes(questions, args.split, items, args.vectors == "all"))


def _run(home: Path, items: Sequence[Item], args: argparse.Namespace) -> list[dict[str, Any]]:
    """``--check``'s problems printed (no rows), or every system's answers."""
    if args.vectors == "none":
        os.environ["ASKALONG_EMBEDDER"] = "none"
    ids = build(home, questions_of(args.set).parent / "docs", items, args.vectors == "all")
    if args.check:
        with open_library(home) as library:
            problems = check(library, ids, items)
        print("\n".join(problems) or f"all phrases and selections of {len(items)} items found")
        raise SystemExit(1 if problems else 0)
    rows = baseline(home, items)
    for system in args.scorers:
        rows = run_child(home, args, system) + rows
    return rows


def _save(out: Path | None, rows: Sequence[dict[str, Any]], notes: Sequence[str]) -> None:
    text = report(rows, notes)
    print(text)
    if out is None:
        return
    out.write_text(text + "\n", encoding="utf-8")
    data = {"notes": list(notes), "answers": list(rows)}
    out.with_suffix(".json").write_text(
        json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8"
    )
    print(f"saved {out} and {out.with_suffix('.json').name}")


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--set",
        choices=SETS,
        default="unseen",
        help=(
            "the set's folder (unseen … unseen22: each run once, dev now; unseen23: held"
            " out, not run yet; unseen24: frozen, waits behind unseen23; unseen25: frozen,"
            " waits behind unseen24)"
        ),
    )
    parser.add_argument("--split", choices=("dev", "test", "all"), default="dev")
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help="the tables' file (.md added unless it ends so); the answers beside it (.json)",
    )
    parser.add_argument("--vectors", choices=("all", "none"), default="all")
    parser.add_argument("--check", action="store_true", help="only check the set's phrases")
    parser.add_argument("--kinds", nargs="+", choices=KINDS, default=None, help="only these")
    parser.add_argument("--scorers", nargs="+", choices=SCORERS, default=list(SCORERS))
    parser.add_argument("--child", choices=SCORERS, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--home", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.out is None and not args.child and not args.check:
        date = datetime.date.today().isoformat()
        args.out = RESULTS / f"{args.set}-{args.split}-{date}.md"
    if (
        args.out is not None and args.out.suffix != ".md"
    ):  # else x.json: the answers over the tables
        args.out = args.out.with_name(f"{args.out.name}.md")
    return args


if __name__ == "__main__":
    main()
