"""Sections as a search unit of their own: titles, a document's index pages, section scores.

Pure helpers of the keyword route (``index/keyword.py``):

- ``section_text``: what the ``section`` field indexes for a chunk, its document's title
  and its section path (a manual's page title is where a chapter is named; the path alone
  often holds only the page's sub-headings).
- ``title_keys``: the exact keys a section answers to when an index or glossary page
  points at it: each title lower-cased without its numbering ("13.2. Transaction
  Isolation" -> "transaction isolation") and the numbering itself ("#13.2").
- ``is_index_page`` / ``index_pointers``: a document (or a PDF part) titled Index, 索引,
  Glossary or 术语表 maps terms to sections: an entry line is "term, Target Title, Target
  Title" (a back-of-book index as HTML renders it) or holds "see Section 9.21" (a
  glossary). A question whose terms cover an entry's term is pointed at its targets.
- ``section_scores``: each hit inherits part of its section's score, the best
  scores of its sibling chunks (which include their title match), so a section where
  several chunks match outranks one chunk that happens to repeat a word.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass

INDEX_TITLES = frozenset({"index", "索引", "glossary", "术语表", "術語表", "词汇表", "詞彙表"})
# "13.2.", "Chapter 13.", "Appendix M.", "Part IV.", "第3章": the numbering of a title.
_LABEL = r"(?:[0-9]+|[A-Z]|[IVXL]+)(?:\.[0-9]+)*"
_NUMBERING = re.compile(
    rf"^\s*(?:(?:chapter|appendix|part|section)\s+({_LABEL})\.?|({_LABEL})\.)\s+(?=\S)",
    re.IGNORECASE,
)
_CJK_NUMBERING = re.compile(r"^\s*第\s*([0-9一二三四五六七八九十百]+)\s*[章节節部分篇]\s*")
# A glossary's pointer: "see Section 9.21", "Chapter 13", "参见第 5 章".
_POINTER = re.compile(
    r"(?:section|chapter|appendix)\s+([0-9A-Z]+(?:\.[0-9]+)*)|第\s*([0-9]+)\s*[章节節]",
    re.IGNORECASE,
)
NUMBER_MARK = "#"
GLOSSARY_TERM_TOKENS = 6  # a glossary term is a short line; its definition is longer
_PARENTHESES = re.compile(r"\([^)]*\)")  # "Aggregate function (routine)": the kind


def normal_title(title: str) -> str:
    """``title`` NFKC, lower-cased, without its numbering, spaces collapsed."""
    text = unicodedata.normalize("NFKC", title)
    text = _CJK_NUMBERING.sub("", _NUMBERING.sub("", text, count=1), count=1)
    return " ".join(text.lower().split()).strip(" .:")


def title_number(title: str) -> str | None:
    """The numbering of ``title`` ("13.2. Transaction Isolation" -> "13.2"), if any."""
    text = unicodedata.normalize("NFKC", title)
    found = _NUMBERING.match(text) or _CJK_NUMBERING.match(text)
    if found is None:
        return None
    return next(group for group in found.groups() if group).upper()


def section_titles(title: str, section_path: Sequence[str]) -> list[str]:
    """The titles a chunk sits under: its document's, then its section path's."""
    return [t for t in dict.fromkeys((title, *section_path)) if t.strip()]


def section_text(title: str, section_path: Sequence[str]) -> str:
    """The text the ``section`` field indexes for a chunk."""
    return "\n".join(section_titles(title, section_path))


def title_keys(title: str, section_path: Sequence[str]) -> list[str]:
    """The exact keys an index entry or a glossary pointer may name this chunk by."""
    keys: list[str] = []
    for text in section_titles(title, section_path):
        keys.append(normal_title(text))
        number = title_number(text)
        if number is not None:
            keys.append(NUMBER_MARK + number)
    return [key for key in dict.fromkeys(keys) if key]


def is_index_page(title: str, section_path: Sequence[str]) -> bool:
    """Whether a chunk belongs to its document's index or glossary."""
    return any(normal_title(text) in INDEX_TITLES for text in (title, *section_path[:1]))


# ----------------------------------------------------------------------------- pointers


@dataclass(frozen=True)
class Pointer:
    """An index entry the question matched: the sections it names, and how well."""

    term: str
    targets: tuple[str, ...]  # title keys (``title_keys``)
    weight: float  # the share of the question's terms the entry's term covers


def index_pointers(
    text: str, question_terms: Iterable[str], tokens: Callable[[str], list[str]]
) -> list[Pointer]:
    """The entries of an index page's ``text`` whose whole term is among
    ``question_terms``, with the sections they point to. ``tokens`` is the route's
    tokeniser, so an entry and the question are compared as the index compares them."""
    asked = set(question_terms)
    if not asked:
        return []
    out: list[Pointer] = []
    lines = text.splitlines()
    for at, line in enumerate(lines):
        term, targets = _entry(line, _glossary_term(lines[max(0, at - 3) : at], tokens))
        if not targets:
            continue
        words = set(tokens(_PARENTHESES.sub(" ", term)))
        if words and words <= asked:
            out.append(Pointer(term, targets, len(words) / len(asked)))
    return out


def _glossary_term(before: Sequence[str], tokens: Callable[[str], list[str]]) -> str:
    """The nearest short line before a glossary pointer: the term it defines (the
    definition sits between them)."""
    for line in reversed(before):
        if 0 < len(tokens(line)) <= GLOSSARY_TERM_TOKENS:
            return line
    return ""


def _entry(line: str, term_before: str) -> tuple[str, tuple[str, ...]]:
    """(term, target keys) of one line: "term, Title, Title", or a glossary line
    pointing at a numbered section (its term the short line before it)."""
    numbers = [a or b for a, b in _POINTER.findall(line)]
    if numbers:
        return term_before, tuple(NUMBER_MARK + n.upper() for n in numbers)
    head, _, rest = line.partition(", ")
    if not rest:
        return "", ()
    targets = tuple(key for part in rest.split(", ") if (key := normal_title(part)))
    return head, targets


# ----------------------------------------------------------------------------- scores


def section_scores(
    text: Sequence[float],
    title: Sequence[float],
    sections: Sequence[Hashable],
    fully_asked: Sequence[bool],
    *,
    boost: float,
    share: float,
    full: float = 0.0,
    decay: float = 0.5,
) -> list[float]:
    """Each chunk's score from its own text, its section's title and its siblings:

        siblings(c) = Σ_i decay^i · text_i   over the two best other chunks of c's section
        score(c) = text(c) + boost · (1 + full · asked(c)) · title(c) + share · siblings(c)

    where asked(c) is 1 when every word of one of c's titles is in the question.
    ``title`` is the BM25 of the section field (plus what index pages point at it), the
    same for every chunk of a section; siblings count their text only, so a title that
    matches is counted once, not once per chunk. A chunk alone in its section and with
    no title match keeps its text score; a section where several chunks match rises as a
    whole (two siblings count: past that a long section would win by its length)."""
    by_section: dict[Hashable, list[float]] = {}
    for score, section in zip(text, sections, strict=True):
        by_section.setdefault(section, []).append(score)
    sums = {key: _sibling_sums(values, decay) for key, values in by_section.items()}
    out = []
    for own, heading, section, asked in zip(text, title, sections, fully_asked, strict=True):
        # Most hits match no title: no weight to work out for them.
        titled = boost * (1.0 + full * asked) * heading if heading else 0.0
        best, second, if_best, if_second, otherwise = sums[section]
        siblings = if_best if own == best else if_second if own == second else otherwise
        out.append(own + titled + share * siblings)
    return out


def _sibling_sums(scores: list[float], decay: float) -> tuple[float, float, float, float, float]:
    """(best, second best, then the siblings term of the section's best chunk, of its
    second, of any other) of a section's text ``scores``: s_0 + decay · s_1 over the two
    best scores other than the chunk's own (one occurrence of it taken out), worked out
    once a section rather than once a chunk; a missing score counts 0 (a chunk alone in
    its section has none)."""
    best, second, third = (*sorted(scores, reverse=True)[:3], 0.0, 0.0)[:3]
    return best, second, second + decay * third, best + decay * third, best + decay * second
