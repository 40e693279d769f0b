"""Every collected test runs and is reported once, serially or under pytest-xdist.

Why: pytest 9.2 builds an item's id from its ``originalname``, and schemathesis gives all
of a ``schema.parametrize()`` test's cases (one per API operation) that bare name, so the
fuzz test's 47 cases shared one id. pytest-xdist's ``--dist loadfile`` schedules by id and
ran only the first, reporting "2,964 passed" of 3,010 with no error.

- ``pytest_collection_modifyitems``: an item's id is its parent's id and its own name
  again (the cases become ``…[GET /api/documents]``); an id still shared fails collection.
- At the end of a run that otherwise passed, the tests with an outcome (passed, failed,
  skipped, errored) must number the tests collected, else the run fails naming the gap.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Generator

import pytest
from _pytest.nodeid import NodeId


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        named = f"{item.parent.nodeid}::{item.name}" if item.parent else item.nodeid
        if item.nodeid != named:
            # No public setter: the id pytest itself would give an item of this name.
            item._id = NodeId.parse(named)  # type: ignore[attr-defined]
    shared = [nodeid for nodeid, count in Counter(i.nodeid for i in items).items() if count > 1]
    if shared:
        raise pytest.UsageError(f"{len(shared)} test ids name more than one test: {shared[:5]}")


class ReportedTests:
    """Counts the tests collected and the tests that reported an outcome."""

    def __init__(self) -> None:
        self.collected: int | None = None
        self.reported = 0
        self.ran = False
        self.gap = ""

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.collected = len(session.items)

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: object, ids: list[str]) -> None:
        self.collected = len(ids)  # the controller collects nothing itself

    @pytest.hookimpl(wrapper=True)
    def pytest_runtestloop(self, session: pytest.Session) -> Generator[None, object, object]:
        self.ran = not session.config.option.collectonly
        return (yield)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        # One outcome a test: its call, or the setup that failed or skipped it (xdist's
        # report of a crashed worker's test says "???"); a teardown error is extra.
        if report.when == "call" or (report.when != "teardown" and not report.passed):
            self.reported += 1

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        options = session.config.option
        if options.setuponly or options.setupplan or not self.ran or self.collected is None:
            return
        if exitstatus == pytest.ExitCode.OK and self.reported != self.collected:
            self.gap = f"{self.collected} tests collected, {self.reported} reported an outcome"
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if self.gap:
            terminalreporter.write_sep("=", "tests not accounted for", red=True)
            terminalreporter.write_line(self.gap)


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput"):  # xdist's workers: the controller counts
        config.pluginmanager.register(ReportedTests(), "reported-tests")
