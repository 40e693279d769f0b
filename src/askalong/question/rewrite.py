"""A follow-up made self-contained from its thread (pure): what it is searched as (the
answerer and the stored turn keep the question as typed).

A follow-up that leans on its thread (``leaning``) says too little to be searched alone:
"Any catch with that?", "那 Mentor 呢？", "and with never?". Its self-contained form keeps
its own words and adds the thread's subject:

- an *elliptic* follow-up, which asks nothing of its own (no question word, or the Chinese
  "X 呢" / English "and X?" of "what about X"), asks the previous question again of its new
  terms: the previous question comes first (its question word says what is asked), then
  the follow-up ("Sponsor 負責做什麼？ 那 Mentor 呢？");
- one naming a new subject (words the thread never used) is searched on its own words;
- any other asks its own question of the thread's subject: it comes first, then the words
  of that subject (``leaning.thread_subject``) it does not hold already ("What is the catch
  with that? expired entries thrown out …").

A question that does not lean on its thread is its own query, unchanged.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from askalong.question.form import question_form
from askalong.question.leaning import continues, thread_subject
from askalong.text.patterns import lazy
from askalong.text.tokens import key_terms

NEW_SUBJECT_TERMS = 2  # words of its own that make a follow-up name a new subject
# "X 呢？": the Chinese particle that asks the previous question of X.
_ABOUT_ZH = lazy("呢[？?]?\\s*$")


def self_contained(question: str, previous: Sequence[str], leans: bool, said: str = "") -> str:
    """``question`` (one that ``leans`` on its thread or not) as a query that stands
    alone after the thread's ``previous`` questions (oldest first) and the last answer
    (``said``). A follow-up naming a new subject of its own (``NEW_SUBJECT_TERMS`` words
    the thread never used: "why is the E given twice there?") is searched on its own
    words: the thread's words would pull it back to the previous answer's passage."""
    if not leans or not previous:
        return question
    if elliptic(question):
        return "\n".join((thread_subject(previous)[-1], question))
    return of_thread_subject(question, previous, said)


def of_thread_subject(question: str, previous: Sequence[str], said: str = "") -> str:
    """A leaning, non-elliptic ``question`` asked of its thread's subject (the previous
    questions it points back to): the question, then the subject's words it does not hold;
    as typed when it names a new subject of its own (``names_new_subject``). What the
    learned answerer ranks sentences by, as the search ran it (an elliptic follow-up is
    ranked as typed: with the previous question first it is answered as that question)."""
    subject = thread_subject(previous)
    if not subject or names_new_subject(question, subject, said):
        return question
    added = _missing_words(" ".join(subject), question)
    return f"{question}\n{added}" if added else question


def names_new_subject(
    question: str, subject: Sequence[str], said: str = "", terms: Collection[str] | None = None
) -> bool:
    """Whether ``question`` holds ``NEW_SUBJECT_TERMS`` words that neither the thread's
    ``subject`` questions nor its last answer (``said``) used: it asks of something new
    (``terms``: its ``key_terms``, when known)."""
    own = set(key_terms(question) if terms is None else terms)
    return len(own - key_terms("\n".join((*subject, said)))) >= NEW_SUBJECT_TERMS


def elliptic(question: str, terms: Collection[str] | None = None) -> bool:
    """Whether ``question`` asks nothing of its own: the Chinese "X 呢", or a
    continuation with no question word ("and with never?", "And if that package is not
    installed?", "and the bright background ones?"); ``terms``: its ``key_terms``, when
    known."""
    if _ABOUT_ZH.search(question):
        return True
    if not continues(question):
        return False
    own = frozenset(key_terms(question) if terms is None else terms)
    return question_form(question, own).answer_type == "other"


_WORD = lazy(r"[^\W_]+(?:[._/-][^\W_]+)*")  # "os.environ", "set_key", a Han run


def _missing_words(subject: str, question: str) -> str:
    """The words of ``subject`` holding a key term that ``question`` does not hold, as
    written, in their order, once each."""
    have = key_terms(question)
    words = (m.group() for m in _WORD.finditer(subject))
    return " ".join(dict.fromkeys(w for w in words if key_terms(w) - have))
