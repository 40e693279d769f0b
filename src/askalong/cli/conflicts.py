"""``askalong conflicts [--doc DOC]... [--json]``: chunk pairs across documents that say
nearly the same thing with a different number, date, version, setting or negation. The
documents not scanned yet (or changed since) are scanned first; the scan is
``maintain/conflict_scan``, this prints."""

from __future__ import annotations

from collections.abc import Sequence

import click

from askalong.cli.output import console, err_console, print_json, shorten, shown
from askalong.cli.progress import ReindexBar
from askalong.library import Library, opened_library
from askalong.types import Access
from askalong.values.conflicts import ConflictPair, ScanReport
from askalong.wire.conflicts import ConflictJSON, ConflictsJSON, conflicts_json


@click.command()
@click.option(
    "--doc", "docs", multiple=True, metavar="DOC", help="Only pairs with this document (id)."
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON (see README, Conflicts).")
def conflicts(docs: Sequence[str], as_json: bool) -> None:
    """List chunk pairs of different documents that contradict each other.

    A pair is two chunks close by vector (cosine >= 0.9) and by characters (bigram Dice
    >= 0.8) whose numbers, dates, versions, on/off values or negations differ. Each
    document is checked when its vectors are computed (add, the worker); documents not
    checked yet are checked now. Chunks with no vector yet are skipped and counted.
    """
    access = Access.local()
    with opened_library(ReindexBar()) as library:
        scanner = library.conflicts
        if scanner is None:
            err_console.print("[yellow]embeddings are off:[/] the scan needs the vectors")
        report = ScanReport() if scanner is None else scanner.scan_pending()
        ids = [library.store.get_document(d, access).id for d in docs] or None
        pairs = library.store.conflict_pairs(access, ids)
        found = _conflicts_json(library, report, pairs, access)
    if as_json:
        print_json(found)
        return
    _print(report, found["conflicts"])


def _conflicts_json(
    library: Library, report: ScanReport, pairs: list[ConflictPair], access: Access
) -> ConflictsJSON:
    titles = {d.id: d.title for d in library.store.list_documents(access)}
    chunk_ids = sorted({s.chunk_id for p in pairs for s in (p.first, p.second)})
    texts = {i: c.text for i, c in library.store.chunks_by_id(chunk_ids).items()}
    return conflicts_json(report, pairs, titles, texts)


def _print(report: ScanReport, found: list[ConflictJSON]) -> None:
    if report.documents:
        err_console.print(
            f"[dim]scanned {report.documents} document(s), {report.chunks} chunks "
            f"({report.skipped} without vectors), {report.found} new pair(s) "
            f"in {report.seconds:.1f} s[/]"
        )
    if not found:
        console.print("No conflicts found.")
        return
    for pair in found:
        console.print(
            f"[bold]{pair['kind']}[/]  cosine {pair['cosine']:.3f}  dice {pair['dice']:.3f}"
        )
        for side in pair["sides"]:
            page = f" p{side['page']}" if side["page"] else ""
            tokens = ", ".join(side["tokens"])
            console.print(
                f"  {side['document_id'][:12]}{page}  {shorten(side['title'], 40)}  "
                f"[red]{shown(tokens)}[/]\n    {shorten(side['text'], 160)}"
            )
