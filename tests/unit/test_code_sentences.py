"""Comment lines quoted as the sentences they are, code lines as the statements they are
(issue 32, item 4): a doc comment that wraps a sentence over two lines, or a signature
over several, is quoted as one span, its text joined."""

from __future__ import annotations

from askalong.asking.code_lines import CodeLine, code_lines
from askalong.asking.code_sentences import cited_lines, statement
from askalong.context.code import code_anchor_unit
from askalong.context.code_places import Place, SourceFile
from askalong.parse.code.parser import parse
from askalong.types import BlockSpan

GO = """// Red is a convenient helper function to print with red foreground. A
// newline is appended to format by default.
func Red(format string, a ...interface{}) { colorPrint(format, FgRed, a...) }
"""


def lines_of(text: str) -> list[CodeLine]:
    found, offset = [], 0
    for row in text.split("\n")[:-1]:
        span = BlockSpan("b", offset, offset + len(row))
        found.append(CodeLine(0, span, row, comment=row.startswith("//")))
        offset += len(row) + 1
    return found


def test_two_picked_lines_of_one_comment_are_one_quote_of_one_sentence() -> None:
    lines = lines_of(GO)
    cited = cited_lines(lines[:2], lines)
    assert [c.text for c in cited] == [
        "// Red is a convenient helper function to print with red foreground. A newline is"
        " appended to format by default."
    ]
    assert GO[cited[0].span.start : cited[0].span.end] == GO.split("\nfunc")[0]


def test_a_line_ending_mid_sentence_takes_the_line_that_ends_it() -> None:
    lines = lines_of(GO)
    cited = cited_lines([lines[0], lines[2]], lines)
    assert cited[0].text.endswith("A newline is appended to format by default.")
    assert cited[1].text.startswith("func Red(")


def test_code_lines_and_a_finished_sentence_stand_alone() -> None:
    lines = lines_of(GO)
    cited = cited_lines([lines[1], lines[2]], lines)
    assert [c.text for c in cited] == [lines[1].text, lines[2].text]


SIGNATURE = """def load(
    path,
    override: bool = False,
):
    return path
"""


def test_the_lines_of_one_statement_are_one_quote_and_its_end_is_read_past_bare_lines() -> None:
    blocks = parse(SIGNATURE.encode(), source="load.py").blocks
    place = Place(SourceFile("load.py", "load.py", blocks), blocks[0])
    lines = list(code_lines([code_anchor_unit(place, 0, len(blocks[0].text))]))
    assert statement(lines, 0) == [0, 1, 2]  # ``):`` (bare) closes it: not ``return path``
    cited = cited_lines(lines[:3], lines)
    assert [c.text for c in cited] == ["def load( path, override: bool = False,"]


def test_a_function_opening_its_body_is_not_joined_to_its_first_line() -> None:
    go = "func (c *Color) Add(v ...Attribute) *Color {\n\tc.params = append(c.params, v...)\n"
    blocks = parse(f"package p\n\n{go}}}\n".encode(), source="c.go").blocks
    block = next(b for b in blocks if "func" in b.text)
    place = Place(SourceFile("c.go", "c.go", blocks), block)
    lines = list(code_lines([code_anchor_unit(place, 0, len(block.text))]))
    code = [ln for ln in lines if not ln.comment]
    assert [c.text for c in cited_lines(code[:2], lines)] == [ln.text.strip() for ln in code[:2]]


def test_a_statement_is_never_joined_across_a_gap_in_the_unit() -> None:
    # a unit's pieces skip a nested definition's lines: the line after the gap is no
    # continuation of the open bracket before it (one quote would span the gap)
    head = CodeLine(0, BlockSpan("b", 0, 9), "def f(a,", comment=False)
    after = CodeLine(0, BlockSpan("b", 40, 47), "    b):", comment=False)
    cited = cited_lines([head, after], [head, after])
    assert [c.text for c in cited] == ["def f(a,", "b):"]
