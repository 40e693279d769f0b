"""The lines of code evidence, and which of them answer a question (pure).

A line's terms are its words and identifier parts (``_wake_up_first`` → wake, first;
``evictList`` → evict, list), stemmed as ``key_terms`` stems them, so a reader's words
("evicted", "list") meet the code's names. A line is scored as BM25 scores a short
document with its length left out: the inverse document frequency of each question term
it holds, counted over the evidence's own lines, so a word every line holds ("cache" in a
cache library) weighs little and a rare one ("typed") decides. Comments and docstrings
count as much as code: a reader's words are most often in them.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace

from askalong.context.units import ContextUnit
from askalong.text.patterns import lazy
from askalong.text.tokens import tokenize
from askalong.types import BlockSpan

K1 = 1.2  # BM25's saturation and length normalisation, as Lucene
B = 0.75
SHORTEST_ABBREVIATION = 3  # ``env``, ``arg``, ``sep``: letters a code name keeps, at least
ABBREVIATION_DROPS = 2  # letters an abbreviation drops, at least (``impl`` of implement)
ABBREVIATION_WEIGHT = 0.5  # an abbreviation met, against the word itself

_COMMENT = ("#", "//", "/*", "*", '"""', "'''")
# A value a line states: a number or a quoted string.
LITERAL = lazy(r"(?<![\w.])\d+(?:\.\d+)?\b|'[^']*'|\"[^\"]*\"")
_CAMEL = lazy(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_CAMEL_NAME = lazy(r"\b[A-Za-z][a-z0-9]+[A-Z][A-Za-z0-9]*\b")  # ``PyCharm``, ``isNoColor``
_BARE_LINE = lazy(r"^[\s{}()\[\];,:]*$")
# A line of comment punctuation alone (``/*``, ``*/``, ``"""``): it says nothing to quote.
_MARK_LINE = lazy(r"^\s*(?:/\*+|\*+/|\*|\"\"\"|\'\'\'|#+|//+)\s*$")
# A line opening with ``#`` that is code: a C preprocessor directive (``#  ifdef`` indented
# too, when the word is no English one: ``# if the cache is full`` stays a comment), a Rust
# attribute.
_DIRECTIVE = lazy(
    r"#(?:include|define|undef|ifn?def|if|elif|else|endif|pragma|error|warning|line)\b"
    r"|#\s+(?:ifn?def|elif|endif|undef|pragma)\b|#!?\["
)
_BLOCK_OPENERS = (("/*", "*/"), ('"""', '"""'), ("'''", "'''"))


@dataclass(frozen=True)
class CodeLine:
    """One line of a unit: where it is, its text, and whether it is comment (a comment
    line, or a line inside a block comment or docstring)."""

    unit: int
    span: BlockSpan
    text: str
    comment: bool = False
    tail: str = ""  # the bare lines right after it (``):``, ``}``): brackets it closes


@dataclass(frozen=True)
class Asked:
    """What a question brings to the lines: its terms (the subject's name's aside),
    whether it asks a value (a default, a size), and its text (for an encoder)."""

    wanted: frozenset[str]
    valued: bool = False
    text: str = ""


def code_lines(units: Sequence[ContextUnit]) -> Iterator[CodeLine]:
    """Every line of code the units hold that says something (not a lone brace, nor a
    comment's ``/*`` or ``*/`` alone), each knowing whether it is comment."""
    for number, unit in enumerate(units):
        for piece in unit.pieces:
            offset = 0
            closing = ""  # the end of the block comment (docstring) the line is in
            held: CodeLine | None = None  # yielded once the bare lines after it are read
            for row in piece.text.split("\n"):
                comment, closing = _comment_state(row, closing)
                if not _BARE_LINE.match(row) and not _MARK_LINE.match(row):
                    if held is not None:
                        yield held
                    start = piece.span.start + offset
                    span = BlockSpan(piece.span.block_id, start, start + len(row))
                    held = CodeLine(number, span, row, comment)
                elif held is not None and not comment:
                    held = replace(held, tail=f"{held.tail}{row}\n")
                offset += len(row) + 1
            if held is not None:
                yield held


def _comment_state(row: str, closing: str) -> tuple[bool, str]:
    """Whether ``row`` is comment, and the block comment's end still awaited after it."""
    text = row.strip()
    if closing:
        return True, "" if closing in text else closing
    if _DIRECTIVE.match(text):  # ``#define ARG_MAX (96 * 1024)``, ``#[test]``: code
        return False, ""
    if text.startswith(_COMMENT):
        for opener, end in _BLOCK_OPENERS:
            if text.startswith(opener) and end not in text[len(opener) :]:
                return True, end
        return True, ""
    return False, ""


def line_terms(text: str) -> frozenset[str]:
    """Words and identifier parts (``_wake_up_first`` → wake, first; ``notifyWaiters`` →
    notify, waiters; ``LRUCache`` → lru, cache), as ``key_terms`` stems them."""
    return frozenset(term_list(text))


def joined_terms(text: str) -> frozenset[str]:
    """The camel-case names ``text`` writes (``PyCharm``, ``NoColor``), each also as one
    word, lower-cased: code writes the same name in capitals or snake case too
    (``PYCHARM_HOSTED``, ``no_color`` aside), where its camel parts are not its terms."""
    return frozenset(t for name in _CAMEL_NAME.findall(text) for t in tokenize(name.lower()))


def term_list(text: str) -> list[str]:
    """``line_terms`` in text order, each as often as it occurs."""
    spaced = _CAMEL.sub(" ", text.replace("_", " ").replace(".", " "))
    return [t for t in tokenize(spaced) if not (len(t) == 1 and t.isascii())]


def idf(documents: Iterable[frozenset[str]]) -> dict[str, float]:
    """BM25's inverse document frequency of each term over ``documents`` (Robertson and
    Spärck Jones, as Lucene writes it: ln(1 + (N - df + 0.5) / (df + 0.5)))."""
    frequency: Counter[str] = Counter()
    total = 0
    for terms in documents:
        frequency.update(terms)
        total += 1
    return {t: math.log(1 + (total - df + 0.5) / (df + 0.5)) for t, df in frequency.items()}


def ranked(
    lines: Sequence[CodeLine], wanted: frozenset[str], prior: Sequence[float] = ()
) -> list[tuple[float, CodeLine]]:
    """The lines holding any of the ``wanted`` terms, best first (ties in text order),
    each with its ``bm25_scores`` score times the line's ``prior`` where given (the
    subject's own lines before others')."""
    scored = []
    for index, (line, score) in enumerate(zip(lines, bm25_scores(lines, wanted), strict=True)):
        score *= prior[index] if prior else 1
        if score > 0:
            scored.append((-score, index, line))
    return [(-score, line) for score, _, line in sorted(scored, key=lambda t: t[:2])]


def bm25_scores(lines: Sequence[CodeLine], wanted: frozenset[str]) -> list[float]:
    """Each line's BM25 score for the ``wanted`` terms over ``lines`` (each term once: a
    line is short), so a long docstring line holding one term weighs less than a short
    line of code holding it. A code name abbreviating a wanted term (``abbreviations``)
    counts ``ABBREVIATION_WEIGHT`` of its own weight."""
    terms = [line_terms(line.text) for line in lines]
    weights = idf(terms)
    short = abbreviations(wanted, weights.keys())
    average = sum(len(t) for t in terms) / max(len(terms), 1)
    scores = []
    for held in terms:
        norm = (K1 + 1) / (1 + K1 * (1 - B + B * len(held) / average)) if average else 1.0
        found = math.fsum(weights[t] for t in wanted & held)  # exact: set order varies
        found += ABBREVIATION_WEIGHT * math.fsum(weights[t] for t in short & held)
        scores.append(found * norm)
    return scores


def abbreviations(wanted: Iterable[str], vocabulary: Iterable[str]) -> frozenset[str]:
    """The code's names for a reader's words that it abbreviates: a term of the code
    that begins a wanted term, drops ``ABBREVIATION_DROPS`` letters or more of it and
    stops before a vowel (``impl`` for implementations, ``attr`` for attributes,
    ``param``, ``env``, ``arg``, ``sep``): code writes the short form, a reader the word.
    A word ending where a compound's next word begins is none (``data`` of database,
    ``time`` of timezone, ``call`` of callback)."""
    asked = [w for w in wanted if w.isascii()]
    return frozenset(t for t in vocabulary if any(_abbreviates(t, w) for w in asked))


def _abbreviates(short: str, word: str) -> bool:
    return (
        len(short) >= SHORTEST_ABBREVIATION
        and len(word) - len(short) >= ABBREVIATION_DROPS
        and word.startswith(short)
        and word[len(short)] in "aeiou"
    )
