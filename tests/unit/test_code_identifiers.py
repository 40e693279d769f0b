"""Definitions and references of a clicked identifier (``context/code_identifiers.py``)
over small Go, Java and Python files parsed by the real code parser."""

from __future__ import annotations

from askalong.context.code_graph import Repository
from askalong.context.code_identifiers import definitions, references
from askalong.context.code_places import Place, SourceFile
from askalong.parse.code.parser import parse

GO = """package server

const MaxConns = 64

type Server struct {
\tAddr    string
\tTimeout int
}

func (s *Server) Serve() int {
\t// Addr is where it listens
\treturn len(s.Addr) + MaxConns
}
"""
JAVA = """package app;

import java.util.List;

public class Pool {
    private static final int LIMIT = 8;
    private List<String> names;

    public int size() {
        return names.size() + LIMIT;
    }
}
"""


def repository(**files: str) -> Repository:
    return Repository(
        [SourceFile(n, n, parse(t.encode(), source=n).blocks) for n, t in files.items()]
    )


def clicked(repo: Repository, file: str, qualname: tuple[str, ...]) -> Place:
    source = next(f for f in repo.files if f.source == file)
    return Place(source, next(b for b in source.blocks if b.section_path == qualname))


def found(repo: Repository, name: str, at: Place) -> list[tuple[int, str]]:
    line = at.block.lines[0] if at.block.lines else 1
    return [(d.line, d.kind) for d in definitions(repo, name, at, line)]


def test_go_constants_and_struct_fields_are_definitions() -> None:
    repo = repository(**{"server.go": GO})
    serve = clicked(repo, "server.go", ("Server", "Serve"))
    assert found(repo, "MaxConns", serve) == [(3, "constant")]
    assert found(repo, "Addr", serve) == [(6, "field")]
    assert found(repo, "Server", serve) == [(5, "class")]
    # the comment line naming Addr is no reference
    assert [r.line for r in references(repo, "Addr")] == [6, 12]


def test_java_fields_and_imports_are_definitions() -> None:
    repo = repository(**{"Pool.java": JAVA})
    size = clicked(repo, "Pool.java", ("Pool", "size"))
    assert found(repo, "LIMIT", size) == [(6, "constant")]
    assert found(repo, "names", size) == [(7, "field")]
    assert found(repo, "List", size) == [(3, "import")]


def test_a_statement_naming_a_constant_declares_nothing() -> None:
    repo = repository(**{"app.py": "DEBUG = False\nif DEBUG:\n    print(DEBUG)\n"})
    top = Place(repo.files[0], repo.files[0].blocks[0])
    assert found(repo, "DEBUG", top) == [(1, "constant")]
    assert [r.line for r in references(repo, "DEBUG")] == [1, 2, 3]
