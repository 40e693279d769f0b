"""A PDF page's printed lines as the parser reads them: each line's text, box, size and
weight, its cells where wide gaps cut it, and the frame that places page space."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Cell:
    """A piece of a line set apart by a wide gap: a table cell, an equation number."""

    text: str
    x0: float
    x1: float


@dataclass(frozen=True)
class Line:
    """One printed line: raw text and its box in points, origin at the page's top-left."""

    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    size: float
    bold: bool
    run_in: bool = False  # a bold head cut from the start of its printed line
    # Where wide gaps cut the line (table cells, an equation number): each piece's text
    # and left and right x. Empty when the line has no wide gap.
    cells: tuple[Cell, ...] = ()
    # A stand-in for a detected region ("table", "formula") that holds its rows of lines.
    role: str = ""
    rows: tuple[tuple[Line, ...], ...] = ()

    @property
    def height(self) -> float:
        return self.bottom - self.top


@dataclass(frozen=True)
class PageFrame:
    """Where page space sits: the crop box, to move points to a top-left origin."""

    left: float
    top: float
    width: float
    height: float
