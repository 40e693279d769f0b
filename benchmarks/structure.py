"""Structure sweep: the ``structure_checks`` violations of every document in a corpus,
per document and per check, as a Markdown table.

The corpus is a folder of documents (any format the parsers read), searched recursively;
``structure_corpus.py`` assembles the default one from Debian and PyPI packages (never
``../shared/evaldata``: these are documents nobody tuned the parsers on).

    python benchmarks/structure.py --corpus DIR [--out FILE] [--details]
"""

from __future__ import annotations

import argparse
import datetime
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from _table import markdown_table, write_results
from askalong.chunk.prose import chunk_blocks
from askalong.errors import AskAlongError
from askalong.ingest.pipeline import document_language
from askalong.parse.guard import read_bytes
from structure_checks import CHECKS, Violation, check_document

_SUFFIXES = {".pdf", ".html", ".htm", ".md", ".txt", ".docx"}
_NOT_DOCUMENTS = {"SOURCES.md"}  # a corpus folder's note of where its files come from


@dataclass(frozen=True)
class Report:
    """One document's sweep: its violations, or why it could not be read."""

    name: str
    format: str
    title: str
    language: str
    violations: tuple[Violation, ...]
    error: str = ""

    def count(self, check: str) -> int:
        return sum(violation.check == check for violation in self.violations)


def documents(corpus: Path) -> list[Path]:
    found = corpus.rglob("*")
    return sorted(p for p in found if p.suffix in _SUFFIXES and p.name not in _NOT_DOCUMENTS)


def sweep_document(path: Path) -> Report:
    """Parse ``path`` as the product does (OCR off), chunk it, run every check."""
    name = path.name
    try:
        parsed = read_bytes(path.read_bytes(), None, source=name, options={"pdf": {"ocr": False}})
    except AskAlongError as exc:
        return Report(name, "?", "", "", (), error=str(exc))
    chunks = chunk_blocks("doc", parsed.blocks)
    violations = tuple(check_document(parsed, chunks))
    return Report(name, parsed.format, parsed.title, document_language(parsed.blocks), violations)


def sweep(corpus: Path) -> list[Report]:
    return [sweep_document(path) for path in documents(corpus)]


def table(reports: Sequence[Report]) -> str:
    """One row a document (its violations check by check), then the totals."""
    header = ["document", "format", "lang", *CHECKS, "total", "title"]
    rows = [
        [
            r.name,
            r.format,
            r.language,
            *(str(r.count(check)) for check in CHECKS),
            str(len(r.violations)) if not r.error else f"error: {r.error}",
            _cell(r.title),
        ]
        for r in reports
    ]
    totals = [sum(r.count(check) for r in reports) for check in CHECKS]
    rows.append(["**all**", "", "", *map(str, totals), str(sum(totals)), f"{len(reports)} docs"])
    return markdown_table(header, "lll" + "r" * (len(CHECKS) + 1) + "l", rows)


def _cell(text: str, limit: int = 50) -> str:
    text = text.replace("|", "/")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def details(reports: Iterable[Report]) -> str:
    """Every violation, one line each, document by document."""
    lines = []
    for report in reports:
        for v in report.violations:
            lines.append(f"- {report.name} [{v.check}] {v.where}: {_cell(v.detail, 120)}")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, required=True, help="folder of documents")
    parser.add_argument("--out", type=Path, help="write the table here too")
    parser.add_argument("--details", action="store_true", help="list every violation")
    args = parser.parse_args(argv)
    reports = sweep(args.corpus)
    text = (
        f"# Structure sweep over {args.corpus.name}\n\n"
        f"`python benchmarks/structure.py --corpus {args.corpus.name}`, {datetime.date.today()};"
        " the corpus from `benchmarks/structure_corpus.py`, OCR off.\n\n"
        f"{table(reports)}"
    )
    if args.details:
        text += "\n## Violations\n\n" + details(reports)
    if args.out:
        write_results(text, args.out.name, args.out)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
