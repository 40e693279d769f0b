"""Every collected test runs and is reported once, serially or under pytest-xdist.

Why: pytest 9.2 builds an item's id from its ``originalname``, and schemathesis gives all
of a ``schema.parametrize()`` test's cases (one per API operation) that bare name, so the
fuzz test's 47 cases shared one id. pytest-xdist's ``--dist loadfile`` schedules by id and
ran only the first, reporting "2,964 passed" of 3,010 with no error. A later two-worker run
reported 2,967 of 3,016 and a check that only compared two counts let it pass, so the
ledger below keeps ids, not counts.

- ``pytest_collection_modifyitems``: an item's id is its parent's id and its own name
  again (the cases become ``…[GET /api/documents]``); an id still shared fails collection.
- ``TestLedger`` (the controller, or the one process of a serial run): the ids each worker
  collected, which must agree, and the ids that reported an outcome. A run that was not
  stopped early fails when a collected id has no outcome, naming every such id.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Generator

import pytest
from _pytest.nodeid import NodeId

# Enough ids to see the pattern (a file, a parameter) without burying the summary.
SHOWN_IDS = 60


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


def has_outcome(report: pytest.TestReport) -> bool:
    """A test's outcome: its call, or the setup that failed or skipped it (xdist's report
    of a crashed worker's test says ``???``); a teardown error comes on top of one."""
    return report.when == "call" or (report.when != "teardown" and not report.passed)


def listed(title: str, ids: list[str]) -> list[str]:
    """A heading and the ids under it; nothing when there are none."""
    if not ids:
        return []
    shown = [f"  {nodeid}" for nodeid in ids[:SHOWN_IDS]]
    more = [f"  … and {len(ids) - SHOWN_IDS} more"] if len(ids) > SHOWN_IDS else []
    return [f"{title}: {len(ids)}", *shown, *more]


def disagreements(collections: dict[str, list[str]]) -> list[str]:
    """Each worker's collection against the first one's (xdist needs the same list)."""
    (first, ids), *others = collections.items()
    lines: list[str] = []
    for worker, theirs in others:
        only_first, only_theirs = sorted(set(ids) - set(theirs)), sorted(set(theirs) - set(ids))
        lines += listed(f"collected by {first}, not by {worker}", only_first)
        lines += listed(f"collected by {worker}, not by {first}", only_theirs)
        if theirs != ids and not only_first and not only_theirs:
            lines.append(f"{worker} collected the ids of {first} in another order")
    return lines


class TestLedger:
    """The ids collected (per worker) and the ids that reported an outcome."""

    __test__ = False  # a plugin, not a test class

    def __init__(self) -> None:
        self.collections: dict[str, list[str]] = {}
        self.reported: set[str] = set()
        self.ran = False
        self.problems: list[str] = []

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.collections["this process"] = [item.nodeid for item in session.items]

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: object, ids: list[str]) -> None:
        # The controller collects nothing itself; a replaced worker collects again.
        self.collections[getattr(node, "gateway").id] = list(ids)  # noqa: B009

    @pytest.hookimpl(wrapper=True)
    def pytest_runtestloop(self, session: pytest.Session) -> Generator[None, object, object]:
        self.ran = not session.config.option.collectonly
        return (yield)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if has_outcome(report):
            self.reported.add(report.nodeid)

    def audit(self) -> list[str]:
        """The workers' disagreements, the collected ids without an outcome, and the
        outcomes of ids never collected."""
        collected = {nodeid for ids in self.collections.values() for nodeid in ids}
        return [
            *disagreements(self.collections),
            *listed("collected, no outcome", sorted(collected - self.reported)),
            *listed("an outcome, never collected", sorted(self.reported - collected)),
        ]

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        options = session.config.option
        if options.setuponly or options.setupplan or not self.ran or not self.collections:
            return
        if exitstatus not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
            return  # interrupted, or an internal or usage error: said already
        if session.shouldstop or session.shouldfail:
            return  # -x, --maxfail: the rest was left on purpose
        self.problems = self.audit()
        if self.problems:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if self.problems:
            terminalreporter.write_sep("=", "tests not accounted for", red=True)
            for line in self.problems:
                terminalreporter.write_line(line)


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput"):  # xdist's workers: the controller keeps the ledger
        config.pluginmanager.register(TestLedger(), "test-ledger")
