"""The Explain / Example / Compare dev set (``tests/data/explain_dev.jsonl``): does the
direct answer explain from the document, and read like an explanation?

29 selections of six real documents (two English papers, two Chinese ones, two pages of
the PostgreSQL manual), written before any output was read. Each item is the real-question
set's format (``answers_set.py``) plus ``not``: phrases a good answer must not hold (a
common word named as a key term, a footnote, a caption). Asked as ``answers.py`` asks
(the product's asker, offline, no vectors). Per kind: *hit* (a gold phrase in the direct
answer), *clean* (no ``not`` phrase in it, and no quote opening on punctuation), *both*,
*echo*. Tune on this set, never on the held-out one.

    PYTHONPATH=src .venv/bin/python benchmarks/explain_dev.py --home /tmp/aa-explain-dev
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from answers import REPO, ask_all, open_corpus
from answers_set import check, load_items

DEV = REPO / "tests" / "data" / "explain_dev.jsonl"
KINDS = ("explain", "example", "compare")


def forbidden(path: Path) -> dict[str, tuple[str, ...]]:
    """Each item's ``not`` phrases, by id."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    return {row["id"]: tuple(row.get("not", ())) for row in rows}


def opens_on_punctuation(text: str) -> bool:
    """A quote cut at a selection's edge that starts on ":" or "," rather than a word."""
    return text.lstrip()[:1] in tuple(":;,.、，：；。)）-")


def clean(outcome: Any, avoid: Sequence[str]) -> bool:
    """No ``not`` phrase in the answer, as written: folding would drop the quote marks
    that make "“sets”" a term named, not the word in a sentence."""
    if any(phrase in outcome.answer for phrase in avoid):
        return False
    return not any(opens_on_punctuation(q) for q in outcome.quotes)


def rows(outcomes: Sequence[Any], avoid: dict[str, tuple[str, ...]]) -> list[dict[str, Any]]:
    out = []
    for o in outcomes:
        tidy = clean(o, avoid[o.id])
        out.append({"id": o.id, "kind": o.kind, "hit": o.hit, "clean": tidy, "echo": o.echo})
    return out


def table(scored: Sequence[dict[str, Any]]) -> str:
    head = "| kind | items | hit | clean | hit and clean | echo |"
    lines = [head, "|---|---:|---:|---:|---:|---:|"]
    for kind in (*KINDS, "all"):
        part = [r for r in scored if kind in ("all", r["kind"])]
        if not part:
            continue
        n = len(part)
        both = sum(r["hit"] and r["clean"] for r in part)
        hit, tidy, echo = (sum(r[k] for r in part) for k in ("hit", "clean", "echo"))
        lines.append(f"| {kind} | {n} | {hit}/{n} | {tidy}/{n} | {both}/{n} | {echo} |")
    return "\n".join(lines)


def measure(home: Path, path: Path = DEV) -> list[dict[str, Any]]:
    """Every dev item asked over its documents (ingested once under ``home``), scored."""
    items = load_items(path)
    library, ids = open_corpus(home, [d for i in items for d in i.documents], vectors="none")
    with library:
        problems = check(library, ids, items)
        if problems:
            raise SystemExit("\n".join(problems))
        return rows(ask_all(library, ids, items), forbidden(path))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path, default=Path("/tmp/askalong-explain-dev"))
    parser.add_argument("--questions", type=Path, default=DEV)
    args = parser.parse_args()
    scored = measure(args.home, args.questions)
    print(table(scored))
    print("missed:", ", ".join(r["id"] for r in scored if not (r["hit"] and r["clean"])))


if __name__ == "__main__":
    main()
