"""A learned order of a code answer's lines over each line's kind, an experiment (issue 32):
fitted on the read half of the DEV sets' recorded code questions, tried as the product
answers them, and not shipped (``benchmarks/results/code-order-DEV-2026-12-07.md``).

Both orders the product merges (``code_meaning.fused_order``: BM25's and the reader
encoder's cosine order, rank by rank) rank docstring prose and doctests above the code
that answers in a tenth of the "right function, wrong lines" misses. Here each line gets a
few columns (``WORD_COLUMNS``: BM25's rank and what kind of line it is: definition line,
code, line comment, doc comment or docstring, a doctest's prompt or output (``line_roles``),
a literal, the subject's own, how deep in its definition; ``READER_COLUMNS`` adds the
cosine's rank and its distance below the best), and a linear head over them is fitted as a
softmax over each question's lines (the lines holding a gold phrase its target, L2 on the
weights) on the read half (``DEV_SETS[::2]``), for each L2 of ``L2_GRID``. Three places
for it are tried, each answered again as the product answers (``code_line_replay.replayed``:
the room, the lines each brings, the excerpt):

- ``lexical``: BM25's order reordered by the head, the whole order without a reader
  encoder (``ASKALONG_EMBEDDER=none``);
- ``words side``: that order as BM25's side of the rank-by-rank merge;
- ``reader side``: the reader's side ordered by a head over ``READER_COLUMNS``.

The L2 of each is chosen by the read half's hits; the check half's are printed beside.

    PYTHONPATH=src:benchmarks:training python training/code_line_head.py
"""

from __future__ import annotations

import math
import pickle
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
from scipy.optimize import minimize

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from code_line_meaning import READ  # noqa: E402
from code_line_replay import replayed  # noqa: E402
from code_lines import CACHE, _reader_embedder  # noqa: E402

from answers import contains_any  # noqa: E402
from askalong.answer.extractive.reader_cosine import reader_cosines  # noqa: E402
from askalong.asking import code_answers, code_meaning  # noqa: E402
from askalong.asking.code_lines import LITERAL, CodeLine  # noqa: E402
from unseen_set import DEV_SETS  # noqa: E402

L2_GRID = (0.01, 0.1, 1.0, 10.0)
ROLES = ("definition", "code", "line_comment", "doc", "doctest")
WORD_COLUMNS = ("words_rank", "words_best", *ROLES, "literal", "own", "depth")
# the cosine's distance below the best line read, its rank; BM25's rank, holding a word
READER_COLUMNS = ("meaning_gap", "meaning_rank", "words_rank", "worded", *WORD_COLUMNS[2:])
_LINE_COMMENT = ("#", "//")
_DOCTEST = (">>>", "... ")
Group = tuple[np.ndarray, np.ndarray]  # one question's rows, and which hold a gold phrase
Order = Callable[[str, list[CodeLine], Sequence[CodeLine], Sequence[CodeLine], Any], list[CodeLine]]


def line_roles(lines: Sequence[CodeLine]) -> dict[CodeLine, str]:
    """Each line's kind: ``definition`` (its unit's first line of code), ``code``,
    ``line_comment`` (``#``, ``//``), ``doc`` (doc comment or docstring prose), ``doctest``
    (a prompt, ``>>>`` or ``...``, or its output: the comment line right under a prompt,
    nothing skipped between them)."""
    roles: dict[CodeLine, str] = {}
    previous: CodeLine | None = None
    defined: set[int] = set()
    for line in lines:
        text = line.text.strip()
        if not line.comment:
            roles[line] = "code" if line.unit in defined else "definition"
            defined.add(line.unit)
        elif text.startswith(_DOCTEST) or text == "..." or _output(previous, line, roles):
            roles[line] = "doctest"
        else:
            roles[line] = "line_comment" if text.startswith(_LINE_COMMENT) else "doc"
        previous = line
    return roles


def _output(above: CodeLine | None, line: CodeLine, roles: dict[CodeLine, str]) -> bool:
    """Whether ``line`` is right under a doctest's prompt (no blank line between)."""
    return (
        above is not None
        and above.text.strip().startswith(_DOCTEST)
        and roles.get(above) == "doctest"
        and above.span.block_id == line.span.block_id
        and line.span.start == above.span.end + 1
    )


def kind_columns(lines: Sequence[CodeLine], own: Sequence[CodeLine]) -> dict[CodeLine, list[float]]:
    """Each line's columns that need no order: its role, a literal, the subject's own,
    log(1 + lines from its unit's first line)."""
    roles, mine = line_roles(lines), set(own)
    starts: dict[int, int] = {}
    out = {}
    for index, line in enumerate(lines):
        start = starts.setdefault(line.unit, index)
        out[line] = [
            *(float(roles[line] == role) for role in ROLES),
            float(bool(LITERAL.search(line.text))),
            float(line in mine),
            math.log1p(index - start),
        ]
    return out


def word_rows(ranked: Sequence[CodeLine], kinds: dict[CodeLine, list[float]]) -> np.ndarray:
    """``WORD_COLUMNS`` of each line of BM25's order ``ranked``."""
    rows = [[1 / (1 + r), float(r == 0), *kinds[line]] for r, line in enumerate(ranked)]
    return np.array(rows, dtype=np.float64).reshape(len(rows), len(WORD_COLUMNS))


def reader_rows(
    read: Sequence[CodeLine],
    cosines: np.ndarray,
    ranked: Sequence[CodeLine],
    kinds: dict[CodeLine, list[float]],
) -> np.ndarray:
    """``READER_COLUMNS`` of each line the encoder read (``cosines``: its cosines)."""
    words = {line: rank for rank, line in enumerate(ranked)}
    place = np.empty(len(read))
    place[np.argsort(-cosines, kind="stable")] = np.arange(len(read))
    rows = []
    for k, line in enumerate(read):
        rank = words.get(line)
        worded = [0.0, 0.0] if rank is None else [1 / (1 + rank), 1.0]
        gap = float(cosines[k] - cosines.max())
        rows.append([gap, 1 / (1 + place[k]), *worded, *kinds[line]])
    return np.array(rows, dtype=np.float64).reshape(len(rows), len(READER_COLUMNS))


def read_lines(
    question: str,
    lines: list[CodeLine],
    ranked: Sequence[CodeLine],
    own: Sequence[CodeLine],
    embedder: Any,
) -> tuple[list[CodeLine], np.ndarray]:
    """The lines the product's encoder reads and their cosines to the question."""
    read = code_meaning.encoded(ranked, own, code_meaning.WORDS_FIRST, code_meaning.CANDIDATES)
    texts = [code_meaning.line_context(lines, line) for line in read]
    return read, reader_cosines(question, texts, embedder) if read else np.zeros(0)


def by_head(lines: Sequence[CodeLine], rows: np.ndarray, weights: np.ndarray) -> list[CodeLine]:
    scores = rows @ weights
    return [lines[i] for i in np.argsort(-scores, kind="stable")]


def orders(word_weights: np.ndarray, reader_weights: np.ndarray) -> dict[str, Order]:
    """Each place tried for the heads, as a ``fused_order``."""
    product = code_meaning.fused_order

    def worded(
        lines: list[CodeLine], ranked: Sequence[CodeLine], own: Sequence[CodeLine]
    ) -> list[CodeLine]:
        return by_head(ranked, word_rows(ranked, kind_columns(lines, own)), word_weights)

    def lexical(
        question: str, lines: list[CodeLine], ranked: Any, own: Any, embedder: Any
    ) -> list[CodeLine]:
        return (
            worded(lines, ranked, own)
            if embedder is None
            else product(question, lines, ranked, own, embedder)
        )

    def words_side(
        question: str, lines: list[CodeLine], ranked: Any, own: Any, embedder: Any
    ) -> list[CodeLine]:
        return product(question, lines, worded(lines, ranked, own), own, embedder)

    def reader_side(
        question: str, lines: list[CodeLine], ranked: Any, own: Any, embedder: Any
    ) -> list[CodeLine]:
        read, cosines = read_lines(question, lines, ranked, own, embedder)
        rows = reader_rows(read, cosines, ranked, kind_columns(lines, own))
        return code_meaning.interleaved([list(ranked), by_head(read, rows, reader_weights)])

    return {"lexical": lexical, "words side": words_side, "reader side": reader_side}


@contextmanager
def ordered_by(order: Order) -> Iterator[None]:
    """``code_answers`` answering with ``order`` for its lines' order."""
    product = code_answers.fused_order
    code_answers.fused_order = order  # type: ignore[assignment]
    try:
        yield
    finally:
        code_answers.fused_order = product


def groups(name: str, embedder: Any) -> tuple[list[Group], list[Group]]:
    """Set ``name``'s (rows, gold) per covered question: over BM25's lines, and over the
    lines the encoder reads; a question none or all of whose lines hold gold is left out."""
    seen: list[tuple[Any, ...]] = []
    product = code_meaning.fused_order

    def watched(question: str, lines: Any, ranked: Any, own: Any, given: Any) -> list[CodeLine]:
        seen.append((question, lines, ranked, own))
        return product(question, lines, ranked, own, given)

    words: list[Group] = []
    reader: list[Group] = []
    with ordered_by(watched):
        for call in pickle.loads((CACHE / f"{name}.replay.pkl").read_bytes()):
            if not call["covered"]:
                continue
            seen.clear()
            code_answers.lines_draft(call["question"], call["units"], **call["kwargs"])
            for question, lines, ranked, own in seen:
                kinds = kind_columns(lines, own)
                read, cosines = read_lines(question, lines, ranked, own, embedder)
                pools = (
                    (words, ranked, word_rows(ranked, kinds)),
                    (reader, read, reader_rows(read, cosines, ranked, kinds)),
                )
                for into, pool, rows in pools:
                    gold = np.array([contains_any(ln.text, call["gold"]) for ln in pool])
                    if gold.any() and not gold.all():
                        into.append((rows, gold))
    return words, reader


def fitted(data: Sequence[Group], l2: float) -> np.ndarray:
    """Weights maximising the gold lines' softmax share in each group, less ``l2``·|w|²."""
    width = data[0][0].shape[1]

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        total, grad = l2 * float(w @ w), 2 * l2 * w
        for rows, gold in data:
            scores = rows @ w
            p = np.exp(scores - scores.max())
            p /= p.sum()
            share = p[gold].sum()
            total -= float(np.log(share))
            grad += rows.T @ (p - np.where(gold, p / share, 0.0))  # d(-log share)/d scores
        return total / len(data), grad / len(data)

    return np.asarray(minimize(loss, np.zeros(width), jac=True, method="L-BFGS-B").x)


def hits(order: Order | None, embedder: Any) -> dict[str, int]:
    """Answer hits per set, with ``order`` for the lines' (None: the product's)."""
    if order is None:
        return {s: sum(replayed(s, embedder).values()) for s in DEV_SETS}
    with ordered_by(order):
        return {s: sum(replayed(s, embedder).values()) for s in DEV_SETS}


def halves(per_set: dict[str, int]) -> tuple[int, int]:
    read = sum(n for s, n in per_set.items() if s in READ)
    return read, sum(per_set.values()) - read


def main() -> None:
    from askalong.answer.extractive.sentence_cache import CachedEmbedder

    embedder = CachedEmbedder(_reader_embedder(), size=1 << 20)
    words: list[Group] = []
    reader: list[Group] = []
    for name in READ:
        found = groups(name, embedder)
        words, reader = words + found[0], reader + found[1]
    print(f"read-half questions fitted: BM25's lines {len(words)}, the lines read {len(reader)}")
    base = {"BM25's order": hits(None, None), "merged (product)": hits(None, embedder)}
    chosen: dict[str, dict[str, int]] = {}
    print("| head | L2 | read half | check half |\n|---|---:|---:|---:|")
    for label, per_set in base.items():
        print(f"| {label} | — | " + " | ".join(map(str, halves(per_set))) + " |")
    for l2 in L2_GRID:
        tried = orders(fitted(words, l2), fitted(reader, l2))
        for label, order in tried.items():
            per_set = hits(order, None if label == "lexical" else embedder)
            print(f"| {label} | {l2} | " + " | ".join(map(str, halves(per_set))) + " |", flush=True)
            if label not in chosen or halves(per_set)[0] > halves(chosen[label])[0]:
                chosen[label] = per_set
    columns = {**base, **{f"{k} (chosen L2)": v for k, v in chosen.items()}}
    print("\n| set | half | " + " | ".join(columns) + " |")
    print("|---|---|" + "---:|" * len(columns))
    for name in DEV_SETS:
        row = [str(per_set[name]) for per_set in columns.values()]
        print(f"| {name} | {'read' if name in READ else 'check'} | " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
