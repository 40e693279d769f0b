"""Whether two near-identical texts contradict each other (pure): the contradiction scan's
text test, run on chunk pairs the vector index found close.

Two steps, both on the texts alone:

- ``bigram_dice``: the Sørensen–Dice coefficient over character bigrams (multisets, white
  space collapsed), ``2|A ∩ B| / (|A| + |B|)``: near 1 for two copies of one passage,
  whatever the language (Chinese has no spaces to split on).
- ``difference``: the texts' tokens aligned (``difflib``'s longest matching blocks); a
  contradiction is a stretch one side replaced where a number, a date, a version or an
  on/off value changed to one the other text never states, or a negation added or taken
  away. A paraphrase keeps its numbers (they align, or appear elsewhere on the other
  side), and an extra sentence on one side is an insertion, not a change: neither counts.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal, InvalidOperation
from difflib import SequenceMatcher

from askalong.text.scripts import HAN
from askalong.values.conflicts import DifferenceKind

# In this order a pair's kind is named when several changed.
KINDS: tuple[DifferenceKind, ...] = ("version", "date", "number", "setting", "negation")
MIN_ALIGNED = 0.8  # share of the tokens the alignment matches: the same statement
MAX_STRETCH = 4  # tokens a side of a changed stretch holds at most


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_MONTHS = _words(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec"
)
_TOKEN_RE = re.compile(
    r"(?P<date>\d{4}-\d{1,2}-\d{1,2}|\d{4}年\d{1,2}月(?:\d{1,2}日)?)"
    r"|(?P<version>v\d+(?:\.\d+)*|\d+(?:\.\d+){2,})"
    r"|(?P<number>\d+(?:,\d{3})*(?:\.\d+)?)"
    r"|(?P<word>[A-Za-z]+(?:'[A-Za-z]+)?)"
    f"|(?P<han>[{HAN}])",
    re.IGNORECASE,
)
_SETTINGS = {
    "on": "on",
    "true": "on",
    "enabled": "on",
    "enable": "on",
    "yes": "on",
    "off": "off",
    "false": "off",
    "disabled": "off",
    "disable": "off",
}
_NEGATIONS = _words("not no never none cannot nor neither without")
_HAN_NEGATIONS = frozenset("不没无未非勿否别")
_LABELS = _words("table figure fig example section chapter appendix part step listing 表 图")
_AUXILIARIES = _words("do does did")
_VERSION_WORDS = _words("version versions release releases postgresql python v")


@dataclass(frozen=True)
class Token:
    """One token of a text: ``norm`` is what alignment compares, ``kind`` whether it is a
    value a contradiction can change (None: an ordinary word), ``text[start:end]`` it."""

    norm: str
    kind: DifferenceKind | None
    start: int
    end: int


@dataclass(frozen=True)
class Difference:
    """What changed between texts ``a`` and ``b``: the changed tokens of each side (their
    surface text) and the stretch of each text that holds them (``start:end``)."""

    kind: DifferenceKind
    kinds: tuple[DifferenceKind, ...]
    tokens_a: tuple[str, ...]
    tokens_b: tuple[str, ...]
    span_a: tuple[int, int]
    span_b: tuple[int, int]


def bigram_dice(a: str, b: str) -> float:
    """Dice over the character bigrams of ``a`` and ``b`` (white space collapsed)."""
    return dice(bigrams(a), bigrams(b))


def dice(first: Counter[str], second: Counter[str]) -> float:
    """Dice over two bigram multisets (``bigrams``): a scan keeps each text's once."""
    total = first.total() + second.total()
    if total == 0:
        return 1.0
    return 2 * (first & second).total() / total


def bigrams(text: str) -> Counter[str]:
    """The character bigrams of ``text``, white space collapsed."""
    squashed = " ".join(text.split())
    return Counter(squashed[i : i + 2] for i in range(len(squashed) - 1))


def difference(a: str, b: str, names: Collection[str] = ()) -> Difference | None:
    """The contradiction between ``a`` and ``b``, or None when they agree. ``names`` are
    numbers that name rather than state (the section numbers of the chunks' headings:
    "37.14. column_options" beside "37.30. foreign_table_options" is two sections)."""
    tokens_a, tokens_b = _named(tokenize(a), names), _named(tokenize(b), names)
    if _values(tokens_a) == _values(tokens_b):  # the same values, as often: nothing changed
        return None
    matcher = SequenceMatcher(
        None, [t.norm for t in tokens_a], [t.norm for t in tokens_b], autojunk=False
    )
    if matcher.ratio() < MIN_ALIGNED:
        return None
    changed: list[tuple[DifferenceKind, list[Token], list[Token]]] = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        # A long stretch replaced is other content (another parameter's description),
        # not the same statement with one value changed.
        if op != "equal" and max(i2 - i1, j2 - j1) <= MAX_STRETCH:
            changed.extend(_changes(_Stretch(tokens_a, i1, i2), _Stretch(tokens_b, j1, j2)))
    if not changed:
        return None
    kinds = tuple(k for k in KINDS if any(kind == k for kind, _, _ in changed))
    side_a = [t for _, ts, _ in changed for t in ts]
    side_b = [t for _, _, ts in changed for t in ts]
    return Difference(
        kind=kinds[0],
        kinds=kinds,
        tokens_a=tuple(dict.fromkeys(a[t.start : t.end] for t in side_a)),
        tokens_b=tuple(dict.fromkeys(b[t.start : t.end] for t in side_b)),
        span_a=_extent(side_a),
        span_b=_extent(side_b),
    )


def tokenize(text: str) -> list[Token]:
    """The text's words, Han characters and values, each value normalised ("1,000" and
    "1000.0" alike; "enabled" and "on" alike), "doesn't" as "does" and "not"."""
    tokens: list[Token] = []
    for match in _TOKEN_RE.finditer(text):
        group, surface = match.lastgroup or "", match.group()
        tokens.extend(_typed(text, group, surface, match.start(), match.end(), tokens))
    return tokens


def _named(tokens: list[Token], names: Collection[str]) -> list[Token]:
    if not names:
        return tokens
    return [
        replace(t, kind=None) if t.kind in ("number", "version") and t.norm in names else t
        for t in tokens
    ]


def _values(tokens: Sequence[Token]) -> Counter[tuple[str, str]]:
    return Counter((t.kind, t.norm) for t in tokens if t.kind is not None)


def _typed(
    text: str, group: str, surface: str, start: int, end: int, before: Sequence[Token]
) -> Iterable[Token]:
    lower = surface.lower()
    if group == "word" and lower.endswith("n't"):
        yield Token(lower[:-3], None, start, end - 3)
        yield Token("not", "negation", end - 3, end)
    elif group == "word":
        yield Token(lower, _word_kind(lower), start, end)
    elif group == "han":
        yield Token(surface, "negation" if surface in _HAN_NEGATIONS else None, start, end)
    elif group in ("number", "version") and _glued(text, start):
        yield Token(lower, None, start, end)  # "int4", "template1": part of a name
    elif group == "number":
        yield Token(_number(surface), _number_kind(before), start, end)
    elif group == "version":
        yield Token(lower.lstrip("v"), _version_kind(before), start, end)
    else:
        yield Token(lower, "date", start, end)


def _word_kind(word: str) -> DifferenceKind | None:
    if word in _SETTINGS:
        return "setting"
    if word in _NEGATIONS:
        return "negation"
    return "date" if word in _MONTHS else None


def _glued(text: str, start: int) -> bool:
    """Whether a number starts right after a letter: an identifier's digits, not a value
    (a unit after a number, "64kB", keeps it a value)."""
    return start > 0 and text[start - 1].isalpha() and text[start - 1].isascii()


def _version_kind(before: Sequence[Token]) -> DifferenceKind | None:
    return None if before and before[-1].norm in _LABELS else "version"  # "Section 38.16.5"


def _number_kind(before: Sequence[Token]) -> DifferenceKind | None:
    # A year alone stays a number: "2000 files" and "in 2021" read alike to a regex.
    previous = before[-1].norm if before else ""
    if previous in _LABELS:  # "Table 37.12", "Figure 3": a caption's number names it
        return None
    return "version" if previous in _VERSION_WORDS else "number"


def _number(surface: str) -> str:
    try:
        return str(Decimal(surface.replace(",", "")).normalize())
    except InvalidOperation:  # the pattern admits only digits: kept as written to be safe
        return surface


@dataclass(frozen=True)
class _Stretch:
    """Tokens ``start:end`` of one side's ``tokens``: a stretch the alignment did not match."""

    tokens: Sequence[Token]
    start: int
    end: int

    @property
    def part(self) -> Sequence[Token]:
        return self.tokens[self.start : self.end]

    def shown(self, kind: DifferenceKind) -> list[Token]:
        """The stretch's tokens of ``kind``; else (a negation the other side added) the
        stretch itself, or the token before where nothing is on this side."""
        found = _of(self.part, kind)
        if found or self.part:
            return found or list(self.part)
        return [self.tokens[self.start - 1]] if self.start > 0 else []


def _changes(a: _Stretch, b: _Stretch) -> Iterable[tuple[DifferenceKind, list[Token], list[Token]]]:
    """The contradictions inside one stretch that is not the same on both sides."""
    for kind in KINDS:
        if kind == "negation":
            here = _negated(a.part) != _negated(b.part) and _affirmed(a) == _affirmed(b)
            if here and _negated(a.tokens) != _negated(b.tokens):
                yield kind, a.shown(kind), b.shown(kind)
            continue
        # A value "changed" only when each side states it more often than the other: a
        # moved number is a paraphrase's reordering, not a contradiction.
        counts_a, counts_b = _counts(a.tokens, kind), _counts(b.tokens, kind)
        new_a = [t for t in _of(a.part, kind) if counts_a[t.norm] > counts_b[t.norm]]
        new_b = [t for t in _of(b.part, kind) if counts_b[t.norm] > counts_a[t.norm]]
        if new_a and new_b:
            yield kind, new_a, new_b


def _of(tokens: Sequence[Token], kind: DifferenceKind) -> list[Token]:
    return [t for t in tokens if t.kind == kind]


def _counts(tokens: Sequence[Token], kind: DifferenceKind) -> Counter[str]:
    return Counter(t.norm for t in tokens if t.kind == kind)


def _affirmed(stretch: _Stretch) -> list[str]:
    """The stretch without its negations and auxiliaries, crudely stemmed: a negation
    counts only where it is all that changed ("does not support" against "supports"),
    never when other words changed too ("Prevents issuing" against "Never issue")."""
    kept = (t.norm for t in stretch.part if t.kind != "negation" and t.norm not in _AUXILIARIES)
    return [word.removesuffix("s") for word in kept]


def _negated(tokens: Sequence[Token]) -> int:
    return sum(t.kind == "negation" for t in tokens)


def _extent(tokens: Sequence[Token]) -> tuple[int, int]:
    if not tokens:
        return (0, 0)
    return (min(t.start for t in tokens), max(t.end for t in tokens))
