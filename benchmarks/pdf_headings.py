"""The headings the PDF parser finds, per PDF: a list to compare before and after a change
to heading detection (``parse/pdf/kinds.py``).

Reads the PDFs of the DEV sets (``unseen_set.DEV_SETS``; never a TEST or unrun set) and
the born-digital PDFs of ``../shared/evaldata/pdf``; writes
one JSON object {pdf: [[page, level, text], ...]} and, given an earlier such file, prints
each PDF's lost and gained headings.

    python benchmarks/pdf_headings.py OUT.json [BEFORE.json]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from askalong.parse.pdf.parser import parse
from evaldata import EVALDATA
from unseen_set import DEV_SETS, questions_of

ROOT = Path(__file__).resolve().parents[1]
SHARED = ("pdf/en_1col", "pdf/en_2col", "pdf/zh")


def pdfs() -> list[Path]:
    found = [p for name in DEV_SETS for p in sorted(questions_of(name).parent.rglob("*.pdf"))]
    return found + [p for folder in SHARED for p in sorted((EVALDATA / folder).glob("*.pdf"))]


def headings(path: Path) -> list[list[object]]:
    parsed = parse(path.read_bytes(), source=path.name, ocr=False)
    return [
        [block.page, block.heading_level, block.text[:120]]
        for block in parsed.blocks
        if block.kind == "heading"
    ]


def changes(before: dict[str, list[list[object]]], after: dict[str, list[list[object]]]) -> None:
    for name, now in after.items():
        was = before.get(name, [])
        lost = [h for h in was if h not in now]
        gained = [h for h in now if h not in was]
        print(f"{name}: {len(was)} -> {len(now)} headings")
        for mark, rows in (("-", lost), ("+", gained)):
            for page, level, text in rows:
                print(f"  {mark} p{page} L{level} {text}")


def main() -> None:
    found = {str(p.relative_to(p.parents[2])): headings(p) for p in pdfs()}
    Path(sys.argv[1]).write_text(json.dumps(found, ensure_ascii=False, indent=0), "utf-8")
    if len(sys.argv) > 2:
        changes(json.loads(Path(sys.argv[2]).read_text("utf-8")), found)


if __name__ == "__main__":
    main()
