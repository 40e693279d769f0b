"""The bilingual lexicon: what a Chinese text's words mean in English, and which Chinese
words an English text's words may be written as (pure over the shipped table).

The table (``lexicon.tsv.gz``, ~1.1 MB) is CC-CEDICT (MDBG, CC BY-SA 4.0) reduced by
``scripts/lexicon_table.py``: each Simplified headword with the stemmed English content
words of its short glosses, as ``tokens.key_terms`` stems them. A Chinese text is read on
its Simplified image (``text/simplified``), so Traditional and Simplified text find the
same words; its dictionary words are cut by longest match over the headwords. It is read
once, at the first question asked across languages (``english_of`` / ``chinese_of``): a
question in its documents' language never loads it.

A *rendering* of a question word is the set of terms it may be written as in the other
language (English stems for a Chinese word, Chinese headwords for an English word); a
text holds the word when its ``rendered_terms`` meet that set.
"""

from __future__ import annotations

import functools
import gzip
import re
import sys
from collections import defaultdict
from dataclasses import dataclass
from importlib.resources import files

from askalong.text.scripts import HAN
from askalong.text.simplified import simplified
from askalong.text.tokens import CHINESE_STOP_WORDS, han_words, key_terms

_HAN_RUN = re.compile(f"[{HAN}]+")


@dataclass(frozen=True)
class Lexicon:
    """Headword -> its English stems; ``longest``: the longest headword's length. Tuples
    of interned strings, not sets: both tables then hold ~12 MB resident, not ~78."""

    english: dict[str, tuple[str, ...]]
    longest: int

    @functools.cached_property
    def chinese(self) -> dict[str, tuple[str, ...]]:
        """English stem -> the headwords whose glosses hold it (built at the first
        English question asked across languages)."""
        heads: dict[str, list[str]] = defaultdict(list)
        for head, stems in self.english.items():
            for stem in stems:
                heads[stem].append(head)
        return {stem: tuple(found) for stem, found in heads.items()}


@functools.cache
def lexicon() -> Lexicon:
    """The shipped table, read once."""
    raw = files("askalong.text").joinpath("lexicon.tsv.gz").read_bytes()
    english: dict[str, tuple[str, ...]] = {}
    for line in gzip.decompress(raw).decode("utf-8").splitlines():
        if line and not line.startswith("#"):
            head, stems = line.split("\t")
            english[head] = tuple(sys.intern(stem) for stem in stems.split())
    return Lexicon(english, max(map(len, english)))


def dictionary_words(han: str) -> list[str]:
    """A run of Han characters cut into headwords by longest match from the left (a
    character no headword starts stays alone); read on its Simplified image."""
    table, run, out, at = lexicon(), simplified(han), [], 0
    while at < len(run):
        size = next(
            (n for n in range(min(table.longest, len(run) - at), 1, -1)
             if run[at : at + n] in table.english),
            1,
        )  # fmt: skip
        out.append(run[at : at + size])
        at += size
    return out


def english_of(text: str) -> set[frozenset[str]]:
    """The renderings of a Chinese text's content words: per dictionary word of two
    characters or more (no stop word), the English stems its glosses hold. A single
    character glosses as too many words (下: down, next, below, later …): with them the
    sentence that answers a DEV question held the most translated words in 58 of 213
    groups, without them in 70."""
    english = lexicon().english
    words = (w for run in _HAN_RUN.findall(text) for w in dictionary_words(run))
    kept = (w for w in words if len(w) > 1 and w not in CHINESE_STOP_WORDS)
    return {frozenset(english[w]) for w in kept if w in english}


def chinese_of(text: str) -> set[frozenset[str]]:
    """The renderings of an English text's content words: per stemmed word, the Chinese
    headwords whose glosses hold it."""
    chinese = lexicon().chinese
    return {frozenset(chinese[t]) for t in key_terms(text) if t in chinese}


def renderings(text: str, language: str) -> set[frozenset[str]]:
    """The renderings of a question's words in the other language than its own
    (``language``: "zh" or "en")."""
    return english_of(text) if language == "zh" else chinese_of(text)


def rendered_terms(text: str) -> frozenset[str]:
    """What a rendering is matched against in ``text``: its English stems, and the
    headwords its Han runs hold (every span of two characters or more that is one, and
    the segmenter's words of its Simplified image)."""
    table = lexicon()
    found = set(key_terms(text))
    for run in _HAN_RUN.findall(simplified(text)):
        found.update(han_words(run))
        for size in range(2, min(table.longest, len(run)) + 1):
            found.update(
                span
                for span in (run[at : at + size] for at in range(len(run) - size + 1))
                if span in table.english
            )
    return frozenset(found)
