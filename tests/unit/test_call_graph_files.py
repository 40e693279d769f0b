"""A place built on the caller's own copy of a source file resolves as one built on the
repository's (the repository keeps copies named inside it, ``shown_path``): a bare call
to a function of the same file was unresolved on the caller's copy, which cost the
call-graph benchmark a third of its callee recall."""

from __future__ import annotations

from askalong.context.code_graph import Repository
from askalong.context.code_places import Place, SourceFile
from askalong.parse.code.parser import parse

TEXT = "def helper():\n    return 1\n\n\ndef main():\n    return helper()\n"


def test_a_callers_own_copy_of_the_file_is_the_repositorys_file() -> None:
    own = SourceFile("d1", "/srv/repo/app.py", parse(TEXT.encode(), source="app.py").blocks)
    repository = Repository([own])
    assert repository.files[0] is not own and repository.files[0] == own
    main = next(b for b in own.blocks if b.section_path == ("main",))
    found = [".".join(t.qualname) for _, t in repository.callees(Place(own, main))]
    assert found == ["helper"]
    helper = next(b for b in own.blocks if b.section_path == ("helper",))
    callers = [".".join(c.qualname) for _, c in repository.callers(Place(own, helper))]
    assert callers == ["main"]
