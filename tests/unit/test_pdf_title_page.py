"""The lines right under a PDF's title set like subsection headings (the authors, a date)
are body text, so "who are the authors" finds them as sentences; headings that open
sections stay headings (``parse/pdf/kinds.py``)."""

from __future__ import annotations

from askalong.parse.pdf.kinds import Draft, build_blocks
from askalong.types import LineBox

PAGE = 800.0


def draft(page: int, top: float, text: str, size: float, bold: bool = False) -> Draft:
    box = LineBox(50.0, top, 500.0, top + size, 0, len(text))
    return Draft(page, PAGE, text, (box,), size, bold)


def kinds(drafts: list[Draft]) -> dict[str, str]:
    return {block.text: block.kind for block in build_blocks(drafts)}


BODY = "The package provides classes for dense and sparse matrices of many kinds."


def vignette(after_title: list[Draft]) -> list[Draft]:
    """A title, what ``after_title`` sets under it, sections in a larger style and a
    subsection style (12 pt bold) like the authors' line."""
    return [
        draft(1, 60, "Introduction to the Matrix package", 17, bold=True),
        *after_title,
        draft(1, 200, BODY, 10),
        draft(1, 260, "1 Introduction", 14.5, bold=True),
        draft(1, 300, BODY, 10),
        draft(2, 60, "2 Sparse matrices", 14.5, bold=True),
        draft(2, 100, BODY, 10),
        draft(2, 160, "2.1 Storage", 12, bold=True),
        draft(2, 200, BODY, 10),
        draft(2, 260, "Details", 12, bold=True),
        draft(2, 300, BODY, 10),
    ]


def test_the_authors_line_under_the_title_is_body_text() -> None:
    authors = draft(1, 100, "Martin Maechler and Douglas Bates", 12, bold=True)
    found = kinds(vignette([authors, draft(1, 130, "September 2006", 12, bold=True)]))
    assert found["Martin Maechler and Douglas Bates"] == "paragraph"
    assert found["September 2006"] == "paragraph"
    assert found["Introduction to the Matrix package"] == "heading"
    for heading in ("1 Introduction", "2 Sparse matrices", "2.1 Storage", "Details"):
        assert found[heading] == "heading", heading


def test_a_heading_after_the_title_pages_text_stays_a_heading() -> None:
    affiliation = draft(1, 100, "Department of Statistics, ETH Zurich", 10)
    found = kinds(vignette([affiliation, draft(1, 150, "Abstract", 12, bold=True)]))
    assert found["Abstract"] == "heading"


def test_a_numbered_heading_under_the_title_stays_a_heading() -> None:
    found = kinds(vignette([draft(1, 100, "0.1 Scope", 12, bold=True)]))
    assert found["0.1 Scope"] == "heading"
