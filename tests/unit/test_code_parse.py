"""Source files -> blocks and chunks (issue 17): real standard-library files, and one
small file per grammar written here, each parsed by the real tree-sitter grammars."""

from __future__ import annotations

import pytest

from askalong.chunk.code import chunk_code
from askalong.context.line_anchor import LineRef, line_anchor, line_ref
from askalong.parse.code.languages import BASH
from askalong.parse.code.outline import code_outline
from askalong.parse.code.parser import parse
from askalong.parse.detect import detect_format
from askalong.text.size import size_units
from helpers.code_samples import STDLIB

SAMPLES = {
    "w.go": (
        "package p\n\n// W bounds.\ntype W struct {\n\tn int64\n}\n\n"
        "func (s *W) Release(n int64) {\n\ts.notify()\n}\n"
    ),
    "a.js": "import {b} from './b';\n\nexport class A {\n  m(x) {\n    return b(x);\n  }\n}\n",
    "a.ts": "interface I {\n  x: number;\n}\n\nclass A {\n  m(): void {\n    this.f();\n  }\n}\n",
    "A.java": "package p;\n\npublic class A {\n  int x;\n\n  void m() {\n    foo();\n  }\n}\n",
    "a.c": (
        "#include <stdio.h>\n\nstruct s {\n  int a;\n};\n"
        "\nstatic int f(int x) {\n  return g(x);\n}\n"
    ),
    "a.cpp": (
        "#include <x>\n\nclass A {\n  int x;\n public:\n  void m() { f(); }\n"
        "};\n\nvoid A::g() {\n  h();\n}\n"
    ),
    "a.rs": (
        "use std::io;\n\nstruct S {\n    a: i32,\n}\n\n"
        "impl S {\n    fn m(&self) -> i32 {\n        1\n    }\n}\n"
    ),
    "a.rb": (
        'require "json"\n\nclass Color\n  NAMES = {}\n\n  def self.build(hex)\n'
        "    new(hex)\n  end\nend\n"
    ),
    "a.lua": (
        "local M = {}\n\nlocal function helper(x)\n  return x\nend\n\n"
        "function M.parse(s)\n  return helper(s)\nend\n\nreturn M\n"
    ),
    "a.php": (
        "<?php\nuse App\\User;\n\nclass A\n{\n    private $x;\n\n"
        "    public static function build($x)\n    {\n        return new A($x);\n    }\n}\n"
    ),
    "a.kt": (
        "import kotlin.math.max\n\ndata class P(val x: Int) {\n    val y = 1\n\n"
        "    fun norm(): Int {\n        return max(x, 0)\n    }\n}\n"
    ),
    "a.pm": (
        "package A::B;\nuse strict;\n\nsub new {\n    return bless {}, shift;\n}\n\n"
        "sub A::C::m {\n    f(1);\n}\n\n1;\n__END__\n\n=head1 NAME\n\nA::B - no code\n"
    ),
}
EXPECTED = {
    "w.go": [(), ("W",), ("W", "Release")],
    "a.js": [(), ("A",), ("A", "m")],
    "a.ts": [("I",), ("A",), ("A", "m")],
    "A.java": [(), ("A",), ("A", "m")],
    "a.c": [(), ("s",), ("f",)],
    "a.cpp": [(), ("A",), ("A", "m"), ("A", "g")],
    "a.rs": [(), ("S",), ("S",), ("S", "m")],
    "a.rb": [(), ("Color",), ("Color", "build"), ("Color",)],
    "a.lua": [(), ("helper",), ("M", "parse"), ()],
    "a.php": [(), ("A",), ("A", "build")],
    "a.kt": [(), ("P",), ("P", "norm")],
    "a.pm": [("A::B",), ("A::B", "new"), ("A::C", "m"), ("A::B",), ()],  # __END__: no package's
}


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_each_grammar_gives_blocks_named_by_their_qualified_names(name: str) -> None:
    parsed = parse(SAMPLES[name].encode(), source=f"repo/{name}")
    assert parsed.format == "code" and parsed.title == name
    assert [b.section_path for b in parsed.blocks] == EXPECTED[name]
    lines = SAMPLES[name].split("\n")
    for block in parsed.blocks:  # a block is its source lines exactly
        assert block.lines is not None
        assert block.text == "\n".join(lines[block.lines[0] - 1 : block.lines[1]])


def test_a_stdlib_class_is_a_header_then_its_methods() -> None:
    parsed = parse((STDLIB / "asyncio/locks.py").read_bytes(), source="asyncio/locks.py")
    paths = [b.section_path for b in parsed.blocks]
    lock = paths.index(("Lock",))
    assert paths[lock + 1 : lock + 3] == [("Lock", "__init__"), ("Lock", "__repr__")]
    header = parsed.blocks[lock].text
    assert header.startswith("class Lock(") and "def " not in header
    acquire = parsed.blocks[paths.index(("Lock", "acquire"))]
    assert acquire.text.lstrip().startswith("async def acquire(self):")


def test_a_file_without_a_grammar_goes_in_as_line_blocks() -> None:
    script = "".join(f"echo line {n}\n" for n in range(1, 101))
    parsed = parse(script.encode(), source="tools/run.sh")
    assert parsed.format == "code"
    assert [b.lines for b in parsed.blocks] == [(1, 40), (41, 80), (81, 100)]


BROKEN = {  # a syntax error above a definition: tree-sitter reads on past it
    "b.rb": ("class A\n  def m(\nend\n\ndef ok(x)\n  x\nend\n", ("ok",)),
    "b.lua": ("local x = = 1\n\nfunction ok(x)\n  return x\nend\n", ("ok",)),
    "b.php": ("<?php\nclass {\n\nfunction ok($x) {\n  return $x;\n}\n", ("ok",)),
    "b.kt": ("class A {\n  fun m( {\n}\n\nfun ok(x: Int) = x\n", ("ok",)),
    "b.pl": ("my $x = ;\n\nsub ok {\n  return shift;\n}\n", ("ok",)),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_a_file_with_a_syntax_error_still_gives_its_definitions(name: str) -> None:
    source, expected = BROKEN[name]
    parsed = parse(source.encode(), source=f"repo/{name}")
    assert expected in [b.section_path for b in parsed.blocks]
    assert "\n".join(b.text for b in parsed.blocks).split() == source.split()


def test_a_perl_forward_declaration_takes_no_body() -> None:
    # tree-sitter's Perl reads ``sub f($);`` as a sub whose body is the next block
    source = "sub escape($);\n\nSCOPE: {\n    my $x = 1;\n}\n\nsub escape($) { 1 }\n"
    parsed = parse(source.encode(), source="t/escape.pm")
    assert [(b.section_path, b.lines) for b in parsed.blocks] == [
        ((), (1, 5)),
        (("escape",), (7, 7)),
    ]


def test_a_ruby_script_is_told_by_its_shebang() -> None:
    parsed = parse(b"#!/usr/bin/env ruby\ndef run\n  1\nend\n", source="bin/tool")
    assert [b.section_path for b in parsed.blocks] == [("run",)]  # the #! line its comment


def test_the_shell_grammar_reads_functions_commands_and_sources() -> None:
    script = b'. ./lib.sh\n\nbuild() {\n  helper "$1" | grep x\n}\n\nfunction helper {\n  :\n}\n'
    outline = code_outline(script, BASH)
    assert [(s.qualname, s.lines) for s in outline.symbols] == [
        (("build",), (3, 5)),
        (("helper",), (7, 9)),
    ]
    calls = [(c.callee, c.enclosing) for c in outline.calls]
    assert (("helper", ("build",)) in calls) and (("grep", ("build",)) in calls)
    assert [i.line for i in outline.imports] == [1]


def test_code_is_told_by_its_name_or_its_shebang() -> None:
    assert detect_format(b"x = '<html><body><div>'\n", source="a.py") == "code"
    assert detect_format(b"#!/usr/bin/env python3\nprint(1)\n", source="tool") == "code"
    assert detect_format(b"plain words\n", source="notes") == "text"


def test_a_function_is_one_chunk_unless_over_the_maximum_then_cut_between_statements() -> None:
    parsed = parse((STDLIB / "threading.py").read_bytes(), source="threading.py")
    chunks = chunk_code("d", parsed.blocks, target=120, maximum=200)
    by_block = {b.id: b for b in parsed.blocks}
    for block in parsed.blocks:
        pieces = [c for c in chunks if c.spans[0].block_id == block.id]
        if size_units(block.text) <= 200:
            assert len(pieces) == 1 and pieces[0].text == block.text
    cut = [c for c in chunks if c.spans[0].start > 0]
    assert cut, "threading.py has functions over 200 units"
    for chunk in chunks:
        assert size_units(chunk.text) <= 200
        assert chunk.section_path == by_block[chunk.spans[0].block_id].section_path
    for chunk in cut:  # a cut falls where a statement of the body starts
        block = by_block[chunk.spans[0].block_id]
        before = block.text[: chunk.spans[0].start]
        assert before.endswith("\n") or before.rstrip(" \t").endswith("\n")


def test_file_lines_anchor_on_their_block() -> None:
    parsed = parse((STDLIB / "asyncio/locks.py").read_bytes(), source="asyncio/locks.py")
    ref = line_ref("asyncio/locks.py:100-101")
    assert ref == LineRef("asyncio/locks.py", 100, 101)
    assert line_ref("b12:0-40") is None
    anchor = line_anchor("d", parsed.blocks, ref)
    block = next(b for b in parsed.blocks if b.id == anchor.block_id)
    assert block.section_path == ("Lock", "acquire")
    source = (STDLIB / "asyncio/locks.py").read_text().split("\n")
    assert block.text[anchor.start : anchor.end] == "\n".join(source[99:101])
