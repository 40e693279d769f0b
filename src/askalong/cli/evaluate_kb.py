"""``askalong eval kb``: the knowledge-base evaluation over the seven kinds of question
(``askalong.evaluate.kb_*``), asked through the chat agent as each item's asker."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import click

from askalong.cli.output import console, err_console, print_json
from askalong.cli.progress import progress_bar
from askalong.config import load_settings
from askalong.errors import InputError
from askalong.evaluate.kb_build import open_kb
from askalong.evaluate.kb_corpus import load_kb_corpus
from askalong.evaluate.kb_items import CATEGORIES, load_items
from askalong.evaluate.kb_judge import LABELS_FILE, judged_runs, load_labels
from askalong.evaluate.kb_report import report_json, summarise, to_markdown
from askalong.evaluate.kb_run import KbRunner


@click.command()
@click.argument("items_file", metavar="FILE.jsonl", type=click.Path(path_type=Path))
@click.option(
    "--corpus",
    "corpus_file",
    type=click.Path(path_type=Path),
    default=None,
    help="The corpus list (default: corpus.json beside FILE.jsonl).",
)
@click.option(
    "--evaldata",
    type=click.Path(path_type=Path),
    default=None,
    help="The evaluation data folder the corpus paths are relative to "
    "(default: ASKALONG_EVALDATA).",
)
@click.option(
    "--home",
    type=click.Path(path_type=Path),
    default=None,
    help="Where the knowledge base is built and cached (default: ASKALONG_HOME).",
)
@click.option(
    "--category",
    "categories",
    type=click.Choice(CATEGORIES),
    multiple=True,
    help="Only items of this category (repeatable).",
)
@click.option("--limit", type=click.IntRange(1), default=None, help="Ask the first N items.")
@click.option(
    "--report",
    "report_dir",
    type=click.Path(path_type=Path),
    default=None,
    help="Also write an HTML report with one plot per metric to this folder.",
)
@click.option(
    "--labels",
    "labels_file",
    type=click.Path(path_type=Path),
    default=None,
    help=f"Hand labels the model judge is compared with (default: {LABELS_FILE} beside "
    "FILE.jsonl, when there).",
)
@click.option(
    "--context-descriptions",
    is_flag=True,
    help="Build (and cache apart) the knowledge base with chunk descriptions "
    "(default: ASKALONG_CONTEXT_DESCRIPTIONS; see `add --context-descriptions`).",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON (see README).")
def kb(
    items_file: Path,
    corpus_file: Path | None,
    evaldata: Path | None,
    home: Path | None,
    categories: tuple[str, ...],
    limit: int | None,
    report_dir: Path | None,
    labels_file: Path | None,
    context_descriptions: bool,
    as_json: bool,
) -> None:
    """Score the knowledge base on FILE.jsonl: the answer hit (the share of gold snippets
    the direct answer itself holds), Recall@5 (the cited-chunk hit), MRR and nDCG@5 over
    the cited chunks, refusals, permission leaks and citation precision/recall, per
    category.

    The corpus is built once under HOME/kb/<corpus digest>, its users and orgs made and
    each document added by its owner with its visibility; every item is then asked as
    its asker. With a language model configured (ASKALONG_ANSWERER=openai) a model judge
    grades each answer and is compared with the hand labels.
    """
    items = load_items(items_file)
    items = tuple(i for i in items if not categories or i.category in categories)[:limit]
    data = _evaldata(evaldata)
    corpus = load_kb_corpus(corpus_file or items_file.with_name("corpus.json"), data)
    settings = load_settings(context_descriptions=context_descriptions or None)
    if home is not None:
        settings = dataclasses.replace(settings, home=home)
    labels_path = labels_file or items_file.with_name(LABELS_FILE)
    labels = load_labels(labels_path) if labels_path.exists() else {}
    with progress_bar() as progress:
        task = progress.add_task("Building the knowledge base", total=None)

        def building(stage: str, done: int, total: int) -> None:
            progress.update(task, description=stage.capitalize(), completed=done, total=total)

        kb_library = open_kb(settings, corpus, data, building)
        with kb_library.library:
            progress.update(task, description="Asking", completed=0, total=len(items))
            runs = KbRunner(kb_library, corpus).run(
                items, lambda n: progress.update(task, completed=n)
            )
            progress.update(task, description="Judging", completed=0)
            runs, agreed = judged_runs(
                settings, runs, labels, lambda n: progress.update(task, completed=n)
            )
    scores = [r.score for r in runs]
    rows = summarise(scores)
    if report_dir is not None:
        from askalong.evaluate.kb_html import write_report

        page = write_report(report_dir, rows, f"askalong eval kb: {items_file.name}")
        err_console.print(f"[dim]report: {page}[/]")
    if as_json:
        answers = {r.item.id: r.outcome.answer for r in runs}
        print_json(report_json(rows, scores, agreed, answers))
    else:
        console.print(to_markdown(rows, agreed), markup=False)


def _evaldata(given: Path | None) -> Path:
    found = given or (
        Path(os.environ["ASKALONG_EVALDATA"]) if "ASKALONG_EVALDATA" in os.environ else None
    )
    if found is None or not found.is_dir():
        raise InputError(
            "the evaluation data folder is needed: --evaldata DIR or ASKALONG_EVALDATA",
            source=str(found or "--evaldata"),
        )
    return found
