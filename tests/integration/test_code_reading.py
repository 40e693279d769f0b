"""Reading code on real source (issue 17): the standard library's asyncio locks and
thread pool, Debian's golang.org/x/sync semaphore, added as repositories with the CLI,
asked at lines with the real store, keyword index and tree-sitter."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from askalong.asking.code_reading import anchor_place, repository_of
from askalong.asking.evidence import Evidence, gather
from askalong.asking.question import Question, Reading, asked_question
from askalong.cli import main
from askalong.config import Settings
from askalong.context.call_tree import call_tree, walk
from askalong.context.line_anchor import line_anchor, line_ref
from askalong.library import opened_library
from askalong.types import Access, Document
from helpers.code_samples import copy_stdlib, go_sync


def run_json(*args: str) -> Any:
    result = CliRunner().invoke(main, [*args, "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def added(folder: Path) -> dict[str, Document]:
    """Add the folder; its documents by source path relative to the folder."""
    run_json("add", "--no-embed", str(folder))
    with opened_library() as library:
        documents = library.store.list_documents(Access.local())
    return {Path(d.source).relative_to(folder).as_posix(): d for d in documents}


def line_of(path: Path, text: str) -> int:
    """The 1-based line of ``path`` holding ``text`` first."""
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if text in line:
            return number
    raise AssertionError(f"{text!r} not in {path}")


def evidence_at(document: Document, at: str, question: str) -> Evidence:
    with opened_library() as library:
        blocks = library.store.blocks(document.id)
        anchor = line_anchor(document.id, blocks, line_ref(at))  # type: ignore[arg-type]
        reading = Reading(anchor, document, blocks)
        asked = asked_question(Question(question, anchor=anchor), (), reading)
        return gather(library, asked, Access.local(), blocks)


def sections(evidence: Evidence) -> list[tuple[str, ...]]:
    return [unit.section_path for unit in evidence.units]


@pytest.fixture
def asyncio_repo(settings: Settings, tmp_path: Path) -> tuple[Path, dict[str, Document]]:
    folder = copy_stdlib(tmp_path / "repo", "asyncio/locks.py", "asyncio/mixins.py")
    return folder, added(folder)


def test_inside_lock_acquire_the_context_holds_acquire_its_class_and_a_caller(
    asyncio_repo: tuple[Path, dict[str, Document]],
) -> None:
    folder, documents = asyncio_repo
    path = folder / "asyncio/locks.py"
    line = line_of(path, "await fut")  # inside Lock.acquire
    evidence = evidence_at(
        documents["asyncio/locks.py"],
        f"asyncio/locks.py:{line}-{line + 1}",
        "How does this guarantee mutual exclusion?",
    )
    anchor = evidence.units[0]
    assert anchor.origin == "anchor" and anchor.section_path == ("Lock", "acquire")
    assert anchor.text.lstrip().startswith("async def acquire(self):")
    assert "return True" in anchor.text.rsplit("\n", 3)[-1]  # the whole function
    found = sections(evidence)
    assert ("Lock",) in found
    header = evidence.units[found.index(("Lock",))]
    assert header.text.startswith("class Lock(") and "def release" not in header.text
    users = {
        ("_ContextManagerMixin", "__aenter__"),
        ("Lock", "release"),
        ("Lock", "_wake_up_first"),
    }
    assert users & set(found[1:]), found


def test_inside_weighted_release_the_context_holds_the_struct_and_notify_waiters(
    settings: Settings, tmp_path: Path
) -> None:
    sync = go_sync(tmp_path / "go")
    folder = tmp_path / "sync"
    for package in ("semaphore", "errgroup", "singleflight"):
        (folder / package).mkdir(parents=True)
        for source in (sync / package).glob("*.go"):
            (folder / package / source.name).write_bytes(source.read_bytes())
    documents = added(folder)
    path = folder / "semaphore/semaphore.go"
    line = line_of(path, 'panic("semaphore: released more than held")')
    evidence = evidence_at(
        documents["semaphore/semaphore.go"], f"semaphore/semaphore.go:{line}", "Why panic?"
    )
    found = sections(evidence)
    assert found[0] == ("Weighted", "Release")
    assert ("Weighted",) in found
    assert "type Weighted struct" in evidence.units[found.index(("Weighted",))].text
    assert ("Weighted", "notifyWaiters") in found
    callee = evidence.units[found.index(("Weighted", "notifyWaiters"))]
    assert "func (s *Weighted) notifyWaiters()" in callee.text


def test_the_call_tree_from_submit_reaches_adjust_thread_count_and_worker(
    settings: Settings, tmp_path: Path
) -> None:
    folder = copy_stdlib(tmp_path / "repo", "concurrent/futures", "threading.py")
    documents = added(folder)
    thread = documents["concurrent/futures/thread.py"]
    line = line_of(folder / "concurrent/futures/thread.py", "def submit(")
    with opened_library() as library:
        blocks = library.store.blocks(thread.id)
        anchor = line_anchor(thread.id, blocks, line_ref(f"thread.py:{line}"))  # type: ignore[arg-type]
        block = next(b for b in blocks if b.id == anchor.block_id)
        repository = repository_of(library.store, thread, blocks, Access.local())
        tree = call_tree(repository, anchor_place(repository, thread, block))
    names = [node.place.qualname for node in walk(tree)]
    assert names[0] == ("ThreadPoolExecutor", "submit")
    assert ("ThreadPoolExecutor", "_adjust_thread_count") in names
    assert ("_worker",) in names
    worker = next(n for n in walk(tree) if n.place.qualname == ("_worker",))
    assert worker.depth == 2 and worker.place.block.lines is not None


def test_calls_and_ask_at_file_lines_from_the_command_line(
    asyncio_repo: tuple[Path, dict[str, Document]],
) -> None:
    folder, documents = asyncio_repo
    line = line_of(folder / "asyncio/locks.py", "self._wake_up_first()")
    tree = run_json("calls", f"asyncio/locks.py:{line}")["tree"]
    assert tree[0]["name"] == "Lock.acquire"
    assert any(node["name"] == "Lock._wake_up_first" for node in tree)
    answer = run_json("ask", "--at", f"asyncio/locks.py:{line}", "What does this wake?")
    assert answer["anchor"]["document_id"] == documents["asyncio/locks.py"].id
    shown = run_json("show", documents["asyncio/locks.py"].id, "--symbols")["symbols"]
    acquire = next(s for s in shown if s["name"] == "Lock.acquire")
    assert acquire["lines"][0] <= line <= acquire["lines"][1]


def test_identical_files_are_kept_under_each_path_and_empty_ones_are_not_failures(
    settings: Settings, tmp_path: Path
) -> None:
    folder = tmp_path / "repo"
    helper = "def clamp(x):\n    return max(0, x)\n"
    for part in ("alpha", "beta"):
        (folder / part).mkdir(parents=True)
        (folder / part / "__init__.py").write_text("")
        (folder / part / "util.py").write_text(helper)
    (folder / "pyproject.toml").write_text('[project]\nname = "repo"\n')
    report = run_json("add", "--no-embed", str(folder))
    assert report["skipped"] == {"empty": 2}
    assert (report["added"], report["failed"]) == (3, 0)
    documents = added(folder)
    assert sorted(documents) == ["alpha/util.py", "beta/util.py", "pyproject.toml"]
    assert documents["alpha/util.py"].id != documents["beta/util.py"].id
    for part in ("alpha", "beta"):
        tree = run_json("calls", f"{part}/util.py:2")["tree"]
        assert tree[0]["document_id"] == documents[f"{part}/util.py"].id
    again = run_json("add", "--no-embed", str(folder))
    assert (again["added"], again["existing"]) == (0, 3)
