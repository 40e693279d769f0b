"""Which words of a selection are terms worth explaining (pure).

A reader asks to have a document's own terms explained: noun phrases it uses again
("negative examples", "literature graph", "锥度系数"), names and acronyms ("SciBERT",
"MAG"), symbols of a formula. Never a common verb, adjective or noun on its own
("consider", "sets", "得到"): naming those as what "the document does not define" reads
as nonsense. Without a tagger, a phrase is a run of content words (no stop word, no
punctuation between them) that occurs in another passage of the document too; a single
word counts when its form says it is a name (capitals, digits, an underscore, a capital
inside a sentence, a Latin word in Chinese text) or it is a long Chinese word; a long
plain word ("granularity") only where the document rarely uses it, and it is never
named to the reader as undefined (``printable``).

``words`` is the plain split (content words, no stop words) that other uses keep:
the other side of a comparison question.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from askalong.context.definitions import is_acronym, mention_key
from askalong.text.tokens import CHINESE_STOP_WORDS, ENGLISH_STOP_WORDS, han_words

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9\-_]*[A-Za-z0-9]|[A-Za-z]|[\u3400-\u9fff]+")
_HAN = re.compile(r"[\u3400-\u9fff]")
_LINE_BREAK = re.compile(r"([A-Za-z])- ([A-Za-z])")
_JOINING = re.compile(r"[ \t\-]*")  # what may stand between two words of one phrase
# the document's own signposts: what cues an example or a contrast is never the term
_CUE_WORDS = "note unlike whereas instead although example instance including include includes"
_GENERIC_WORDS = (
    "also use used using show shows shown well more most many much first second one two "
    "three new based given each other however thus which paper work approach method "
    "使用 可以 进行 通过 采用 基于 具有 利用 需要 得到 给出 一种 主要 其他 不同 本文"
)
GENERIC = frozenset(_GENERIC_WORDS.split() + _CUE_WORDS.split())
_LONGEST = 3  # words in a phrase
_LONG_HAN = 4  # characters of a Chinese word that is a term on its own
_PLAIN_MIN = 6  # letters of a plain word that may still be a term


def words(text: str) -> list[str]:
    """The content words of ``text``: no stop words, no generic ones; a one letter
    symbol only in a formula or a "where d is …" clause."""
    mathy = _mathy(text)
    out: list[str] = []
    for word, _, _ in _tokens(_LINE_BREAK.sub(r"\1\2", text)):
        if _HAN.match(word) or _latin_word(word, mathy):
            out.append(word)
    return out


def candidates(text: str, lowered: Sequence[str]) -> list[str]:
    """The terms of ``text`` to explain, phrases first: runs of content words that recur
    in ``lowered`` (the document's passages, lower-cased), then single words that look
    like names or symbols. ``lowered`` holds the selection's own passage too."""
    text = _LINE_BREAK.sub(r"\1\2", text)  # "SCI- DOCS", a word cut at a line end
    mathy = _mathy(text)
    found: list[str] = []
    covered: set[str] = set()
    for run in _runs(text, mathy):
        for phrase, parts in _phrases(run, lowered):
            found.append(phrase)
            covered.update(parts)
    han_text = _HAN.search(text) is not None
    for word in words(text):
        if _name_like(word, text, mathy, han_text):
            found.append(word)  # a name inside a phrase is a term of its own too
        elif word not in covered and plain_word(word):
            found.append(word)
    return list(dict.fromkeys(found))


def plain_word(word: str) -> bool:
    """A long lower-case word with no adverb or verb ending ("granularity", not
    "consider"'s kin "considered"): a term only where the document uses it rarely."""
    return (
        word.isascii()
        and word.isalpha()
        and word.islower()
        and len(word) >= _PLAIN_MIN
        and not word.endswith(("ly", "ed", "ing"))
    )


def printable(term: str, text: str) -> bool:
    """Whether ``term`` may be named to the reader as one the document does not define:
    a phrase, a name or a symbol, never a plain word."""
    if " " in term or (_HAN.match(term) and len(term) >= _LONG_HAN):
        return True
    if _HAN.match(term):
        return False
    return _name_like(term, text, _mathy(text), _HAN.search(text) is not None)


def _mathy(text: str) -> bool:
    return "=" in text or re.match(r"\W*where\b", text, re.IGNORECASE) is not None


def _tokens(text: str) -> list[tuple[str, int, int]]:
    """Latin words and jieba's Chinese words, with their offsets."""
    out = []
    for match in _WORD.finditer(text):
        word, at = match.group(), match.start()
        if not _HAN.match(word):
            out.append((word, at, match.end()))
            continue
        for piece in han_words(word):
            out.append((piece, at, at + len(piece)))
            at += len(piece)
    return out


def _content(word: str, mathy: bool) -> bool:
    if _HAN.match(word):
        return len(word) >= 2 and word not in CHINESE_STOP_WORDS and word not in GENERIC
    return _latin_word(word, mathy)


def _runs(text: str, mathy: bool) -> list[list[str]]:
    """Runs of adjacent content words (only spaces or a hyphen between them)."""
    runs: list[list[str]] = []
    current: list[str] = []
    last_end = -1
    for word, start, end in _tokens(text):
        joined = last_end >= 0 and _JOINING.fullmatch(text[last_end:start]) is not None
        if not _content(word, mathy) or not joined:
            if len(current) > 1:
                runs.append(current)
            current = []
        if _content(word, mathy):
            current.append(word)
        last_end = end
    if len(current) > 1:
        runs.append(current)
    return runs


def _phrases(run: list[str], lowered: Sequence[str]) -> list[tuple[str, list[str]]]:
    """The longest sub-runs of ``run`` (two or three words, not opening or closing on an
    adverb or a participle) that occur in two passages or more, without overlaps."""
    out: list[tuple[str, list[str]]] = []
    taken = [False] * len(run)
    for size in range(min(_LONGEST, len(run)), 1, -1):
        for at in range(len(run) - size + 1):
            parts = run[at : at + size]
            if any(taken[at : at + size]) or not _nounish(parts):
                continue
            glue = "" if _HAN.match(parts[0]) else " "
            phrase = glue.join(parts)
            key = mention_key(phrase)
            if sum(1 for low in lowered if key in low) >= 2:
                out.append((phrase, parts))
                taken[at : at + size] = [True] * size
    return out


def _nounish(parts: Sequence[str]) -> bool:
    """A phrase that can be a noun phrase: no adverb at either end, no verb form last."""
    first, last = parts[0].lower(), parts[-1].lower()
    if _HAN.match(first):
        return True
    if first.endswith("ly") or last.endswith("ly"):
        return False
    return not last.endswith(("ed", "ing"))


def _latin_word(word: str, mathy: bool) -> bool:
    lower = word.lower()
    if lower in ENGLISH_STOP_WORDS or lower in GENERIC:
        return False
    if len(word) == 1:
        return mathy and lower not in ("a", "i")
    return len(word) >= 3 or is_acronym(word)


def _name_like(word: str, text: str, mathy: bool, han_text: bool) -> bool:
    """A single word that is a term by its form alone."""
    if _HAN.match(word):
        return len(word) >= _LONG_HAN
    if len(word) == 1:
        return mathy
    if is_acronym(word) or any(c.isdigit() or c == "_" for c in word) or han_text:
        return True
    return word[:1].isupper() and capitalised_inside(word, text)


def capitalised_inside(term: str, text: str) -> bool:
    """Whether ``term`` occurs capitalised somewhere other than a sentence's start."""
    for match in re.finditer(rf"\b{re.escape(term)}\b", text):
        before = text[max(0, match.start() - 8) : match.start()].rstrip(' \t"“‘(')
        if before and before[-1] not in ".!?:;\n":
            return True
    return False
