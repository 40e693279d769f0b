"""``askalong add``: files, folders, archives and URLs into the library (inline, with
progress, or queued for the worker), with the report of what was added, skipped or failed."""

from __future__ import annotations

import tempfile
from collections import Counter
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

import click

from askalong.cli.documents import json_option
from askalong.cli.output import (
    console,
    document_json,
    err_console,
    print_json,
    shorten,
    shown,
)
from askalong.cli.progress import ReindexBar, progress_bar
from askalong.index.embedding import EmbedReport
from askalong.ingest.archive import archive_stem, is_archive, unpack
from askalong.ingest.inputs import Skipped, expand_inputs, folder_name, path_text
from askalong.ingest.pipeline import AddOutcome
from askalong.jobs.outbox import queue_item
from askalong.library import Library, opened_library
from askalong.types import VISIBILITIES, Access, Visibility
from askalong.values.collections import Collection
from askalong.wire import collection_json


@click.command()
@click.argument("inputs", nargs=-1, required=True, metavar="PATH_OR_URL...")
@click.option(
    "--visibility",
    type=click.Choice(VISIBILITIES),
    default=None,
    help="Who may see the documents (default: ASKALONG_VISIBILITY or private).",
)
@click.option(
    "--no-embed",
    is_flag=True,
    help="Skip computing vectors now (keyword search works at once; vectors follow later).",
)
@click.option(
    "--queue",
    is_flag=True,
    help="Only queue the documents (stored as pending); `askalong worker` or a server reads them.",
)
@click.option(
    "--follow-links",
    is_flag=True,
    help="In folders, also take links to files outside them and walk linked folders.",
)
@click.option(
    "--collection",
    default=None,
    metavar="NAME",
    help="Put everything added in this collection (default: a folder's own name).",
)
@click.option(
    "--context-descriptions",
    is_flag=True,
    help="Store a line of background with each chunk, searched with its text: a chat model's "
    "(ASKALONG_LLM_BASE_URL/MODEL) or else the title and section path "
    "(default: ASKALONG_CONTEXT_DESCRIPTIONS; with --queue the worker's setting decides).",
)
@json_option
def add(
    inputs: Sequence[str],
    visibility: Visibility | None,
    no_embed: bool,
    queue: bool,
    follow_links: bool,
    collection: str | None,
    context_descriptions: bool,
    as_json: bool,
) -> None:
    """Add files, folders (recursively) and http(s) URLs of web pages or PDFs.

    Re-adding the same content is a no-op. One bad input is reported and the others
    still go in; the exit status is 1 only when every input failed. A folder's walk stays
    inside it: links out of it are reported and skipped unless --follow-links. Documents are
    keyword-searchable within seconds of being added; their vectors are computed next
    (with a progress bar), and any left over are filled in by the next add.

    A folder makes (or extends) a collection named after it, asked as one with
    `ask --collection NAME`; --collection NAME puts files, folders and URLs in NAME.

    With --queue each document is stored as pending with its ingestion job and read by
    `askalong worker` (or the worker of a running server); `docs` shows how far it is.
    """
    described = context_descriptions or None  # not given: the setting decides
    with (
        ExitStack() as unpacked,
        opened_library(ReindexBar(), context_descriptions=described) as library,
    ):
        plan = collection_plan(inputs, collection, follow_links, unpacked, library)
        add_one = _queuer(library) if queue else library.ingestor.add
        with library.indexes.keyword.batch():  # a commit per many documents, not each
            outcomes = _add_all(add_one, plan.items, visibility)
        collected = _collect(library, plan.items, outcomes)
        report = None if no_embed or queue else _embed_pending(library)
    _report_added(outcomes, collected, report, plan.skipped, as_json)
    if outcomes and all(o.status == "failed" for o in outcomes):
        raise SystemExit(1)


@dataclass(frozen=True)
class Planned:
    """One file to add: its path, the collection it joins, what it is called (a file
    unpacked from an archive: ``repo.zip/src/a.py``; None: its path)."""

    item: str | Skipped
    collection: str | None
    source: str | None = None


@dataclass(frozen=True)
class Plan:
    items: list[Planned]
    skipped: dict[str, int]  # a repository's skipped files by reason ("vendored": 3)


def collection_plan(
    inputs: Sequence[str],
    collection: str | None,
    follow_links: bool,
    unpacked: ExitStack,
    library: Library,
) -> Plan:
    """Each input expanded, with the collection its documents join: ``collection`` for
    all, else a folder's (or an archive's) own name (a file or URL named alone joins
    none). An archive is unpacked into a temporary folder ``unpacked`` removes."""
    items: list[Planned] = []
    skipped: Counter[str] = Counter()
    for given in inputs:
        name, folder, shown_as = collection or folder_name(given), given, None
        if is_archive(given):
            folder = unpacked.enter_context(tempfile.TemporaryDirectory(prefix="askalong-"))
            unpack(given, Path(folder), max_file_bytes=library.settings.max_file_bytes)
            name, shown_as = collection or archive_stem(given), path_text(given)
        for item in expand_inputs([folder], follow_links=follow_links):
            if isinstance(item, Skipped) and item.counted:
                skipped[item.counted] += 1
                continue
            source = None
            if shown_as is not None and isinstance(item, str):
                source = f"{shown_as}/{Path(item).relative_to(folder).as_posix()}"
            items.append(Planned(item, name, source))
    return Plan(items, dict(sorted(skipped.items())))


def _collect(
    library: Library, planned: list[Planned], outcomes: list[AddOutcome]
) -> list[Collection]:
    """Put the documents added (or already there) in their collections, in input order."""
    members: dict[str, list[str]] = {}
    for plan, outcome in zip(planned, outcomes, strict=True):
        name = plan.collection
        if name is not None:
            ids = members.setdefault(name, [])
            if outcome.document is not None:
                ids.append(outcome.document.id)
    return [
        library.store.add_to_collection(name, ids, Access.local())
        for name, ids in members.items()
        if ids
    ]


def _embed_pending(library: Library) -> EmbedReport | None:
    pending = library.indexes.pending_vectors()
    if not pending:
        return None
    total = sum(len(library.store.chunks(d.id)) for d in pending)
    with progress_bar() as progress:
        task = progress.add_task("Embedding chunks", total=total)
        return library.indexes.embed(pending, lambda n: progress.update(task, completed=n))


AddOne = Callable[..., AddOutcome]  # (item, access, visibility=..., source=...) -> outcome


def _queuer(library: Library) -> AddOne:
    def queue_one(
        item: str, access: Access, *, visibility: Visibility | None, source: str | None = None
    ) -> AddOutcome:
        outcome = queue_item(library.ingestor, library.store, item, access, visibility, source)
        if outcome.status == "queued":
            library.wakeups.announce()  # idle workers elsewhere (ASKALONG_REDIS_URL)
        return outcome

    return queue_one


def _add_all(
    add_one: AddOne, items: list[Planned], visibility: Visibility | None
) -> list[AddOutcome]:
    outcomes = []
    with progress_bar() as progress:
        task = progress.add_task("Adding", total=len(items))
        for planned in items:
            item = planned.item
            if isinstance(item, Skipped):  # the folder walk did not take it: say so
                outcomes.append(AddOutcome(item.source, "failed", error=str(item)))
            else:
                progress.update(task, description=f"Adding {shorten(item, 40)}")
                outcomes.append(
                    add_one(item, Access.local(), visibility=visibility, source=planned.source)
                )
            progress.advance(task)
    return outcomes


def _report_added(
    outcomes: list[AddOutcome],
    collected: list[Collection],
    report: EmbedReport | None,
    skipped: dict[str, int],
    as_json: bool,
) -> None:
    if as_json:
        print_json({**_add_json(outcomes, collected, report), "skipped": skipped})
        return
    if report is not None:
        _print_embed_report(report)
    for o in outcomes:
        if o.status == "failed":
            err_console.print(f"[red]failed[/]  {shown(o.error or '')}")
        elif o.document and o.status == "queued":
            console.print(f"[cyan]queued[/]  {o.document.id}  {shown(o.source)}")
        elif o.document and o.status == "exists":
            console.print(f"[dim]exists[/]  {o.document.id}  {shown(o.source)} (already added)")
        elif o.document:
            pages = f"{o.document.page_count} p, " if o.document.format == "pdf" else ""
            console.print(
                f"[green]added[/]   {o.document.id}  {shown(o.source)}  "
                f"({o.document.format}, {pages}{o.blocks} blocks, {o.chunks} chunks)"
            )
            for notice in o.document.notices:
                console.print(f"          [yellow]note:[/] {shown(notice)}")
    for c in collected:
        console.print(
            f"[cyan]collection[/] {shown(c.name)}: {c.documents} document(s), {c.chunks} chunks"
        )
    if skipped:
        counts = ", ".join(f"{count} {reason}" for reason, count in skipped.items())
        console.print(f"[dim]skipped[/]  {counts}")


def _print_embed_report(report: EmbedReport) -> None:
    err_console.print(f"[dim]vectors: {report.chunks} chunks of {report.documents} document(s)[/]")
    if report.error:
        err_console.print(
            f"[yellow]vectors incomplete:[/] {shown(report.error)} (keyword search works; "
            "the next add retries)"
        )


def _add_json(
    outcomes: list[AddOutcome], collected: list[Collection], report: EmbedReport | None
) -> dict[str, object]:
    return {
        "results": [
            {
                "source": o.source,
                "status": o.status,
                "document": document_json(o.document) if o.document else None,
                "blocks": o.blocks,
                "chunks": o.chunks,
                "error": o.error,
            }
            for o in outcomes
        ],
        "added": sum(o.status == "added" for o in outcomes),
        "existing": sum(o.status == "exists" for o in outcomes),
        "failed": sum(o.status == "failed" for o in outcomes),
        "queued": sum(o.status == "queued" for o in outcomes),
        "embedded": {
            "documents": report.documents if report else 0,
            "chunks": report.chunks if report else 0,
            "error": report.error if report else None,
        },
        "collections": [collection_json(c) for c in collected],
    }
