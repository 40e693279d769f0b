"""The constants a definition reads (issue 32, item 4): declared at its file's top level
or in its class, in any language's way, and quoted beside the line that uses them."""

from __future__ import annotations

import pytest

from askalong.asking.code_answers import lines_draft
from askalong.context.code import code_anchor_unit
from askalong.context.code_constants import constant_units, declared_name
from askalong.context.code_places import Place, SourceFile
from askalong.parse.code.parser import parse
from askalong.question.reading import read_question


@pytest.mark.parametrize(
    ("row", "name"),
    [
        ("DEFAULT_SEPARATOR = '-'", "DEFAULT_SEPARATOR"),
        ("#define PS_BUFFER_SIZE 256", "PS_BUFFER_SIZE"),
        ("\tFgBlack Attribute = iota + 30", "FgBlack"),
        ("pub const MAX: u64 = 10;", "MAX"),
        ('var NoColor = os.Getenv("TERM") == "dumb"', "NoColor"),
        ("    default_table_name = '_default'", "default_table_name"),
        ("except ImportError:", ""),
        ("import re", ""),
        ("if x == 1:", ""),
        ("print(x)", ""),
    ],
)
def test_declared_name(row: str, name: str) -> None:
    assert declared_name(row) == name


SLUG_PY = """import re

DEFAULT_SEPARATOR = '-'
QUOTE_PATTERN = re.compile(r"[']+")
UNUSED = 3


def slugify(text, separator=DEFAULT_SEPARATOR):
    words = text.split()
    text = QUOTE_PATTERN.sub(DEFAULT_SEPARATOR, text)
    for word in words:
        text = text.strip()
        text = text.lower()
        text = text.replace(word, word)
    text = DEFAULT_SEPARATOR.join(words)
    return text
"""


def test_the_constants_a_function_names_are_its_evidence_and_quoted_with_their_use() -> None:
    blocks = parse(SLUG_PY.encode(), source="slugify.py").blocks
    file = SourceFile("slugify.py", "slugify.py", blocks)
    function = next(b for b in blocks if b.section_path == ("slugify",))
    place = Place(file, function)
    constants = constant_units(place)
    assert [u.text for u in constants] == [
        "DEFAULT_SEPARATOR = '-'",
        'QUOTE_PATTERN = re.compile(r"[\']+")',
    ]
    units = [code_anchor_unit(place, 0, len(function.text)), *constants]
    question = read_question("Which character joins the words?")
    draft = lines_draft(question, units, name="slugify", anchored=False)
    assert "DEFAULT_SEPARATOR = '-'" in draft.answer, draft.answer
