"""Inline mathematics in the PDF parser's text: how many printed lines read garbled, per
PDF, to compare before and after a change to text extraction (``parse/pdf/chars.py``,
``parse/pdf/inline_math.py``).

A line counts as garbled when it shows one of the marks of math read glyph run by glyph
run: a long arrow read as its pieces ("−−→", "=⇒"), a script set apart from its
one-letter base ("P 1", "x i", "P ³"), or TeX's negation slash read as a digit before an
arrow ("6 cite −−→"). Reads the PDFs of the DEV sets (``unseen_set.DEV_SETS``; never a
TEST or unrun set) and the born-digital PDFs of ``../shared/evaldata/pdf``; writes one
JSON object {pdf: [line, ...]} and, given an earlier such file, prints a table of
garbled lines before and after, and how many lines changed at all.

    python benchmarks/pdf_formula_text.py OUT.json [BEFORE.json]
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from _table import markdown_table
from askalong.parse.pdf.parser import parse
from evaldata import EVALDATA
from unseen_set import DEV_SETS, questions_of

SHARED = ("pdf/en_1col", "pdf/en_2col", "pdf/zh", "pdf/zh_long")
GARBLED = {
    "arrow in pieces": re.compile(r"[−\-–—=]{1,3} ?[→⇒]|[←⇐] ?[−\-–—=]{1,3}"),
    "script apart": re.compile(
        r"(?<![\w.])[A-Za-z] (?:[0-9]{1,2}|[a-z]|[⁰¹²³⁴-⁹⁺⁻])(?=[\s,.;:)]|$)"
    ),
    "negation as 6": re.compile(r"(?<!\d)6 \S{0,8} ?[−\-–—=]* ?[→⇒]"),
}


def pdfs() -> list[Path]:
    found = [p for name in DEV_SETS for p in sorted(questions_of(name).parent.rglob("*.pdf"))]
    return found + [p for folder in SHARED for p in sorted((EVALDATA / folder).glob("*.pdf"))]


def printed_lines(path: Path) -> list[str]:
    """Each printed line's text, as the reader's text layer holds it."""
    parsed = parse(path.read_bytes(), source=path.name, ocr=False)
    return [b.text[box.start : box.end] for b in parsed.blocks for box in b.boxes]


def garbled(line: str) -> bool:
    return any(pattern.search(line) for pattern in GARBLED.values())


def compare(before: dict[str, list[str]], after: dict[str, list[str]]) -> str:
    rows, totals = [], [0, 0, 0, 0]
    for name, now in after.items():
        was = before.get(name, [])
        counts = [len(now), sum(map(garbled, was)), sum(map(garbled, now))]
        changed = len(set(now) - set(was))
        totals = [t + c for t, c in zip(totals, [*counts, changed], strict=True)]
        if counts[1] or counts[2] or changed:
            rows.append([name, *map(str, counts), str(changed)])
    rows.append(["**all**", *map(str, totals)])
    header = ["PDF", "lines", "garbled before", "garbled after", "lines changed"]
    return markdown_table(header, "lrrrr", rows)


def main() -> None:
    found = {str(p.relative_to(p.parents[2])): printed_lines(p) for p in pdfs()}
    Path(sys.argv[1]).write_text(json.dumps(found, ensure_ascii=False, indent=0), "utf-8")
    if len(sys.argv) > 2:
        print(compare(json.loads(Path(sys.argv[2]).read_text("utf-8")), found))


if __name__ == "__main__":
    main()
