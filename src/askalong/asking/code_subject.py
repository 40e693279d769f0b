"""Which definition of a repository a question in a reader's words is about (pure):
"which call reads a value without making it count as recently used?" names no
identifier, yet one function's lines and doc comment hold its words.

Every block of the repository (a function, a class, a file's top-level lines) is a
document, its terms its words and identifier parts (``code_lines.line_terms``), its
name's parts counted once more, and, when the question writes an identifier, the pairs of
adjacent terms that identifier is made of (``_phrases``); the blocks are ranked by BM25
(Robertson et al.; k1 1.2, b 0.75, as Lucene). ``coverage`` is how much of the question
the best block holds: the inverse document frequencies of the question's terms (single
terms, not pairs) it holds over those of all its terms, a term no block holds weighing
as the rarest. A question about what the code
lacks ("does it keep caches on disk?") is covered little, and refused.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import PurePosixPath

from askalong.asking.code_lines import K1, B, idf, line_terms, term_list
from askalong.context.code_graph import Repository
from askalong.context.code_places import Place, SourceFile
from askalong.parse.code.file_names import is_code_name
from askalong.question.code_asks import named_identifiers

NAME_BONUS = 2  # a definition named in the question's words: two of its rarest terms
COUNTED_BLOCKS = 50_000  # blocks whose counts are kept: about 1 MB per 2,000 blocks
# An object's own name: ``self.m`` is a member, never a file ``self.m`` (Objective-C).
_RECEIVERS = frozenset({"self", "this", "cls", "super"})
NEXT_BLOCKS = 3  # besides the best: a default set elsewhere (``DefaultInitialInterval``)
TEST_WEIGHT = 0.5  # a test's block, against the code it tests
TEST_WORDS = frozenset({"test", "tests", "testing", "tested", "spec", "specs"}) | frozenset(
    {"测试", "測試"}
)
# A test's file, folder or name in any language's convention: ``test_x.py``,
# ``x_test.go``, ``x.test.js``, ``x.spec.ts``, ``tests/``, ``mod tests``, ``TestParse``.
_TEST_PART = re.compile(r"(?:^|[_.-])(?:tests?|specs?)(?:[_.-]|$)|^Test[A-Z_]|^__tests__$")


@dataclass(frozen=True)
class Subject:
    """The best block for a question, how much of the question it holds (0 to 1), and
    the next best blocks (``NEXT_BLOCKS`` at most) that hold any of it."""

    place: Place
    coverage: float
    next_best: tuple[Place, ...] = ()


def best_subject(places: Sequence[Place], question: str) -> Subject | None:
    """The place among ``places`` whose block holds the question's terms best (BM25),
    a block the question names in words (``named_in_words``) as if it held
    ``NAME_BONUS`` terms found nowhere else; None when none holds any."""
    words = line_terms(question)
    phrases = _phrases(question)
    wanted = words | phrases
    counts = [_counts(p) + _pair_counts(p.block.text) if phrases else _counts(p) for p in places]
    weights = idf(frozenset(c) for c in counts)
    average = sum(c.total() for c in counts) / max(len(counts), 1)
    names = named_in_words(question)
    bonus = NAME_BONUS * max(weights.values(), default=0.0)
    tests_asked = bool(words & TEST_WORDS)
    scored = sorted(
        (
            (
                _bm25(c, wanted, weights, average) * _test_weight(p, tests_asked)
                + (bonus if _named(p, names) else 0.0),
                -i,
            )
            for i, (p, c) in enumerate(zip(places, counts, strict=True))
        ),
        reverse=True,
    )
    found = [-i for score, i in scored if score > 0]
    if not found:
        return None
    best, rest = found[0], tuple(places[i] for i in found[1 : NEXT_BLOCKS + 1])
    if _named(places[best], names):  # named: what it holds is what was asked
        return Subject(places[best], 1.0, rest)
    asked = words - _repository_terms(places)
    if not any(t.isascii() for t in asked):  # "git flow 的版本号": the name is its code words
        asked = words
    return Subject(places[best], _coverage(asked, frozenset(counts[best]), weights), rest)


def _phrases(question: str) -> frozenset[str]:
    """Each identifier the question writes (``.git/gitflow_config``, ``SecondOptional``)
    as the pairs of its adjacent terms (``gitflow config``, ``second optional``): a
    block writing them side by side holds that name, one holding the words apart does
    not (term dependence: Metzler and Croft 2005's ordered pairs). Only identifiers
    make pairs: two plain words a reader writes side by side are no name."""
    pairs = (pairwise(term_list(name)) for name in named_identifiers(question))
    return frozenset(f"{a} {b}" for pair in pairs for a, b in pair)


@functools.lru_cache(maxsize=COUNTED_BLOCKS)
def _pair_counts(text: str) -> Counter[str]:
    """A block's adjacent term pairs (``_phrases``): its name's are in its text."""
    terms = term_list(text)
    return Counter(f"{a} {b}" for a, b in pairwise(terms))


def _repository_terms(places: Sequence[Place]) -> frozenset[str]:
    """The terms of the folder all the files lie in, the repository's name (``rainbow``):
    a question says it to name the project ("how do I use rainbow to …"), never as what
    it asks of a block; a block holding it covers nothing of the question by it."""
    folders = {PurePosixPath(p.file.source.replace("\\", "/")).parent.parts for p in places}
    common = functools.reduce(_common_prefix, folders) if folders else ()
    return line_terms(common[-1]) if common else frozenset()


def _common_prefix(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, ...]:
    same = 0
    while same < min(len(a), len(b)) and a[same] == b[same]:
        same += 1
    return a[:same]


def _test_weight(place: Place, tests_asked: bool) -> float:
    """A test's block (``test_parse``, ``mod tests``, ``lexer_test.go``, ``tests/``)
    holds the words of what it tests beside assertions: it answers a question only when
    the question asks about tests, and otherwise weighs ``TEST_WEIGHT``."""
    if tests_asked:
        return 1.0
    parts = [*PurePosixPath(place.file.source.replace("\\", "/")).parts, *place.qualname]
    return TEST_WEIGHT if any(_TEST_PART.search(p) for p in parts) else 1.0


def file_names(identifiers: Sequence[str]) -> tuple[str, ...]:
    """The names a question writes as identifiers that are source files' (``func.py``,
    ``spt_status.c``: one word and a source file's ending, never ``self.x``): where to
    look, not what to find."""
    return tuple(n for n in identifiers if _is_file_name(n))


def _is_file_name(name: str) -> bool:
    stem, dot, _ = name.rpartition(".")
    return bool(dot) and "." not in stem and stem not in _RECEIVERS and is_code_name(name)


def in_files(places: Sequence[Place], files: Sequence[str]) -> list[Place]:
    """The places of the files a question names (``func.py``: by its name, or its path's
    end, ``cachetools/func.py``); all of them when it names none the repository has."""
    named = [p for p in places if any(_is_file(p.file, f) for f in files)]
    return named or list(places)


def _is_file(file: SourceFile, name: str) -> bool:
    path = file.source.replace("\\", "/")
    return path == name or path.endswith(f"/{name}") or file.where == name


def all_places(repository: Repository) -> list[Place]:
    """Every block of the repository, as a place."""
    return [Place(file, block) for file in repository.files for block in file.blocks]


def _counts(place: Place) -> Counter[str]:
    """The block's terms with their counts, its name's terms once more (read-only:
    shared between questions, ``_text_counts``)."""
    return _text_counts(f"{place.block.text}\n{' '.join(place.qualname[-1:])}")


@functools.lru_cache(maxsize=COUNTED_BLOCKS)
def _text_counts(text: str) -> Counter[str]:
    """Stemming a repository's every block takes half a second a megabyte of code: a
    block is counted once while the process runs, not once a question."""
    return Counter(term_list(text))


def _bm25(
    counts: Counter[str], wanted: frozenset[str], weights: dict[str, float], average: float
) -> float:
    length = counts.total() / average if average else 1.0
    score = 0.0
    for term in wanted & counts.keys():
        tf = counts[term]
        score += weights[term] * tf * (K1 + 1) / (tf + K1 * (1 - B + B * length))
    return score


def _coverage(wanted: frozenset[str], held: frozenset[str], weights: dict[str, float]) -> float:
    """Code is written in Latin letters: a Chinese question's Chinese words are not what
    it lacks (``WithMaxRetries 是怎么限制重试次数的``), unless they are all it has."""
    wanted = frozenset(t for t in wanted if t.isascii()) or wanted
    rarest = max(weights.values(), default=1.0)
    total = math.fsum(weights.get(t, rarest) for t in wanted)  # exact: set order varies
    return math.fsum(weights[t] for t in wanted & held) / total if total else 0.0


def named_in_words(question: str) -> tuple[frozenset[str], frozenset[str]]:
    """The names a question may write as words: each word as written ("naturalsize",
    "Cache": a lower-case "cache" is a word, not the class), and each two words joined,
    lower-cased ("the LFU cache" → ``lfucache``, which ``LFUCache`` is, case aside)."""
    words = ["".join(c for c in w if c.isalnum()) for w in question.replace("-", " ").split()]
    words = [w for w in words if w.isascii() and w]
    return frozenset(words), frozenset("".join(pair).lower() for pair in pairwise(words))


def _named(place: Place, names: tuple[frozenset[str], frozenset[str]]) -> bool:
    name = "".join(c for c in place.qualname[-1] if c.isalnum()) if place.qualname else ""
    words, joined = names
    return bool(name) and (name in words or name.lower() in joined)


# The least coverage a question naming no definition needs to be answered, chosen on the
# development sets' code items (``benchmarks/code_answers_unseen.py``).
COVERAGE_FLOOR = 0.1
