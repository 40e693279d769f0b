"""The eval command group: measure the engine on public test collections."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import cast

import click
from rich.progress import Progress

from askalong.asking.choose import make_asker
from askalong.cli.evaluate_kb import kb
from askalong.cli.output import console, err_console, print_json
from askalong.cli.progress import progress_bar
from askalong.config import Settings, load_settings
from askalong.evaluate.datasets import RetrievalCorpus, load_dataset
from askalong.evaluate.harness import (
    CHUNKINGS,
    MODES,
    Chunking,
    corpus_settings,
    evaluate_corpus,
    load_corpus,
)
from askalong.evaluate.qa import QaReport, evaluate_qa
from askalong.evaluate.qa import to_markdown as qa_markdown
from askalong.evaluate.retrieval import RetrievalReport, report_json, to_markdown_rows
from askalong.library import Library
from askalong.types import Access


@click.group(name="eval")
def evaluate() -> None:
    """Measure retrieval (and later answers) on public test collections."""


@evaluate.command()
@click.argument("datasets", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--mode",
    "modes",
    type=click.Choice(MODES),
    multiple=True,
    help="Only these modes (repeatable; default: keyword, vector and hybrid).",
)
@click.option("--limit", type=click.IntRange(1), default=None, help="Score the first N queries.")
@click.option(
    "--chunking",
    type=click.Choice(CHUNKINGS),
    default="default",
    help="default: the product's chunks; paragraph: one chunk per paragraph (comparable to "
    "paragraph-level baselines).",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON (see README).")
def retrieval(
    datasets: Sequence[Path],
    modes: Sequence[str],
    limit: int | None,
    chunking: str,
    as_json: bool,
) -> None:
    """Score retrieval on SciFact (a folder) or SQuAD-format JSON files (XQuAD, CMRC, DRCD).

    Each collection is indexed once into its own library under ASKALONG_HOME/eval/ (vectors
    are kept between runs); then nDCG@10, Recall@1/5/10 and MRR@10 are printed per mode.
    """
    settings = load_settings()
    reports: list[RetrievalReport] = []
    with progress_bar() as progress:
        task = progress.add_task("Loading", total=None)

        def report(stage: str, done: int, total: int) -> None:
            progress.update(task, description=stage.capitalize(), completed=done, total=total)

        for path in datasets:
            corpus = load_dataset(path)
            evaluation = evaluate_corpus(
                settings,
                corpus,
                modes=modes or MODES,
                limit=limit,
                progress=report,
                chunking=cast(Chunking, chunking),
            )
            reports.extend(evaluation.reports)
            err_console.print(
                f"[dim]{corpus.name}: {evaluation.chunks} chunks, "
                f"{evaluation.paragraphs_per_chunk:.2f} paragraphs per chunk ({chunking})[/]"
            )
            for note in evaluation.notes:
                err_console.print(f"[yellow]note:[/] {corpus.name}: {note}")
    if as_json:
        print_json({"reports": [report_json(r) for r in reports]})
    else:
        console.print(to_markdown_rows(reports), markup=False)


@evaluate.command()
@click.argument("datasets", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--limit", type=click.IntRange(1), default=None, help="Ask the first N questions.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (see README).")
def qa(datasets: Sequence[Path], limit: int | None, as_json: bool) -> None:
    """Score answers on SQuAD-format JSON files (XQuAD, CMRC 2018, DRCD).

    Each question is asked of its own article (evidence hit: a quote holds the gold
    answer; quotes verbatim) and of a different article (it must come back "not
    covered"). Prints a markdown table; EM/F1 matter for a model answerer.
    """
    settings = load_settings()
    reports: list[QaReport] = []
    with progress_bar() as progress:
        for path in datasets:
            corpus = load_dataset(path)
            reports.append(_qa_one(settings, corpus, limit, progress))
    if as_json:
        print_json({"reports": [dataclasses.asdict(r) for r in reports]})
    else:
        console.print(qa_markdown(reports), markup=False)


def _qa_one(
    settings: Settings, corpus: RetrievalCorpus, limit: int | None, progress: Progress
) -> QaReport:
    task = progress.add_task(f"Indexing {corpus.name}", total=len(corpus.documents))
    with Library(corpus_settings(settings, corpus)) as library:
        load_corpus(
            library, corpus, lambda _stage, done, _total: progress.update(task, completed=done)
        )
        ids = {d.source: d.id for d in library.store.list_documents(Access.local())}
        asker = make_asker(library)
        total = min(limit or len(corpus.queries), len(corpus.queries))
        progress.update(task, description=f"Asking {corpus.name}", completed=0, total=total)
        return evaluate_qa(
            asker,
            library.store,
            corpus,
            ids,
            limit=limit,
            progress=lambda n: progress.update(task, completed=n),
        )


evaluate.add_command(kb)
