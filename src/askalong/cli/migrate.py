"""The migrate command: move this embedded home into server mode (``askalong.moving``)."""

from __future__ import annotations

import click

from askalong.cli.output import console, err_console, print_json
from askalong.config import Settings, load_settings
from askalong.errors import ConfigError, StoreError
from askalong.files.choose import open_originals
from askalong.index.vector_route import VectorIndexRoute
from askalong.library import Library
from askalong.moving.move import move_home
from askalong.moving.targets import PostgresRows
from askalong.moving.vectors import copy_vectors
from askalong.moving.verify import MoveReport
from askalong.store.backends import open_store


@click.command()
@click.option("--to", "to", required=True, help="The PostgreSQL database: postgresql://…")
@click.option(
    "--files",
    default=None,
    help="Where the originals go: s3://bucket/prefix (default: they stay in ASKALONG_HOME).",
)
@click.option(
    "--batch",
    type=click.IntRange(1, 100_000),
    default=500,
    show_default=True,
    help="Rows copied per transaction.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the counts as JSON.")
def migrate(to: str, files: str | None, batch: int, as_json: bool) -> None:
    """Copy this ASKALONG_HOME into server mode (documents, chunks, vectors, accounts,
    threads, feedback, jobs) and compare the counts; run it again after a crash to finish,
    or after it finished to change nothing. Stop the server and workers first."""
    if not to.startswith(("postgresql://", "postgres://")):
        raise ConfigError(f"--to {to!r}: must be a postgresql:// URL")
    home = load_settings()
    target = load_settings(database_url=to, files=files if files is not None else home.files)
    report = _moved(home, target, files is not None, batch)
    if as_json:
        print_json({"verified": report.verified, "counts": [vars(c) for c in report.counts]})
    else:
        for counted in report.counts:
            mark = "" if counted.equal else "  differs"
            console.print(f"{counted.what:<28} {counted.source:>9,} {counted.target:>9,}{mark}")
    if not report.verified:
        names = ", ".join(c.what for c in report.differing)
        raise StoreError(f"the counts differ for {names}: run the command again", source=to)
    err_console.print(f"moved and verified: set ASKALONG_DATABASE_URL={to} to use it")


def _moved(home: Settings, target: Settings, move_files: bool, batch: int) -> MoveReport:
    """Rows (and originals) first, into the target's schema as its store makes it; only a
    verified copy is opened as a library, whose search routes then index what it holds
    and take the home's vectors (a library over a partial copy would drop from shared
    local indexes the documents it lacks)."""
    open_store(target).close()
    rows = PostgresRows.open(target.database_url)
    try:
        files = open_originals(target) if move_files else None
        report = move_home(
            home.database_path, open_originals(home), rows, files, batch=batch, progress=_told
        )
    finally:
        rows.close()
    if not report.verified:
        return report
    with Library(home) as source, Library(target) as moved:
        have, into = source.indexes.vectors, moved.indexes.vectors
        if not isinstance(have, VectorIndexRoute) or into is None:  # embeddings off
            return report
        return MoveReport((*report.counts, copy_vectors(have.index, into, _told)))


def _told(what: str, done: int, total: int) -> None:
    if done == total:
        err_console.print(f"[dim]{what}: {total:,}[/]")
