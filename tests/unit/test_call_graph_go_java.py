"""The call graph through a Go struct's embedded types and Java's static imports (issue
27): ``engine.GET()`` on an ``Engine`` embedding ``RouterGroup`` is ``RouterGroup.GET``;
``trim(a)`` under ``import static com.acme.util.Strings.trim;`` is ``Strings.trim`` in
another package, and a same-named method elsewhere is not taken; ``def.end()`` on a field
declared ``Deflater def;`` is ``Deflater.end``."""

from __future__ import annotations

from askalong.context.code_bases import go_embedded
from askalong.context.code_graph import Repository
from askalong.context.code_places import Place, SourceFile
from askalong.parse.code.parser import parse

GIN = """package gin

type RouterGroup struct {
\tbasePath string
}

func (group *RouterGroup) GET(path string) {
\tgroup.handle(path)
}

func (group *RouterGroup) handle(path string) {
}

type Engine struct {
\tRouterGroup
\t*sync.Mutex `json:"-"`
\ttrees int
}

func (engine *Engine) Run() {
\tengine.GET("/")
\tengine.handle("/x")
}

func Default() {
\tengine := &Engine{}
\tengine.GET("/ping")
}
"""
STRINGS = """package com.acme.util;

public class Strings {
    public static String trim(String s) { return s.strip(); }
}
"""
OTHER = """package com.acme.text;

public class Text {
    public static String trim(String s) { return s; }
}
"""
APP = """package com.acme.app;

import static com.acme.util.Strings.trim;

public class App {
    public String run(String s) {
        return trim(s);
    }
}
"""


def repository(**files: str) -> Repository:
    return Repository(
        [SourceFile(n, n, parse(t.encode(), source=n).blocks) for n, t in files.items()]
    )


def callees(repo: Repository, file: str, qualname: tuple[str, ...]) -> list[tuple[str, str]]:
    source = next(f for f in repo.files if f.source == file)
    block = next(b for b in source.blocks if b.section_path == qualname)
    found = repo.callees(Place(source, block))
    return [(".".join(target.qualname), target.file.source) for _, target in found]


def test_a_go_struct_has_the_methods_of_the_types_it_embeds() -> None:
    repo = repository(**{"gin/gin.go": GIN})
    assert callees(repo, "gin/gin.go", ("Engine", "Run")) == [
        ("RouterGroup.GET", "gin/gin.go"),
        ("RouterGroup.handle", "gin/gin.go"),
    ]
    assert callees(repo, "gin/gin.go", ("Default",)) == [("RouterGroup.GET", "gin/gin.go")]


def test_embedded_fields_are_types_alone_on_their_line() -> None:
    engine = GIN[GIN.index("type Engine") : GIN.index("func (engine")]
    assert go_embedded(engine) == {"RouterGroup", "Mutex"}
    assert go_embedded("type Point struct {\n\tX int\n\tY int\n}") == frozenset()


def test_a_java_static_import_binds_the_bare_name_to_its_class() -> None:
    repo = repository(
        **{"util/Strings.java": STRINGS, "text/Text.java": OTHER, "app/App.java": APP}
    )
    assert callees(repo, "app/App.java", ("App", "run")) == [("Strings.trim", "util/Strings.java")]


DEFLATER = """package z;

public class Deflater {
    public void end() {}
    public void finish() {}
}
"""
SINK = """package z;

public class Sink {
    protected final Deflater def;

    public Sink(Deflater given) {
        this.def = given;
    }

    public void close() {
        def.end();
        this.def.finish();
    }
}
"""


def test_a_call_on_a_java_field_goes_to_the_fields_declared_class() -> None:
    repo = repository(**{"z/Deflater.java": DEFLATER, "z/Sink.java": SINK})
    assert callees(repo, "z/Sink.java", ("Sink", "close")) == [
        ("Deflater.end", "z/Deflater.java"),
        ("Deflater.finish", "z/Deflater.java"),
    ]


def test_a_bare_go_call_is_never_a_method_of_the_receiver_s_type() -> None:
    source = (
        "package tabwriter\n\ntype Writer struct {\n\tbuf []byte\n}\n\n"
        "func (b *Writer) append(text []byte) {\n\tb.buf = append(b.buf, text...)\n}\n\n"
        "func (b *Writer) addLine() {\n\tb.buf = append(b.buf, 1)\n}\n\n"
        "func (b *Writer) flush() {\n\tb.append(nil)\n}\n"
    )
    repo = repository(**{"tabwriter/tabwriter.go": source})
    assert callees(repo, "tabwriter/tabwriter.go", ("Writer", "addLine")) == []  # builtin
    assert callees(repo, "tabwriter/tabwriter.go", ("Writer", "flush")) == [
        ("Writer.append", "tabwriter/tabwriter.go")
    ]


def test_a_go_parameter_of_an_unexported_type_types_its_calls() -> None:
    source = (
        "package parse\n\ntype lexer struct {\n\tpos int\n}\n\n"
        "func (l *lexer) emit() {\n}\n\n"
        "func lexChar(l *lexer) {\n\tl.emit()\n}\n\n"
        "func other(n int) {\n\treturn n\n}\n"
    )
    repo = repository(**{"parse/lex.go": source})
    assert callees(repo, "parse/lex.go", ("lexChar",)) == [("lexer.emit", "parse/lex.go")]


def test_a_field_of_a_go_receiver_types_its_calls() -> None:
    source = (
        "package parse\n\ntype Tree struct {\n\tname string\n}\n\n"
        "func (t *Tree) newAction() {\n}\n\n"
        "type ActionNode struct {\n\tPos\n\ttr *Tree\n}\n\n"  # an embedded type first
        "func (a *ActionNode) Copy() {\n\ta.tr.newAction()\n}\n"
    )
    repo = repository(**{"parse/node.go": source})
    assert callees(repo, "parse/node.go", ("ActionNode", "Copy")) == [
        ("Tree.newAction", "parse/node.go")
    ]


def test_a_go_conversion_is_no_call_of_the_type() -> None:
    source = (
        "package parse\n\ntype Pos int\n\n"
        "func (p Pos) Position() Pos {\n\treturn p\n}\n\n"
        "func next(n int) Pos {\n\treturn Pos(n)\n}\n"
    )
    repo = repository(**{"parse/node.go": source})
    assert callees(repo, "parse/node.go", ("next",)) == []


def test_a_go_variable_is_typed_by_its_constructor_s_result() -> None:
    source = (
        "package csv\n\ntype Reader struct {\n\tn int\n}\n\n"
        "func NewReader(n int) *Reader {\n\treturn &Reader{n: n}\n}\n\n"
        "func (r *Reader) ReadAll() int {\n\treturn r.n\n}\n\n"
        "func Fuzz(n int) int {\n\tr := NewReader(n)\n\treturn r.ReadAll()\n}\n"
    )
    repo = repository(**{"csv/reader.go": source})
    assert callees(repo, "csv/reader.go", ("Fuzz",)) == [
        ("NewReader", "csv/reader.go"),
        ("Reader.ReadAll", "csv/reader.go"),
    ]
