"""A code answer shaped as an excerpt (issue 32, item 4): each definition whose lines are
quoted is introduced by its own definition line, its lines follow in file order, the
definitions come in the order of their best line, and the excerpt keeps its room."""

from __future__ import annotations

from askalong.asking.code_answers import lines_draft
from askalong.asking.code_excerpt import excerpt, head_line
from askalong.asking.code_lines import code_lines
from askalong.context.code import code_anchor_unit
from askalong.context.code_places import Place, SourceFile
from askalong.context.units import ContextUnit
from askalong.parse.code.parser import parse
from askalong.question.reading import read_question

CARD_PY = '''import re


@validator
def card_number(value: str, /):
    """Return whether or not given value is a valid generic card number.

    This validator is based on Luhn's algorithm.
    """
    digits = list(map(int, value))
    odd_sum = sum(digits[-1::-2])
    even_sum = sum(sum(divmod(2 * d, 10)) for d in digits[-2::-2])
    return (odd_sum + even_sum) % 10 == 0


def visa(value: str, /):
    """Return whether or not given value is a valid Visa card number."""
    pattern = re.compile(r"^4")
    return card_number(value) and len(value) == 16 and pattern.match(value)
'''


def units_of(source: str, name: str) -> list[ContextUnit]:
    blocks = parse(source.encode(), source=name).blocks
    file = SourceFile(name, name, blocks)
    return [code_anchor_unit(Place(file, b), 0, len(b.text)) for b in blocks]


def rows_of(answer: str) -> list[str]:
    """The answer's quoted lines, as written (indentation kept), its intro aside."""
    return [row.rsplit(" [", 1)[0] for row in answer.split("\n")[1:]]


def test_the_definition_line_leads_the_lines_of_its_definition() -> None:
    units = units_of(CARD_PY, "card.py")
    units.sort(key=lambda u: u.section_path != ("card_number",))
    question = read_question("where is the Luhn checksum computed?")
    draft = lines_draft(question, units, name="card_number", anchored=False)
    rows = rows_of(draft.answer)
    assert rows[0] == "  def card_number(value: str, /):", rows  # past the decorator
    assert any("Luhn's algorithm" in r for r in rows[1:]), rows
    assert all(r.startswith("    ") for r in rows[1:] if "sum" in r), rows  # under it


def test_lines_come_in_file_order_under_their_definitions_in_order_of_their_best_line() -> None:
    units = units_of(CARD_PY, "card.py")
    lines = list(code_lines(units))
    card = [ln for ln in lines if units[ln.unit].section_path == ("card_number",)]
    visa = [ln for ln in lines if units[ln.unit].section_path == ("visa",)]
    last, first = card[-1], card[-4]  # ``return (odd_sum ...``, ``digits = ...``
    picked = [visa[-1], last, first]  # best first: a line of visa, then two of card_number
    texts = [q.cited.text for q in excerpt(picked, lines, units, room=10)]
    assert texts == [
        "def visa(value: str, /):",
        "return card_number(value) and len(value) == 16 and pattern.match(value)",
        "def card_number(value: str, /):",
        "digits = list(map(int, value))",
        "return (odd_sum + even_sum) % 10 == 0",
    ], texts


def test_the_room_counts_the_definition_lines() -> None:
    units = units_of(CARD_PY, "card.py")
    lines = list(code_lines(units))
    body = [ln for ln in lines if units[ln.unit].section_path and ln.text.startswith("    ")]
    code = [ln for ln in body if not ln.comment]
    quoted = excerpt(list(reversed(code)), lines, units, room=4)
    # visa's two lines under its definition line; a line of card_number would bring its
    # definition line too, five lines in all
    assert [q.cited.text for q in quoted] == [
        "def visa(value: str, /):",
        'pattern = re.compile(r"^4")',
        "return card_number(value) and len(value) == 16 and pattern.match(value)",
    ], quoted
    assert [q.under for q in quoted] == [False, True, True], quoted


def test_a_definition_line_is_none_for_top_level_lines() -> None:
    units = units_of(CARD_PY, "card.py")
    lines = list(code_lines(units))
    top = next(i for i, u in enumerate(units) if not u.section_path)
    assert head_line([ln for ln in lines if ln.unit == top], units[top]) is None
