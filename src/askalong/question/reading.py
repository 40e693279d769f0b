"""A question read once (pure): everything the stages after it ask of its text.

A question used to be read again by each stage that needed it: its language, its terms,
the answer it expects, whether it leans on the thread, whether it asks for a summary,
for the knowledge base's counts, to rate an answer, or something of code. ``read_question``
reads it once, where it enters (the asker's ``asked_question``, the chat agent's entry,
a tool's search); the stages take the ``QuestionReading`` and never read the text again.
Each reading lives in its own module of this package, with its patterns and its tests:

- ``form``: the answer type, the asked noun and the focus terms (``QuestionForm``);
- ``leaning``: whether it leans on its thread, whether it points at its anchor;
- ``overview``: whether it asks for a summary, or for what several passages say;
- ``subject``: the names it is about, whether it asks only about the selection;
- ``given_names``: the names it gives ("Matplotlib", "GPT-3"), held to the evidence;
- ``value_asks``: the attribute it asks of a thing it names ("the default of work_mem");
- ``rating``: whether it asks to rate an answer;
- ``split_parts``: its independent parts ("X? Also Y?") as each is searched, and whether
  each asks for the knowledge base's counts (``stats_asks``);
- ``code_asks``: what it asks of code (callers, callees, definition …) and of what.

A Traditional Chinese question is read as a Simplified one is (``traditional``): 什麼 is
a question word like 什么, never a word the evidence must hold.

The readings that only one stage wants (the parts of a chat message, what it asks of
code, whether it names its own subject) are read on first use, still once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cached_property

from askalong.question.code_asks import CodeQuestion, read_code_question
from askalong.question.form import GENERIC_TERMS, QuestionForm, question_form
from askalong.question.given_names import name_runs
from askalong.question.leaning import leans_on_thread, points_at_anchor
from askalong.question.overview import asks_overview, asks_summary
from askalong.question.rating import asks_to_rate
from askalong.question.split_parts import QuestionPart, own_subject, read_parts
from askalong.question.subject import about_selection, question_subject
from askalong.question.traditional import joined_runs, plain, written_at
from askalong.question.value_asks import asked_attributes
from askalong.text.scripts import answer_language, detect_language
from askalong.text.tokens import character_pairs, key_terms
from askalong.text.wording import wording_of

_HAN = re.compile("[\u4e00-\u9fff]")


@dataclass(frozen=True)
class QuestionReading:
    text: str  # as asked: searched, answered, shown
    plain: str  # as read: its Traditional characters made Simplified (``traditional``)
    script: str  # ``detect_language(text)``: "zh", "en", "mixed" or "und" (search fusion)
    terms: frozenset[str]  # ``key_terms(text)``
    pairs: frozenset[str]  # ``character_pairs(text)``: Chinese character pairs
    form: QuestionForm  # what it asks about, what answers it
    leans_on_thread: bool  # a follow-up that needs the previous turn ("And why?")
    points_at_anchor: bool  # "this", "它": about the selection ("this paper" is not)
    asks_summary: bool  # "summarise …", "总结…"
    asks_overview: bool  # a summary, or a list of what several passages say ("有哪些…")
    holds_chinese: bool  # any Han character, even beside an identifier ("谁调用了f")
    subject: tuple[str, ...]  # the names it is about ("work_mem"), lowercased
    asked_attributes: frozenset[str]  # what it asks of the thing named: "default", "maximum"
    name_runs: tuple[tuple[str, ...], ...]  # the names it gives ("Matplotlib", "Middle East")
    about_selection: bool  # names nothing beyond "this" ("Explain this.", "举例说明")
    # written in Traditional characters (a quick intent's prompt: its selection is), so
    # answered in them (``wording``); the default keeps readings pickled before it
    # (``benchmarks/unseen_replay.py`` recordings) loadable
    traditional: bool = False

    @cached_property
    def language(self) -> str:
        """The language to answer in: "zh" or "en" (``answer_language``)."""
        return answer_language(self.text)

    @cached_property
    def wording(self) -> str:
        """The key of the tables of what the product writes to this reader: "en", "zh"
        or "zh-Hant" (``text/wording``)."""
        return wording_of(self.language, self.traditional)

    @property
    def match_terms(self) -> frozenset[str]:
        """``terms_of(text)``: what a sentence or a claim is matched on."""
        return self.terms | self.pairs

    def as_written(self, piece: str) -> str:
        """``piece`` of ``plain`` as the question writes it (its Traditional characters)."""
        return written_at(piece, self.text, self.plain)[0]

    @cached_property
    def names_subject(self) -> bool:
        """Whether it names what it asks about (no "it", not only "the default")."""
        return own_subject(self.plain)

    @cached_property
    def asks_to_rate(self) -> bool:
        """Whether the person's own message asks to give feedback on an answer."""
        return asks_to_rate(self.plain)

    @cached_property
    def parts(self) -> tuple[QuestionPart, ...]:
        """Its independent parts, each as it is searched (one when it has no join)."""
        return read_parts(self.text, self.plain)

    @cached_property
    def code(self) -> CodeQuestion:
        """What it asks of code, and the identifiers it names."""
        return read_code_question(self.plain)


def read_question(text: str) -> QuestionReading:
    """``text`` read as a question (a statement reads as one asking ``other``)."""
    terms = frozenset(key_terms(text))
    read = plain(text)
    read_terms = terms if read == text else frozenset(key_terms(read))
    runs = read_terms if read == text else joined_runs(read, read_terms, GENERIC_TERMS)
    form = question_form(read, runs)
    return QuestionReading(
        text=text,
        plain=read,
        script=detect_language(text),
        terms=terms,
        pairs=frozenset(character_pairs(text)),
        form=form if read == text else _as_written(form, text, read),
        leans_on_thread=leans_on_thread(read, read_terms),
        points_at_anchor=points_at_anchor(read),
        asks_summary=asks_summary(read),
        asks_overview=asks_overview(read),
        holds_chinese=_HAN.search(text) is not None,
        subject=question_subject(read, form.answer_type),
        asked_attributes=asked_attributes(terms),
        name_runs=name_runs(text),
        about_selection=about_selection(read, read_terms),
        traditional=read != text,  # ``plain`` is ``writes_traditional``'s image
    )


def _as_written(form: QuestionForm, text: str, read: str) -> QuestionForm:
    """``form``, read in ``read``, with its words as ``text`` writes them: the documents
    hold them in the question's own script."""

    def written(piece: str) -> str:
        return written_at(piece, text, read)[0]

    return replace(
        form,
        asked=written(form.asked),
        focus_terms=frozenset(map(written, form.focus_terms)),
        asked_terms=frozenset(map(written, form.asked_terms)),
    )
