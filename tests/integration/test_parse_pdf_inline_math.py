"""Inline mathematics reads as printed: scripts joined to their base, an arrow drawn as
minus signs and an arrowhead read as one arrow with the label set over it, a struck
slash negating it; on a page set glyph run by glyph run, and on the SPECTER paper,
whose line read "P 1 cite −−→ P2 ... P 1 6 cite −−→ P3" (issue 32)."""

from __future__ import annotations

from pathlib import Path

from samples import inline_math_pdf

from askalong.parse.pdf.parser import parse
from askalong.types import Block


def _lines(blocks: tuple[Block, ...]) -> list[str]:
    return [block.text[box.start : box.end] for block in blocks for box in block.boxes]


def test_inline_math_reads_as_printed() -> None:
    blocks = parse(inline_math_pdf(), source="inline-math.pdf", ocr=False).blocks
    assert _lines(blocks) == [
        "if P¹ −cite→ P² then the",
        "but P¹ −cite↛ P³, so",
        "water is H₂O. So A ⇒ B holds.",
    ]


def test_specter_hard_negatives_read_as_printed(evaldata: Path) -> None:
    path = evaldata / "pdf/en_2col/2020.acl-main.207.pdf"
    blocks = parse(path.read_bytes(), source=path.name, ocr=False).blocks
    text = "\n".join(block.text for block in blocks)
    assert (
        "i.e. if P¹ −cite→ P² and P² −cite→ P³ but P¹ −cite↛ P³, then P³ is a candidate hard"
        " negative example for P¹." in text
    )
    assert "a query paper PQ, a positive paper P⁺ and a negative paper P⁻." in text
    assert "−−→" not in text
    # The footnote markers read as before: raised digits after a word and opening a note.
    assert "³ https://github.com/allenai/scidocs" in text
