"""Survey of the section paths the PDF parser gives every evaluation PDF.

Per document: blocks, headings, distinct section paths, and the titles that look like
junk (no word: three Latin letters in a row or a Han character; a bare page number).
With ``-v`` every distinct path is printed with how many blocks it holds. Scanned PDFs
are left out (OCR has its own benchmark in ``layout.py``).

    python benchmarks/section_paths.py [-v]
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

from askalong.parse.pdf.parser import parse
from evaldata import EVALDATA

ROOT = Path(__file__).resolve().parents[1]
WORD = re.compile(r"[A-Za-z]{3}|[\u3400-\u9fff]")
ROMAN_PAGE = re.compile(r"^[ivxlcdm]{1,6}$", re.I)


def junk_titles(titles: set[str]) -> list[str]:
    return sorted(t for t in titles if not WORD.search(t) or ROMAN_PAGE.match(t))


def main(verbose: bool) -> None:
    total = 0
    print("| PDF | blocks | headings | paths | junk titles |")
    print("|---|---:|---:|---:|---|")
    details: list[str] = []
    for path in sorted((EVALDATA / "pdf").glob("*/*.pdf")):
        if path.parent.name == "scanned":
            continue
        doc = parse(path.read_bytes(), source=path.name, ocr=False)
        paths = Counter(block.section_path for block in doc.blocks)
        junk = junk_titles({title for p in paths for title in p})
        total += len(junk)
        headings = sum(block.kind == "heading" for block in doc.blocks)
        name = f"{path.parent.name}/{path.name}"
        print(f"| {name} | {len(doc.blocks)} | {headings} | {len(paths)} | {junk[:8]} |")
        details.append(f"\n{name}")
        details.extend(f"  {n:5d} | {' > '.join(p)[:160]}" for p, n in paths.items())
    print(f"\njunk titles in all: {total}")
    if verbose:
        print("\n".join(details))


if __name__ == "__main__":
    main("-v" in sys.argv[1:])
