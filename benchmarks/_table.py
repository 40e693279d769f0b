"""How a benchmark writes its figures: a Markdown table, and the results file beside the
others under ``benchmarks/results/`` (or where ``--out`` says), printed as well."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"


def markdown_table(header: Sequence[str], align: str, rows: Iterable[Sequence[str]]) -> str:
    """``align`` gives one letter a column: ``r`` right (figures), ``l`` left (names)."""
    rule = {"r": "---:", "l": "---"}
    lines = [
        "| " + " | ".join(header) + " |",
        "|" + "|".join(rule[a] for a in align) + "|",
        *("| " + " | ".join(row) + " |" for row in rows),
    ]
    return "\n".join(lines) + "\n"


def share(rows: Sequence[Mapping[str, Any]], key: str) -> str:
    """The rows whose ``key`` is true as "hits/rows (ratio)", or a dash without rows."""
    if not rows:
        return "—"
    hits = sum(1 for r in rows if r[key])
    return f"{hits}/{len(rows)} ({hits / len(rows):.2f})"


def write_results(text: str, name: str, out: Path | None) -> Path:
    """Print ``text`` and write it to ``out``, or to ``results/<name>``."""
    print(text)
    path = out or RESULTS / name
    path.write_text(text, encoding="utf-8")
    return path
