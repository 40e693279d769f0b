"""Functions nested in functions are symbols (issue 27): Python ``def`` inside ``def``, a
JavaScript inner function or arrow ``const``, a Go func literal given a name. Each is a
block of its own (outline, go-to-definition, the symbol index), the function around it
keeps its calls and locals across the blocks it is split into, and the call graph binds a
bare name to the nested definition in scope, never to a closure's parameter."""

from __future__ import annotations

from askalong.context.code_graph import Repository
from askalong.context.code_identifiers import definitions
from askalong.context.code_places import Place, SourceFile
from askalong.parse.code.parser import parse
from askalong.wire.code import symbols_json

PYTHON = """def outer(request, items):
    total = 0

    # the closure reads request, the outer function's parameter
    def inner(x):
        return helper(x) + request(x)

    for item in items:
        total += inner(item)
    return finish(total)


def helper(x):
    return x


def finish(t):
    return t


def request(x):
    return x
"""
JAVASCRIPT = """function outer(items) {
  function inner(x) {
    return helper(x);
  }
  const twice = (x) => inner(inner(x));
  return items.map(twice);
}

function helper(x) { return x; }
"""
GO = """package p

type Server struct{}

func (s *Server) Serve(n int) int {
\thandle := func(x int) int {
\t\treturn helper(x)
\t}
\tvar done = func() { cleanup() }
\tdone()
\treturn handle(n)
}

func helper(x int) int { return x }

func cleanup() {}
"""


def repository(name: str, text: str) -> Repository:
    return Repository([SourceFile(name, name, parse(text.encode(), source=name).blocks)])


def place(repo: Repository, qualname: tuple[str, ...]) -> Place:
    (found,) = [p for p in repo.defined[qualname[-1]] if p.qualname == qualname]
    return found


def callees(repo: Repository, qualname: tuple[str, ...]) -> list[str]:
    return [".".join(t.qualname) for _, t in repo.callees(place(repo, qualname))]


def callers(repo: Repository, qualname: tuple[str, ...]) -> list[str]:
    return [".".join(c.qualname) for _, c in repo.callers(place(repo, qualname))]


def test_a_python_function_nested_in_a_function_is_a_block_and_a_symbol() -> None:
    blocks = parse(PYTHON.encode(), source="n.py").blocks
    assert [(b.section_path, b.lines) for b in blocks[:3]] == [
        (("outer",), (1, 2)),
        (("outer", "inner"), (4, 6)),  # with its comment
        (("outer",), (8, 10)),  # the outer function's lines after it
    ]
    names = [s["name"] for s in symbols_json(blocks)]
    assert names == ["outer", "outer.inner", "helper", "finish", "request"]


def test_python_calls_go_to_and_from_the_nested_function_a_closure_parameter_to_none() -> None:
    repo = repository("n.py", PYTHON)
    assert callees(repo, ("outer",)) == ["outer.inner", "finish"]  # calls after inner count
    assert callees(repo, ("outer", "inner")) == ["helper"]  # request is outer's parameter
    assert callers(repo, ("outer", "inner")) == ["outer"]
    assert callers(repo, ("helper",)) == ["outer.inner"]
    assert callers(repo, ("request",)) == []
    assert len(repo.defined["outer"]) == 1  # a split function is one definition


def test_go_to_definition_lands_on_the_nested_function() -> None:
    repo = repository("n.py", PYTHON)
    tail = next(b for b in repo.files[0].blocks if b.section_path == ("outer",) and b.order > 0)
    found = definitions(repo, "inner", Place(repo.files[0], tail), 9)
    assert [(d.line, d.kind) for d in found] == [(5, "function")]


def test_javascript_inner_functions_and_arrow_consts_are_symbols() -> None:
    repo = repository("j.js", JAVASCRIPT)
    assert callees(repo, ("outer",)) == ["outer.twice"]  # passed to map by name
    assert callees(repo, ("outer", "twice")) == ["outer.inner"]
    assert callees(repo, ("outer", "inner")) == ["helper"]
    assert callers(repo, ("outer", "inner")) == ["outer.twice"]


def test_go_func_literals_given_a_name_are_symbols_of_their_method() -> None:
    repo = repository("s.go", GO)
    paths = [b.section_path for b in repo.files[0].blocks]
    assert ("Server", "Serve", "handle") in paths and ("Server", "Serve", "done") in paths
    assert callees(repo, ("Server", "Serve")) == ["Server.Serve.done", "Server.Serve.handle"]
    assert callees(repo, ("Server", "Serve", "handle")) == ["helper"]
    assert callers(repo, ("cleanup",)) == ["Server.Serve.done"]


JAVA = """package p;

class Sorter {
    void sort(java.util.List<String> names) {
        names.sort(new java.util.Comparator<String>() {
            public int compare(String a, String b) { return a.length() - b.length(); }
        });
    }
}
"""


def test_a_java_anonymous_class_method_stays_in_its_method() -> None:
    blocks = parse(JAVA.encode(), source="Sorter.java").blocks
    assert [b.section_path for b in blocks if b.section_path] == [("Sorter",), ("Sorter", "sort")]
