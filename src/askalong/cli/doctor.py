"""``askalong doctor [--repair] [--json]``: do the store, the keyword index, the vectors
and the original files agree? The checks and repairs are ``maintain/``; this prints."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import click

from askalong.cli.output import console, err_console, print_json, shown
from askalong.cli.progress import progress_bar
from askalong.config import load_settings
from askalong.maintain.checks import Stored, examine, stored_documents
from askalong.maintain.parts import Parts
from askalong.maintain.repair import repair
from askalong.providers.choose import make_embedder
from askalong.types import Access
from askalong.values.findings import Finding, Repair
from askalong.wire import doctor_json


@click.command()
@click.option("--repair", "fix", is_flag=True, help="Fix what can be fixed, then check again.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (see README, Doctor).")
def doctor(fix: bool, as_json: bool) -> None:
    """Check that the store, the keyword index, the vectors and the files agree.

    Finds documents missing from an index, index entries and vectors of removed documents,
    vectors of other text than a document's chunks, dead vector rows, originals no document
    refers to (or missing), stray temporary files and an unreadable keyword index. With
    --repair, fixes what it can. Exit status 0 when healthy, 1 when problems remain.
    """
    settings = load_settings()
    with Parts.open(settings, lambda: make_embedder(settings)) as parts:
        stored = _read(parts)
        found = examine(parts, stored)
        repaired: list[Repair] = []
        remaining = found
        if fix and any(f.repairable for f in found):
            with _bar("Repairing", sum(len(s.chunks) for s in stored)) as step:
                repaired = repair(parts, found, stored, step)
            stored = _read(parts)
            remaining = examine(parts, stored)
    if as_json:
        print_json(doctor_json(found, repaired, remaining))
    else:
        _print(found, repaired, remaining, fix)
    if remaining:
        raise SystemExit(1)


def _read(parts: Parts) -> list[Stored]:
    total = len(parts.store.list_documents(Access.local()))
    with _bar("Reading documents", total) as step:
        return list(stored_documents(parts, step))


@contextmanager
def _bar(description: str, total: int | None) -> Iterator[Callable[[int], None]]:
    with progress_bar() as progress:
        task = progress.add_task(description, total=total)
        yield lambda done: progress.update(task, completed=done)


def _print(
    found: list[Finding], repaired: list[Repair], remaining: list[Finding], fix: bool
) -> None:
    if not found:
        console.print("[green]healthy[/]: store, keyword index, vectors and files agree")
        return
    shown_findings = remaining if fix else found
    for r in repaired:
        console.print(f"[green]repaired[/] {r.kind:<18} {shown(r.subject)}  {shown(r.action)}")
    for f in shown_findings:
        mark = "[yellow]problem[/] " if f.repairable else "[red]problem[/] "
        console.print(f"{mark} {f.kind:<18} {shown(f.subject)}  [dim]{shown(f.detail)}[/]")
    if not remaining:
        console.print("[green]healthy[/] after repair")
    elif not fix and any(f.repairable for f in remaining):
        err_console.print("run [bold]askalong doctor --repair[/] to fix what can be fixed")
