"""Sentence splitting for Chinese and English: spans that cover the text exactly, in order
(pure)."""

from __future__ import annotations

import re

from askalong.text.scripts import is_cjk

_CJK_TERMINATORS = frozenset("。！？；…")
# How a sentence or a lead-in ends, in either script: a line ending otherwise is a term,
# a name or a row of cells, not a sentence.
SENTENCE_ENDS = (".", "!", "?", ":", "。", "！", "？", "：")
_OPENERS = frozenset("\"'“‘「『（([《【")
_BOUNDARY_RE = re.compile(
    r"(?P<punct>[.!?。！？；…]+)[\"'”’」』）)\]》】]*(?P<space>\s*)|(?P<blank>\n[^\S\n]*\n\s*)"
)


def _word_set(words: str) -> frozenset[str]:
    return frozenset(words.split())


_ABBREVIATIONS = _word_set(
    "e.g i.e etc dr mr mrs ms prof fig figs eq eqs no nos vs al u.s sec secs tab cf approx "
    "st jr sr ref refs vol ch pp resp"
)
_WORD_BEFORE_DOT_RE = re.compile(r"[A-Za-z][A-Za-z.]*\Z")
_INITIALS_RE = re.compile(r"[A-Za-z](?:\.[A-Za-z])*")
# "1." / "iv." / "(a)." at the start of a text or line is a list number, not a sentence;
# so after an answer's citation marks ("… [1] 2. Then …": an answer's shape cut there).
_ENUMERATOR_RE = re.compile(r"(?:\[\d+\]\s*)*\(?(?:\d{1,3}|[ivxIVX]{1,4}|[A-Za-z])\)?")


def split_sentences(text: str) -> list[tuple[int, int]]:
    """Sentence spans ``(start, end)`` that cover ``text`` exactly, in order.

    Trailing whitespace belongs to the sentence before it. A blank line always ends a
    sentence (lists, code and headings often have no final punctuation).
    """
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _BOUNDARY_RE.finditer(text):
        if _is_boundary(text, match, start):
            spans.append((start, match.end()))
            start = match.end()
    if start < len(text):
        spans.append((start, len(text)))
    return spans


def _is_boundary(text: str, match: re.Match[str], start: int) -> bool:
    space = match.group("space")
    if space is None or match.end() == len(text) or space.count("\n") > 1:
        return True  # a blank line, or the end of the text
    punct = match.group("punct")
    following = text[match.end()]
    if _CJK_TERMINATORS.intersection(punct):
        # "…" inside an English sentence: the next word in lower case continues it.
        return not (following.islower() and set(punct) <= {"…"})
    if not space:  # no space: only Chinese written with ASCII punctuation
        preceding = text[match.start() - 1] if match.start() > 0 else ""
        return is_cjk(following) and (is_cjk(preceding) or punct[-1] in "!?")
    starts_sentence = following.isupper() or following.isdigit() or is_cjk(following)
    if not starts_sentence and following not in _OPENERS:
        return False
    return punct != "." or not _is_abbreviation(text, match.start(), start)


def _is_abbreviation(text: str, dot: int, sentence_start: int) -> bool:
    """Whether the "." at ``dot`` closes an abbreviation, an initial or a list number."""
    if dot - sentence_start < 20 and _ENUMERATOR_RE.fullmatch(text[sentence_start:dot].strip()):
        return True
    word = _WORD_BEFORE_DOT_RE.search(text[max(0, dot - 12) : dot])
    if word is None:
        return False
    token = word.group()
    return token.lower() in _ABBREVIATIONS or _INITIALS_RE.fullmatch(token) is not None
