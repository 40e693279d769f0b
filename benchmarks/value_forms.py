"""The cost of the derived value forms (issue 29): a value written as its JSON form and read
back (``wire/derived.py``), and written as its SQL row and read back (``store/sql/row_maps``),
in microseconds per value, the best of ``--repeat`` runs of ``--number`` calls each. The
values are the filled ones the wire tests build (``tests/helpers/wire_forms.py``); rows are
read from an in-memory SQLite table, as the store reads them.

    python benchmarks/value_forms.py [--number 20000] [--repeat 5] [--out FILE]
"""

from __future__ import annotations

import argparse
import datetime
import json
import sqlite3
import sys
import timeit
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent / "tests" / "helpers"))

import wire_forms  # noqa: E402

from _table import markdown_table, write_results  # noqa: E402
from askalong import wire  # noqa: E402
from askalong.store.sql.row_maps import RowMap  # noqa: E402
from askalong.store.sql.rows import CHUNKS, TURNS  # noqa: E402
from askalong.values.threads import Turn  # noqa: E402


def stored_row(row_map: RowMap[object], value: object) -> sqlite3.Row:
    """``value`` as a row read back from a table of ``row_map``'s columns."""
    db = sqlite3.connect(":memory:")
    db.row_factory = sqlite3.Row
    db.execute(f"CREATE TABLE {row_map.table} ({', '.join(row_map.written)})")
    db.execute(row_map.insert, row_map.row(value))
    row: sqlite3.Row = db.execute(row_map.select).fetchone()
    return row


def cases() -> list[tuple[str, Callable[[], object]]]:
    answer, feedback = wire_forms.answer(), wire_forms.feedback()
    answer_form = json.loads(json.dumps(wire.answer_json(answer)))
    judged_form = json.loads(json.dumps(wire.judged_json(feedback.judged)))
    chunk = wire_forms.chunk()
    turn = Turn("u", "t", 0, answer.question, "explain", answer.anchor, answer, "2026-12-05")
    chunk_row, turn_row = stored_row(CHUNKS, chunk), stored_row(TURNS, turn)
    return [
        ("answer -> JSON", lambda: wire.answer_json(answer)),
        ("JSON -> answer", lambda: wire.answer_from_json(answer_form)),  # type: ignore[arg-type]
        ("feedback -> JSON", lambda: wire.feedback_json(feedback)),
        ("JSON -> judged copy", lambda: wire.judged_from_json(judged_form)),  # type: ignore[arg-type]
        ("chunk -> row", lambda: CHUNKS.row(chunk)),
        ("row -> chunk", lambda: CHUNKS.value(chunk_row)),
        ("turn -> row", lambda: TURNS.row(turn)),
        ("row -> turn", lambda: TURNS.value(turn_row)),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--number", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    rows = []
    for name, call in cases():
        best = min(timeit.repeat(call, number=args.number, repeat=args.repeat))
        rows.append((name, f"{best / args.number * 1e6:.1f}"))
    today = datetime.date.today().isoformat()
    text = (
        f"# Derived value forms, {today}\n\n"
        f"Best of {args.repeat} runs of {args.number} calls; microseconds per value.\n\n"
        + markdown_table(("form", "µs"), "lr", rows)
    )
    write_results(text, f"value-forms-{today}.md", args.out)


if __name__ == "__main__":
    main()
