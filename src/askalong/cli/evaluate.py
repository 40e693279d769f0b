"""The eval command group: measure the engine on public test collections."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from askalong.cli.output import console, err_console, print_json
from askalong.cli.progress import progress_bar
from askalong.config import load_settings
from askalong.evaluate.datasets import load_dataset
from askalong.evaluate.harness import MODES, evaluate_corpus
from askalong.evaluate.retrieval import RetrievalReport, to_markdown_rows


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
@click.option("--json", "as_json", is_flag=True, help="Print JSON (see README).")
def retrieval(
    datasets: Sequence[Path], modes: Sequence[str], limit: int | None, as_json: bool
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
                settings, corpus, modes=modes or MODES, limit=limit, progress=report
            )
            reports.extend(evaluation.reports)
            for note in evaluation.notes:
                err_console.print(f"[yellow]note:[/] {corpus.name}: {note}")
    if as_json:
        print_json({"reports": [_report_json(r) for r in reports]})
    else:
        console.print(to_markdown_rows(reports), markup=False)


def _report_json(report: RetrievalReport) -> dict[str, Any]:
    return {
        "dataset": report.dataset,
        "mode": report.mode,
        "queries": report.queries,
        "ndcg10": report.ndcg10,
        "recall1": report.recall1,
        "recall5": report.recall5,
        "recall10": report.recall10,
        "mrr10": report.mrr10,
        "queries_per_second": report.queries_per_second,
    }
