"""The suite's own guard (``tests/helpers/accounted_tests.py``): every collected test has
its own id and reports an outcome, run serially or by pytest-xdist's two workers."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

HELPERS = Path(__file__).resolve().parents[1] / "helpers"

# Items made the way schemathesis makes one per API operation: a name with the operation in
# brackets and the bare function name as ``originalname``, from which pytest 9.2 builds the id.
CASES_CONFTEST = """
import pytest

def pytest_pycollect_makeitem(collector, name, obj):
    if name == "test_operation":
        return [
            pytest.Function.from_parent(
                collector, name=f"{name}[{label}]", originalname=name, callobj=obj
            )
            for label in ("GET /a", "POST /a", "GET /b")
        ]
"""

# A plugin that runs one test and reports nothing, as xdist did with the shared ids.
DROPPING_CONFTEST = """
import pytest

@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item, nextitem):
    return True if item.name == "test_dropped" else None
"""

# A worker that dies in a test: the process ends, no report, no clean-up.
EXITING_TESTS = """
import os

def test_before():
    pass

def test_exits():
    os._exit(0)

def test_after():
    pass
"""

# Parameter ids that differ by worker, as ids built from a set's order or the clock do.
WORKER_IDS_TESTS = """
import os
import pytest

@pytest.mark.parametrize("n", [1], ids=[os.environ.get("PYTEST_XDIST_WORKER", "main")])
def test_each(n):
    pass
"""

# A test of subtests reports more than once: a count of reports made up for a dropped test.
SUBTESTS = """
def test_parts(subtests):
    with subtests.test("first part"):
        pass
"""

TESTS = """
import pytest

def test_kept():
    pass

def test_dropped():
    pass

@pytest.mark.skip(reason="not here")
def test_skipped():
    pass

@pytest.mark.xfail(reason="known")
def test_known_failure():
    assert False
"""


@pytest.fixture
def inner(pytester: pytest.Pytester) -> pytest.Pytester:
    """A pytest project of its own, run in this process, that loads the guard by name."""
    return pytester


def run(inner: pytest.Pytester, *args: str) -> pytest.RunResult:
    return inner.runpytest_inprocess("-p", "accounted_tests", "-p", "no:cacheprovider", *args)


def run_two_workers(
    inner: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, *more: str
) -> pytest.RunResult:
    """A new process (xdist's workers are others): only the guard and xdist loaded."""
    path = os.pathsep.join(filter(None, [str(HELPERS), os.environ.get("PYTHONPATH")]))
    monkeypatch.setenv("PYTHONPATH", path)
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    args = ("-p", "accounted_tests", "-p", "xdist.plugin", "-n", "2", "--dist", "loadfile")
    return inner.runpytest_subprocess(*args, *more)


def test_cases_sharing_a_function_name_get_ids_of_their_own(inner: pytest.Pytester) -> None:
    inner.makeconftest(CASES_CONFTEST)
    inner.makepyfile(test_api="def test_operation():\n    pass\n")
    listed = run(inner, "--collect-only", "-q").stdout.lines
    assert [line for line in listed if "::" in line] == [
        "test_api.py::test_operation[GET /a]",
        "test_api.py::test_operation[POST /a]",
        "test_api.py::test_operation[GET /b]",
    ]


@pytest.mark.slow  # three new Python processes (~5 s of CPU): make test runs it, make check not
def test_two_workers_by_file_run_every_case(
    inner: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    inner.makeconftest(CASES_CONFTEST)
    inner.makepyfile(test_api="def test_operation():\n    pass\n", test_other="def test_x(): pass")
    result = run_two_workers(inner, monkeypatch)
    result.assert_outcomes(passed=4)
    assert result.ret == pytest.ExitCode.OK


def test_an_id_naming_two_tests_fails_collection(inner: pytest.Pytester) -> None:
    inner.makeconftest(CASES_CONFTEST.replace('f"{name}[{label}]"', "name"))
    inner.makepyfile(test_api="def test_operation():\n    pass\n")
    result = run(inner)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*1 test ids name more than one test*test_operation*"])


def test_a_test_without_an_outcome_fails_the_run(inner: pytest.Pytester) -> None:
    inner.makeconftest(DROPPING_CONFTEST)
    inner.makepyfile(test_some=TESTS)
    result = run(inner)
    result.assert_outcomes(passed=1, skipped=1, xfailed=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        ["*tests not accounted for*", "collected, no outcome: 1", "  test_some.py::test_dropped"]
    )


def test_a_dropped_test_is_named_though_another_reported_twice(inner: pytest.Pytester) -> None:
    inner.makeconftest(DROPPING_CONFTEST)
    inner.makepyfile(test_some=TESTS, test_parts=SUBTESTS)
    result = run(inner)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["collected, no outcome: 1", "  test_some.py::test_dropped"])


@pytest.mark.slow  # a controller and two workers: new Python processes (~5 s of CPU)
def test_a_test_two_workers_drop_fails_the_run(
    inner: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    inner.makeconftest(DROPPING_CONFTEST)
    inner.makepyfile(test_some=TESTS)
    result = run_two_workers(inner, monkeypatch)
    result.assert_outcomes(passed=1, skipped=1, xfailed=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["collected, no outcome: 1", "  test_some.py::test_dropped"])


@pytest.mark.slow  # a controller and two workers, one of them replaced
def test_a_worker_that_exits_in_a_test_fails_the_run_naming_what_never_ran(
    inner: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    # --dist loadfile hands the crashed test back with its file to the next worker, which
    # dies on it too, until the restarts run out: the file's later tests never run.
    inner.makepyfile(test_exiting=EXITING_TESTS)
    result = run_two_workers(inner, monkeypatch, "--max-worker-restart=1")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        [
            "*crashed while running 'test_exiting.py::test_exits'*",
            "*tests not accounted for*",
            "collected, no outcome: 1",
            "  test_exiting.py::test_after",
        ]
    )


@pytest.mark.slow  # a controller and two workers
def test_ids_that_differ_between_workers_fail_the_run_naming_them(
    inner: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    inner.makepyfile(test_ids=WORKER_IDS_TESTS)
    result = run_two_workers(inner, monkeypatch)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        [
            "*tests not accounted for*",
            "collected by gw?, not by gw?: 1",
            "  test_ids.py::test_each?gw??",
        ]
    )


def test_skips_and_expected_failures_are_accounted_for(inner: pytest.Pytester) -> None:
    inner.makepyfile(test_some=TESTS)
    result = run(inner)
    result.assert_outcomes(passed=2, skipped=1, xfailed=1)
    assert result.ret == pytest.ExitCode.OK


def test_listing_or_planning_runs_nothing_and_passes(inner: pytest.Pytester) -> None:
    inner.makepyfile(test_some=TESTS)
    for option in ("--collect-only", "--setup-plan", "--setup-only"):
        assert run(inner, option).ret == pytest.ExitCode.OK, option
