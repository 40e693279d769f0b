"""Java calls resolved as the compiler does (issue 27, ``benchmarks/call_graph_java.py``):
a bare call is a method of the caller's class, a class it derives from, or a class around
it; a field a base class declares types its receiver; a name from one of several
``import static ...*`` is looked up in each; a variable passed as an argument is never a
call; a doc comment's words are no bases or types."""

from __future__ import annotations

from askalong.context.code_graph import Repository
from askalong.context.code_places import Place, SourceFile
from askalong.parse.code.parser import parse

SYNC = """package locks;

/**
 * This class implements a lock.
 */
public abstract class Sync {
    protected Inflater inf;

    protected final int getState() { return 0; }

    final void release() {}

    class ConditionObject {
        void await() {
            release();
            int state = getState();
        }
    }
}
"""
FAIR = """package locks;

/** The fair one; implements a queue. */
final class FairSync extends Sync {
    boolean tryAcquire(int state) {
        int c = getState();
        inf.reset();
        check(state);
        return CENNAM(c) > 0;
    }

    void check(int value) {}
}
"""
INFLATER = """package locks;

class Inflater {
    void reset() {}
}
"""
UTILS = """package locks;

import static locks.Constants.*;
import static locks.Utils.*;

class Utils {
    static int CENNAM(int c) { return c; }

    static int state() { return 0; }
}

class Constants {
    static final int LOCSIG = 1;
}
"""
USER = """package locks;

import static locks.Constants.*;
import static locks.Utils.*;

class User {
    int read(int state) {
        work(state);
        return CENNAM(state);
    }

    void work(int n) {}
}
"""


def repository() -> Repository:
    files = {
        "Sync.java": SYNC,
        "FairSync.java": FAIR,
        "Inflater.java": INFLATER,
        "Utils.java": UTILS,
        "User.java": USER,
    }
    return Repository(
        [SourceFile(n, n, parse(t.encode(), source=n).blocks) for n, t in files.items()]
    )


def callees(repo: Repository, file: str, qualname: tuple[str, ...]) -> list[str]:
    source = next(f for f in repo.files if f.source == file)
    block = next(b for b in source.blocks if b.section_path == qualname)
    return [".".join(t.qualname) for _, t in repo.callees(Place(source, block))]


def test_an_inner_class_calls_its_outer_class_methods_by_bare_name() -> None:
    assert callees(repository(), "Sync.java", ("Sync", "ConditionObject", "await")) == [
        "Sync.release",
        "Sync.getState",
    ]


def test_inherited_methods_and_a_base_class_field_resolve_a_variable_passed_never() -> None:
    found = callees(repository(), "FairSync.java", ("FairSync", "tryAcquire"))
    # CENNAM is Utils' but this file imports nothing static: unresolved, not guessed
    assert found == ["Sync.getState", "Inflater.reset", "FairSync.check"]


def test_a_name_is_looked_up_in_each_static_wildcard_import() -> None:
    assert callees(repository(), "User.java", ("User", "read")) == ["User.work", "Utils.CENNAM"]


def test_a_doc_comment_names_no_base_class() -> None:
    repo = repository()
    fair = next(p for p in repo.defined["FairSync"])
    assert repo.bases(fair.qualname, fair.file) == frozenset({"Sync"})
    sync = next(p for p in repo.defined["Sync"])
    assert repo.bases(sync.qualname, sync.file) == frozenset()
