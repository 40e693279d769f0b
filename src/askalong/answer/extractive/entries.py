"""The entry a question names (pure): a section or definition-list entry whose title is
the question's subject ("11.8. Partial Indexes", "shared_buffers (integer)", "xmin", the
command page "COPY"), and which of its sentences answer for it.

A manual states a thing under its own entry: the entry's opening sentence defines it ("A
partial index is an index built over …", "xmin — The identity (transaction ID) of …",
"COPY — copy data between a file and a table"), and its later sentences give its
attributes without naming it again ("The default is typically 128 megabytes"). Elsewhere
the subject is only mentioned ("The default setting of -1 selects … 1/32nd of
shared_buffers", in the ``wal_buffers`` entry). So a sentence of the named entry counts
the entry's title as its own words when it opens the entry or, for a question asking an
attribute (a default, a range, a unit), when it states that attribute; such a sentence
ranks above a mention elsewhere (``scoring``)."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from askalong.question.reading import QuestionReading
from askalong.text.sentences import SENTENCE_ENDS
from askalong.text.tokens import key_terms

# "20.4.1. ", "(integer)", "(boolean)": numbering and a setting's type say nothing of it
_NUMBERING = re.compile(r"^\s*(?:[A-Z]\.)?[\d.]+\s+")
_TYPE = re.compile(r"\s*\((?:integer|boolean|string|enum|floating point|real)\)\s*$", re.I)
# Words a title adds to the name it files ("HAVING Clause", "Enum Types")
ENTRY_WORDS = frozenset(key_terms("clause clauses type types command function statement"))
# Answer types whose answer is what the entry says of its subject (not a cause, a means)
_ENTRY_TYPES = frozenset({"definition", "entity", "other", "quantity", "yes_no"})


@functools.lru_cache(maxsize=4096)
def title_terms(title: str) -> frozenset[str]:
    """The key terms of a section or entry title, numbering and a setting's type left out."""
    return frozenset(key_terms(_TYPE.sub("", _NUMBERING.sub("", title))))


def names_entry(
    question: QuestionReading, path: Sequence[str], subject: Sequence[str] = ()
) -> frozenset[str]:
    """When ``question`` names the entry whose section path is ``path`` (every term of its
    title beyond ``ENTRY_WORDS`` is the question's, and one of its focus terms): the
    title's terms and those of the titles above it that the question uses too ("xmin"
    under "System Columns" for "what is the xmin system column?"); empty otherwise, and
    for a why / how question. A name of the question's ``subject`` the title holds only
    part of is another thing ("SELECT FOR UPDATE" is not the policy entry "UPDATE")."""
    if question.form.answer_type not in _ENTRY_TYPES or not path:
        return frozenset()
    terms = title_terms(path[-1])
    named = terms - ENTRY_WORDS
    if not named or not named <= question.match_terms or not named & question.form.focus_terms:
        return frozenset()
    above = {t for title in path[:-1] for t in title_terms(title)}
    if names_another(path, subject):
        return frozenset()
    return terms | (above & question.match_terms)


def names_another(path: Sequence[str], subject: Sequence[str]) -> bool:
    """Whether the entry ``path`` is another thing named like one of the question's
    ``subject`` names: its title holds part of that name, not all of it ("UPDATE" for
    "SELECT FOR UPDATE", "wal_buffers" for "shared_buffers"). Its head is the context of
    its sentences, so their mention of the subject is only a mention."""
    if not path:
        return False
    named = title_terms(path[-1]) - ENTRY_WORDS
    titled = {t for title in path for t in title_terms(title)}
    return any(named & (name := frozenset(key_terms(n))) and not name <= titled for n in subject)


def describes(path: Sequence[str]) -> bool:
    """Whether ``path`` is a reference page's "Description" section: its first sentence
    says what the page's subject does ("ROLLBACK rolls back the current transaction …")."""
    return bool(path) and path[-1].strip().lower() == "description"


def opens_entry(text: str, title: str, index: int, after_heading: bool) -> bool:
    """Whether sentence ``index`` of a block opens the entry ``title``: the first sentence
    of the block right under the entry's heading, or of a definition-list item written
    "title — …"."""
    if index != 0:
        return False
    head = text.split(" — ", 1)[0] if " — " in text[:120] else ""
    return after_heading or (bool(head) and title_terms(head) == title_terms(title))


_HEAD_WORDS = 6  # a block's head is a term or a name, not a line of prose


def block_head(text: str) -> str | None:
    """The head of a block written as an entry: its first line when that is a short term
    with no sentence end ("shared_buffers (integer)" above the entry's text); None
    otherwise. The head is the context of the block's sentences."""
    first, newline, rest = text.strip().partition("\n")
    if not newline or not rest.strip() or " — " in first:
        return None
    head = first.strip()
    words = head.split()
    if not words or len(words) > _HEAD_WORDS or head.endswith(SENTENCE_ENDS):
        return None
    return head


def entry_sentence(terms: set[str], asked: frozenset[str]) -> bool:
    """Whether a sentence (its ``terms``) of the named entry states an attribute the
    question asks for."""
    return bool(asked & terms)
