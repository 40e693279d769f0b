"""Rich progress bars on stderr for anything a person waits on."""

from __future__ import annotations

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from askalong.cli.output import err_console


def progress_bar() -> Progress:
    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err_console,
        transient=True,
    )


class ReindexBar:
    """A bar for opening a library whose keyword index is rebuilt from the store (after an
    upgrade: ``index/reindex.py``), started at the first report: never drawn otherwise."""

    def __init__(self) -> None:
        self._bar: Progress | None = None
        self._task: TaskID | None = None

    def __call__(self, done: int, total: int) -> None:
        if self._bar is None:
            self._bar = progress_bar()
            self._bar.start()
            self._task = self._bar.add_task("Rebuilding the keyword index", total=total)
        if self._task is not None:
            self._bar.update(self._task, completed=done)
        if done >= total:
            self._bar.stop()
