"""Sentences that are never an answer (pure): a manual's pointers and compatibility
notes, and lines that are not sentences at all.

- a pointer elsewhere ("For more information, see ROLLBACK.", "See Section 13.2."): it
  names the subject and says nothing of it;
- a compatibility note ("REFRESH MATERIALIZED VIEW is a PostgreSQL extension.", "The
  DISTINCT ON clause is not part of the SQL standard …", any sentence of a
  "Compatibility" section): it says where a command comes from, never what
  it does, so it answers only a question about the standard;
- a list of names ("CREATE EXTENSION, ALTER EXTENSION", a "See Also" line) or a table
  row ("bit_minmax_ops | = (bit,bit)"): cells, not a sentence;
- a question ("How do I add a new word?", a FAQ's question line or a heading that asks):
  it asks what the lines after it answer;
- a number alone ("2.13.", "iv)", "o 3."): a section or list number the sentence splitter
  left apart from its title.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from askalong.text.sentences import SENTENCE_ENDS
from askalong.text.tokens import key_terms

_POINTER = re.compile(
    r"^(?:for (?:more|further) (?:information|details)(?: on [^,]{1,60})?,?\s+)?"
    r"(?:see|refer to)\b(?:[^.;]|\.(?=\d)){0,80}\.?$",
    re.IGNORECASE,
)
_COMPATIBILITY = re.compile(
    r"\b(?:is an? [\w-]+ extension\.?$|conforms to the SQL standard\.?$"
    r"|(?:is|are) not (?:part of|in|specified (?:by|in)) the SQL standard\b)",
    re.IGNORECASE,
)
# Sections of a reference page that file links and the standard, not what a thing does
_ASIDE_SECTIONS = frozenset({"compatibility", "see also"})
# A question asking about those
_STANDARD_WORDS = frozenset(key_terms("standard compatibility compatible conform conforms"))
_CELL = " | "
_ITEM_WORDS = 4  # a listed name runs to this many words at most ("ROLLBACK TO SAVEPOINT")


def never_answers(text: str, entry: Sequence[str], question_terms: frozenset[str]) -> bool:
    """Whether the sentence ``text`` of the section ``entry`` (its path) cannot answer a
    question with ``question_terms``: a pointer, a row or list of names, or a
    compatibility note when the question does not ask about the standard."""
    sentence = " ".join(text.split())
    if _POINTER.match(sentence) or is_cells(sentence):
        return True
    if question_terms & _STANDARD_WORDS:
        return False
    aside = bool(entry) and entry[-1].strip().lower() in _ASIDE_SECTIONS
    return aside or _COMPATIBILITY.search(sentence) is not None


_CLOSERS = "\"'”’)）」』]"
_NUMBER_ONLY = re.compile(r"^(?:[o•*+?-]\s+)?\(?(?:\d{1,3}(?:\.\d{1,3})*|[ivxIVX]{1,4})[.)]$")


def number_only(sentence: str) -> bool:
    """Whether ``sentence`` is a section or list number and nothing else ("2.13.")."""
    return _NUMBER_ONLY.match(sentence.strip()) is not None


def asks(sentence: str) -> bool:
    """Whether ``sentence`` is itself a question: it ends with a question mark (closing
    quotes and brackets aside), in either script."""
    return sentence.strip().rstrip(_CLOSERS).endswith(("?", "？"))


def is_cells(sentence: str) -> bool:
    """Whether ``sentence`` is a table row ("a | b") or a list of short names with no
    sentence end ("BEGIN, COMMIT, ROLLBACK TO SAVEPOINT")."""
    if _CELL in sentence:
        return True
    if sentence.endswith(SENTENCE_ENDS):
        return False
    items = [item.split() for item in sentence.split(",")]
    return len(items) >= 2 and all(0 < len(item) <= _ITEM_WORDS for item in items)
