"""A hyphen at a line end, kept or dropped from the document's own words (no dictionary),
and never followed by a space: "state-of-the-art", "SciBERT", "document-level"."""

from __future__ import annotations

import pytest

from askalong.parse.pdf.hyphens import vocabulary
from askalong.parse.pdf.printed import Line
from askalong.parse.pdf.text import join_lines

# Elsewhere in the same document: the words that decide.
DOCUMENT = [
    "We fine-tune SciBERT on SCIDOCS and compare document-level models.",
    "A citation graph where each document is informed by the papers it cites.",
    "The level of detail of each example matters.",
]


def _line(text: str, top: float) -> Line:
    return Line(text, 72.0, top, 300.0, top + 10.0, 10.0, False)


def joined(first: str, second: str, document: list[str] = DOCUMENT) -> str:
    known = vocabulary([*document, first, second])
    return join_lines([_line(first, 100.0), _line(second, 112.0)], known).text


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        ("an approach that is state-", "of-the-art in", "an approach that is state-of-the-art in"),
        ("we start from SciB-", "ERT weights", "we start from SciBERT weights"),
        ("results on SCI-", "DOCS show", "results on SCIDOCS show"),
        ("a new document-", "level encoder", "a new document-level encoder"),
        ("a Citation-", "informed model", "a Citation-informed model"),
        ("this is an exam-", "ple of it", "this is an example of it"),
        ("the pages 84-", "91 of it", "the pages 84-91 of it"),
        ("one - ", "two", "one - two"),
    ],
)
def test_a_line_end_hyphen(first: str, second: str, expected: str) -> None:
    assert joined(first, second) == expected


def test_the_halves_of_a_split_word_are_not_words_of_the_document() -> None:
    """ "exam" and "ple" open and end lines only: they are no evidence for a compound."""
    known = vocabulary(["this is an exam-", "ple of it", "another exam-", "ple here"])
    assert "exam" not in known.words and "ple" not in known.words


def test_a_short_head_needs_the_compound_itself() -> None:
    """ "in-" / "formation": "in" and "formation" are words, but a two-letter head is a
    prefix far more often than half of a compound."""
    document = ["in the formation of stars"]
    assert joined("the in-", "formation of", document) == "the information of"


def test_offsets_index_the_joined_text() -> None:
    known = vocabulary(DOCUMENT)
    block = join_lines([_line("a new document-", 100.0), _line("level encoder", 112.0)], known)
    first, second = block.boxes
    assert block.text[first.start : first.end] == "a new document-"
    assert block.text[second.start : second.end] == "level encoder"
