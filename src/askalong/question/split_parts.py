"""A question's independent parts (pure): where the asker joined two questions with
``。；;``, "and also", ", and <question word>", "还有", "以及", "顺便" or a question
mark. Each part is searched and answered on its own; a question with no such join is one
part. A later part that names no subject of its own ("and what does it default to?") is
searched with the subject of the part before it (``searched_parts``); a part that asks
for the knowledge base's counts is answered from them (``stats_asks``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from askalong.question.form import GENERIC_TERMS
from askalong.question.leaning import refers_back
from askalong.question.stats_asks import asks_stats
from askalong.question.traditional import written_at
from askalong.text.patterns import lazy
from askalong.text.tokens import key_terms

# "以及" joins two nouns as often as two questions: it splits only where a question mark
# or a clause already ended the first part, or when both sides are long enough to stand.
# ", and" joins two questions when a question word or an auxiliary opens what follows
# ("What does X set, and what is its default?"), never two nouns ("X, and Y").
_JOINS = lazy(
    r"[。；;?？]+|\s*,?\s*\band also\b\s*|[，,]?\s*(?:还有|顺便(?:问一下|问问|说一下)?)\s*"
    r"|\s*,\s*and\s+(?=(?:what|how|why|when|where|which|who|whom|whose|is|are|does|do|did"
    r"|can|could|should|will|would)\b)",
    re.IGNORECASE,
)
_ALSO_CHINESE = lazy(r"[，,]?\s*以及\s*")
MIN_PART_CHARS = 4  # a shorter remainder ("ok?") is not a question of its own
MAX_PARTS = 6


@dataclass(frozen=True)
class QuestionPart:
    """One part as asked (``text``), as searched and answered (``searched``: with the
    subject of the part before put in when it names none), and whether it asks for the
    knowledge base's counts (``asks_stats``, read on the part as asked)."""

    text: str
    searched: str
    asks_stats: bool


def read_parts(text: str, plain_text: str | None = None) -> tuple[QuestionPart, ...]:
    """The parts of ``text``, each read; ``plain_text`` is how it is read (its
    Traditional question words made Simplified, ``question/traditional``): that is split
    and read, and each part kept as ``text`` writes it."""
    read = text if plain_text is None else plain_text
    parts = question_parts(read)
    searched = searched_parts(parts)
    written, at = [], 0
    for part in parts:
        as_written, at = written_at(part, text, read, at)
        written.append(as_written)
    return tuple(
        QuestionPart(own, own if query == part else query, asks_stats(part))
        for own, part, query in zip(written, parts, searched, strict=True)
    )


def question_parts(text: str) -> tuple[str, ...]:
    """The parts of ``text`` in order, each stripped and keeping its question mark; the
    whole text when it has one part."""
    pieces = [p for chunk in _joined_pieces(text) for p in _split_also(chunk)]
    parts = [_tidy(p) for p in pieces if len(_tidy(p).rstrip("?？")) >= MIN_PART_CHARS]
    if len(parts) <= 1:
        return (text.strip(),)
    if len(parts) > MAX_PARTS:  # the rest is asked as one last part
        parts = [*parts[: MAX_PARTS - 1], " ".join(parts[MAX_PARTS - 1 :])]
    return tuple(parts)


def _joined_pieces(text: str) -> list[str]:
    """``text`` cut at each join; a question mark stays with the part it ends."""
    pieces, start = [], 0
    for match in _JOINS.finditer(text):
        mark = next((c for c in match.group() if c in "?？"), "")
        pieces.append(text[start : match.start()] + mark)
        start = match.end()
    pieces.append(text[start:])
    return pieces


def _split_also(chunk: str) -> list[str]:
    sides = _ALSO_CHINESE.split(chunk)
    if len(sides) == 2 and all(len(s.strip()) > MIN_PART_CHARS for s in sides):
        return sides
    return [chunk]


_OPENING_JOIN = lazy(r"^(?:and|also|然后|另外)\s*", re.IGNORECASE)


def _tidy(part: str) -> str:
    return _OPENING_JOIN.sub("", part.strip(" \t\n,，、:：")).strip()


# -- a part that leans on the one before: searched with that part's subject ----------------

_WH = lazy(
    r"^\W*(?:what|how|why|when|where|which|who)\b(?:\s+(?:big|large|many|much|long|often))?"
    r"\s+(?P<aux>does|do|did|is|are|was|were|can|could|should|would|will|has|have)\s+"
    r"(?P<rest>.+?)\W*$",
    re.IGNORECASE,
)
_ARTICLE = lazy(r"^(?:an?|the)\s+", re.IGNORECASE)
_ASKED_TAIL = lazy(r"\s+(?:used\s+for|used|for|mean|do|stand\s+for)$", re.IGNORECASE)
_VERB_AUX = frozenset({"does", "do", "did", "can", "could", "should", "would", "will"})
_NAMED = lazy(r"[A-Z_0-9]")  # a word that names: shared_buffers, ANALYZE, TraceMonkey
_PREPOSITION = lazy(r"\s+(?:in|of|as|at|for|on|with|to|from|by|into|when)\b.*$", re.I)
_POINTER = lazy(r"\b(?:it|its|they|them|their|one)\b", re.IGNORECASE)
# Words that ask for a property of something named before ("what is the typical default?"):
# a part whose subject holds nothing else names no subject of its own.
_ATTRIBUTES = frozenset(
    key_terms("default defaults value setting typical maximum minimum size unit limit range")
)


def part_subject(part: str) -> str:
    """What an English part asks about, in its own words: "What does shared_buffers
    set?" -> "shared_buffers", "What is a savepoint?" -> "savepoint", "How big is the
    literature graph?" -> "literature graph"; "" when it is not read so (Chinese too)."""
    found = _WH.match(part.strip())
    if found is None:
        return ""
    rest = _ASKED_TAIL.sub("", _ARTICLE.sub("", found["rest"].strip()))
    if found["aux"].lower() in _VERB_AUX:  # "does X <verb> ...": X before its verb
        rest = _before_verb(rest.split())
    return rest.strip()


def _before_verb(words: list[str]) -> str:
    named = []
    for word in words:
        if not _NAMED.search(word) or word == "I":
            break
        named.append(word)
    if named:
        return " ".join(named)
    # lower-case words: the verb ends them ("citation recall determine", "... identify in X")
    words = _PREPOSITION.sub("", " ".join(words)).split()
    return " ".join(words[:-1]) if len(words) > 1 else " ".join(words)


def own_subject(part: str) -> bool:
    """Whether ``part`` names what it asks about (no "it", not only "the default")."""
    if refers_back(part):
        return False
    subject = part_subject(part)
    if any(_NAMED.search(word) for word in subject.split()):
        return True  # written as a name ("the LIMIT clause"), never a bare attribute
    terms = key_terms(subject or part)
    return bool(terms - _ATTRIBUTES - GENERIC_TERMS)


def searched_parts(parts: Sequence[str]) -> tuple[str, ...]:
    """Each part as it is searched and answered: a later part that leans on an earlier
    one ("And also what does it default to?") with the nearest earlier subject put in
    ("what does shared_buffers default to?"); the others as asked."""
    out, subject = [], ""
    for part in parts:
        if own_subject(part):
            subject = part_subject(part) or subject
            out.append(part)
        else:
            out.append(with_subject(part, subject) if subject else part)
    return tuple(out)


def with_subject(part: str, subject: str) -> str:
    """``part`` with its first pointing word ("it", "its", "one") as ``subject``, or
    ``subject`` added at its end when it has none."""
    if _POINTER.search(part):
        return _POINTER.sub(subject, part, count=1)
    return f"{part.rstrip(' ?？')} of {subject}?"
