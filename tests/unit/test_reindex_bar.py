"""The bar drawn while opening a library rebuilds its keyword index (issue 28: a schema
migration re-indexes every document from the store): drawn from the first report, stopped
at the last, never drawn when nothing is rebuilt."""

from __future__ import annotations

import pytest

from askalong.cli import progress


class Recorded:
    """A stand-in for rich's bar: what the ``ReindexBar`` asked of it."""

    def __init__(self) -> None:
        self.calls: list[tuple] = []

    def start(self) -> None:
        self.calls.append(("start",))

    def add_task(self, description: str, total: int) -> int:
        self.calls.append(("task", description, total))
        return 7

    def update(self, task: int, completed: int) -> None:
        self.calls.append(("update", task, completed))

    def stop(self) -> None:
        self.calls.append(("stop",))


def test_the_bar_starts_at_the_first_report_and_stops_at_the_last(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made: list[Recorded] = []
    monkeypatch.setattr(progress, "progress_bar", lambda: made.append(Recorded()) or made[-1])
    bar = progress.ReindexBar()
    for done in (0, 500, 1200):
        bar(done, 1200)
    (recorded,) = made
    assert recorded.calls == [
        ("start",),
        ("task", "Rebuilding the keyword index", 1200),
        ("update", 7, 0),
        ("update", 7, 500),
        ("update", 7, 1200),
        ("stop",),
    ]


def test_no_report_no_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[Recorded] = []
    monkeypatch.setattr(progress, "progress_bar", lambda: made.append(Recorded()) or made[-1])
    progress.ReindexBar()
    assert made == []
