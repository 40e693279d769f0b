"""The question, read once at the start of ``Asker.stream``.

An edge (the HTTP route, the CLI) hands the core a ``Question`` whose documents it has
resolved with the asker's ``Access``: that is their permission check, and the core trusts
it. ``asked_question`` turns the question, once, into an ``AskedQuestion``: the complete
question text read once (``question/reading``: its language, terms, answer type …), the
anchor resolved to exact offsets with its block's page and section, the documents, the
thread's history. Gathering, context assembly, the answerer and verification take these
values (the pure stages the parts they need) instead of deriving them again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from askalong.answer.base import HistoryTurn
from askalong.context.anchor import LocatedAnchor, locate_anchor
from askalong.errors import InputError
from askalong.question.reading import QuestionReading, read_question
from askalong.question.rewrite import self_contained
from askalong.text.scripts import answer_language
from askalong.text.wording import writes_traditional
from askalong.types import Anchor, Block, Document, Intent
from askalong.values.threads import Turn

INTENT_QUESTIONS: dict[str, tuple[str, str]] = {  # (English, Chinese)
    "explain": ("Explain this.", "解释这段内容。"),
    "example": ("Give an example of this.", "举例说明这段内容。"),
    "compare": ("How does this differ from related ideas?", "这与相关概念有什么不同？"),
}

# A bare intent's thread title names the intent and the selection it was asked of, in
# the asker's wording (``text/wording``)
INTENT_TITLES: dict[str, dict[str, str]] = {
    "explain": {"en": "Explain", "zh": "解释", "zh-Hant": "解釋"},
    "example": {"en": "An example of", "zh": "举例说明", "zh-Hant": "舉例說明"},
    "compare": {"en": "Compare", "zh": "比较", "zh-Hant": "比較"},
}
TITLE_FORMS = {
    "en": "{intent}: “{shown}”",
    "zh": "{intent}：“{shown}”",
    "zh-Hant": "{intent}：「{shown}」",
}
TITLE_CHARS = 200
SELECTION_CHARS = 80
BILINGUAL = frozenset({"zh", "en"})  # the languages a question may be asked across


@dataclass(frozen=True)
class Question:
    """A question as an edge hands it over. ``documents`` are resolved: fetched with the
    asker's ``Access`` (their permission check, which the core trusts). An anchor on any
    other document is checked by the core, once."""

    text: str = ""
    intent: Intent = "ask"
    anchor: Anchor | None = None
    documents: tuple[Document, ...] = ()
    thread_id: str | None = None
    whole: bool = False  # the whole document(s): a follow-up drops its thread's anchor
    title_language: str | None = None  # a bare intent's thread title: the asker's UI language


@dataclass(frozen=True)
class Reading:
    """Where a read-along question is asked: the anchor as given (the question's or its
    thread's) and its document, read once, with its blocks in reading order."""

    anchor: Anchor
    document: Document
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class AskedQuestion:
    """A question analysed once. ``asked`` is the text as typed (empty for a bare intent);
    ``question`` the complete question, searched, answered and stored. ``documents`` are
    the anchor's (read along) or the ones named (knowledge base), all permission-checked."""

    asked: str
    question: QuestionReading
    intent: Intent
    anchor: LocatedAnchor | None
    documents: tuple[Document, ...]
    history: tuple[HistoryTurn, ...] = ()
    selection: str = ""  # the selected text, when a bare intent was asked of it
    title_language: str | None = None  # the asker's UI language (None: the question's)

    @property
    def document_ids(self) -> tuple[str, ...]:
        return tuple(document.id for document in self.documents)

    @property
    def across(self) -> bool:
        """Asked in the other language than every document it names (a Chinese question
        over English text, or the reverse): the search then leans on meaning, not words.
        False without named documents, or when a language is mixed or unknown."""
        script = self.question.script
        languages = {document.language for document in self.documents}
        return script in BILINGUAL and bool(languages) and languages <= BILINGUAL - {script}

    @property
    def focus_terms(self) -> frozenset[str]:
        """What the answer must be about: the question's focus, none for a bare intent (the
        canned question's words, "这段", are no focus: the selection is what is asked of)."""
        return frozenset() if self.selection else self.question.form.focus_terms

    @property
    def title(self) -> str:
        """A new thread's title: the question as typed, or for a bare intent the intent
        and what it was asked of ("Explain: “We consider two sets…”"), never the canned
        question every such thread would share ("Explain this."), in the asker's interface
        language when known (the intent is a button they pressed in it: its Chinese is
        Simplified), else the question's wording (its selection's script)."""
        if not self.selection:
            return self.question.text[:TITLE_CHARS]
        words = self.title_language or self.question.wording
        words = words if words in TITLE_FORMS else "en"
        flat = " ".join(self.selection.split())
        shown = flat if len(flat) <= SELECTION_CHARS else flat[: SELECTION_CHARS - 1] + "…"
        return TITLE_FORMS[words].format(intent=INTENT_TITLES[self.intent][words], shown=shown)


def check_question(question: Question, anchor: Anchor | None) -> None:
    """The question's own errors, raised before any document is read: an empty question,
    or a quick intent with no selection to work on."""
    if question.text.strip():
        return
    if question.intent == "ask":
        raise InputError("the question is empty", source="question")
    if anchor is None or (anchor.block_id is None and not anchor.selected_text):
        raise InputError(f"{question.intent!r} needs a selection to work on", source="question")


def asked_question(
    question: Question, turns: Sequence[Turn], reading: Reading | None
) -> AskedQuestion:
    """``question`` analysed, its anchor (if any) resolved in ``reading``."""
    check_question(question, None if reading is None else reading.anchor)
    located = None if reading is None else locate_anchor(reading.blocks, reading.anchor)
    text = question.text.strip()
    selection = ""
    if not text:
        assert reading is not None and located is not None  # check_question made sure
        selection = _selection(reading, located)
        text = intent_question(question.intent, selection)
    read = read_question(text)
    if selection:  # the fixed prompt is Simplified: the reader's script is the selection's
        read = replace(read, traditional=writes_traditional(selection))
    return AskedQuestion(
        asked=question.text,
        question=read,
        intent=question.intent,
        anchor=located,
        documents=question.documents if reading is None else (reading.document,),
        history=tuple(HistoryTurn(turn.question, turn.answer.answer) for turn in turns),
        selection=selection,
        title_language=question.title_language,
    )


def standing_alone(asked: AskedQuestion) -> AskedQuestion:
    """``asked`` as it is searched: a plain follow-up's question made
    self-contained from its thread (``question/rewrite``), still leaning on it (its
    previous answer stays the search's context); any other as it is. A rewrite that would
    change what is asked of code ("What calls X?" then "And what does it do …?") is not
    made: code is asked in the follow-up's own words."""
    question = asked.question
    if asked.intent != "ask" or not asked.history:
        return asked
    previous = [turn.question for turn in asked.history]
    said = asked.history[-1].answer
    text = self_contained(question.text, previous, question.leans_on_thread, said)
    if text == question.text:
        return asked
    rewritten = replace(read_question(text), leans_on_thread=True)
    if rewritten.code.ask != question.code.ask:
        return asked
    return replace(asked, question=rewritten)


def intent_question(intent: Intent, selection: str) -> str:
    """A quick intent alone as a complete question, in the language of its selection."""
    english, chinese = INTENT_QUESTIONS[intent]
    return chinese if answer_language(selection) == "zh" else english


def _selection(reading: Reading, located: LocatedAnchor) -> str:
    """The selected text as given, or the anchor's span of its block."""
    given = reading.anchor
    if given.selected_text:
        return given.selected_text
    block = reading.blocks[located.index]
    return block.text[given.start or 0 : given.end or len(block.text)]
