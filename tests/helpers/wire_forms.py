"""One value of every JSON form in ``askalong.wire``, built by its own function from values
that fill every field (nested forms, lists and optional parts included)."""

from __future__ import annotations

from typing import Any

from askalong.context.call_tree import CallNode
from askalong.context.code_identifiers import Definition, Reference
from askalong.context.code_places import Place, SourceFile
from askalong.context.units import ContextUnit
from askalong.parse.code.tokens import TokenSpan
from askalong.types import (
    Anchor,
    Answer,
    AnswerPassage,
    AnswerSpan,
    Block,
    BlockSpan,
    Chunk,
    Claim,
    ConflictNotice,
    Document,
    Hit,
    LineBox,
    Quote,
    SearchResult,
    Timings,
)
from askalong.values.accounts import ApiToken, Membership, Org, User
from askalong.values.chat_answers import (
    ChatAnswer,
    ChatPart,
    ChatSource,
    ChatTimings,
    CitationScores,
    ToolStep,
)
from askalong.values.collections import Collection
from askalong.values.conflicts import ConflictPair, ConflictSide, ScanReport
from askalong.values.feedback import Citation, Feedback, Judged, RankedChunk, Triage
from askalong.values.findings import Finding, Repair
from askalong.values.jobs import Job
from askalong.values.threads import Thread, Turn
from askalong.wire import (
    AnswerJSON,
    BlockJSON,
    CallJSON,
    CallNodeJSON,
    ChatJSON,
    ChunkJSON,
    CodeViewJSON,
    CollectionJSON,
    ConflictsJSON,
    DoctorJSON,
    DocumentJSON,
    FeedbackJSON,
    IdentifierJSON,
    MembershipJSON,
    OrgJSON,
    PassageJSON,
    SearchJSON,
    ThreadJSON,
    ThreadSummaryJSON,
    TokenJSON,
    UserJSON,
    answer_json,
    block_json,
    call_json,
    call_node_json,
    chat_json,
    chunk_json,
    code_view_json,
    collection_json,
    conflicts_json,
    doctor_json,
    document_json,
    feedback_json,
    identifier_json,
    membership_json,
    org_json,
    passage_json,
    placed_anchor_json,
    search_json,
    thread_json,
    thread_summary_json,
    token_json,
    turn_json,
    user_json,
)

CREATED = "2026-11-30T00:00:00+00:00"
SPAN = BlockSpan("b2", 0, 5)


def answer() -> Answer:
    return Answer(
        status="answered",
        question="什么是随问？",
        answer="随问根据文档回答。[1]",
        quotes=(Quote(1, "d1", "b2", 3, 12, "根据文档回答问题", 4, ("引言",), "supported"),),
        explanation="更多。",
        claims=(Claim("随问根据文档回答。", (1,), "supported", ()),),
        intent="explain",
        anchor=Anchor("d1", "b2", 3, 12, "根据文档"),
        thread_id="t",
        turn_id="u",
        model="m",
        route="light",
        searched=("q",),
        notes=("n",),
        timings=Timings(1.5, 2.5, 3.5, 7.5),
        conflicts=(ConflictNotice(1, 2, "number", ("15.2",), ("15.3",)),),
        hits=(Hit("c1", "d1", 0.5, "hybrid", 2.0, 1, 0.8, 3),),
        passage=AnswerPassage(
            "d1",
            "引言。根据文档回答问题",
            (BlockSpan("b2", 0, 11),),
            (AnswerSpan(3, 11, 1),),
            4,
            ("引言",),
        ),
    )


def document() -> Document:
    return Document(
        "d1", "h", "T", "s.pdf", "pdf", "en", 3, 10, CREATED, org_tags=("o",), notices=("n",)
    )


def job() -> Job:
    return Job(
        "j1", "d1", "ingest", "ocr", 3, 50, "w", 2.0, 1.0, 1, "ingest:d1", "", CREATED, CREATED
    )


def pdf_block() -> Block:
    box = LineBox(72.12345678, 100.5, 300.0, 112.25, 0, 11)
    return Block("b2", "paragraph", "Hello world", 0, ("Intro",), 0, 1, (box,))


def text_block() -> Block:
    return Block("b3", "heading", "Intro", 1, ("Intro",), 1, lines=(3, 4))


def code_block() -> Block:
    return Block("b4", "code", "def f():\n    g()", 2, ("f",), 0, lines=(10, 11))


def code_place() -> Place:
    return Place(SourceFile("d1", "repo/a.py", (code_block(),)), code_block())


def code_view() -> CodeViewJSON:
    tokens = [[TokenSpan(0, 3, "keyword")]]
    return code_view_json("d1", [code_block()], tokens, [collection()])


def identifier() -> IdentifierJSON:
    """A name with one definition and one reference (every nested form filled)."""
    place = code_place()
    return identifier_json(
        "g", [Definition(place, 11, "function")], [Reference(place, 11, 13, 14, "g()")]
    )


def chunk() -> Chunk:
    return Chunk("c1", "d1", 0, (SPAN,), "Hello", ("Intro",), 1, 1)


def search() -> SearchJSON:
    hit = Hit("c1", "d1", 0.5, "hybrid", 1.25, 1, 0.75, 2)
    result = SearchResult("hello", (hit,), ("keyword", "vector"), ("a note",))
    return search_json(result, {"c1": chunk()}.__getitem__, {"d1": "T"}.__getitem__)


def thread() -> Thread:
    return Thread("t", "local", "什么是随问？", CREATED, CREATED, "d1", 1)


def summary() -> ThreadSummaryJSON:
    return thread_summary_json(thread(), 1, placed_anchor_json(answer().anchor, 4, ("引言",)))


def full_thread() -> ThreadJSON:
    turn = Turn("u", "t", 0, "什么是随问？", "explain", answer().anchor, answer(), CREATED)
    placed = placed_anchor_json(turn.anchor, 4, ("引言",))
    return thread_json(thread(), [turn_json(turn, placed)])


def collection() -> Collection:
    return Collection("c0ffee", "local", "PostgreSQL 手册", CREATED, documents=1169, chunks=9000)


def doctor() -> DoctorJSON:
    missing = Finding("keyword_missing", "d1", "not in the keyword index", True)
    lost = Finding("file_missing", "d2", "originals/ab/cd", False)
    fixed = Repair("keyword_missing", "d1", "indexed 3 chunks")
    return doctor_json([missing, lost], [fixed], [lost])


def chat() -> ChatAnswer:
    """A chat answer with every part filled: two parts, a source, a step, scores."""
    source = ChatSource(3, "d1", "Guide", 2, ("Intro",), "b1", 0, 5, "Hello", "weak", ("why",))
    step = ToolStep("search_knowledge", {"query": "hello", "top_k": 5}, "1 passage", (3,), 1.25)
    hello = ChatPart("Hi?", "answered", "Hello [3]", (3,), "code_lines")
    parts = (hello, ChatPart("Bye?", "not_covered", ""))
    return ChatAnswer(
        status="answered",
        question="Hi? Bye?",
        answer="Hello [3]",
        parts=parts,
        sources=(source,),
        claims=(Claim("Hello", (3,), "weak", ("why",)),),
        steps=(step, ToolStep("knowledge_stats", {}, "1 document", error="")),
        scores=CitationScores(1.0, 1.0, 1, 1),
        limits_hit=("rounds",),
        conversation_id="t1",
        turn_id="u1",
        notes=("offline",),
        timings=ChatTimings(1.0, 2.0, 3.5),
        conflicts=(ConflictNotice(3, 4, "setting", ("on",), ("off",)),),
    )


def forms() -> list[tuple[Any, Any]]:
    """(declared form, a value built by its function) for every top-level form."""
    unit = ContextUnit("d1", ("c1",), "Hello", (SPAN,), (SPAN,), ("Intro",), 1, 1, "anchor", None)
    return [
        (DocumentJSON, document_json(document())),
        (DocumentJSON, document_json(document(), job())),
        (BlockJSON, block_json(pdf_block())),
        (BlockJSON, block_json(text_block())),
        (ChunkJSON, chunk_json(chunk())),
        (SearchJSON, search()),
        (PassageJSON, passage_json(unit)),
        (AnswerJSON, answer_json(answer())),
        (ThreadSummaryJSON, summary()),
        (ThreadJSON, full_thread()),
        (CollectionJSON, collection_json(collection())),
        (DoctorJSON, doctor()),
        (UserJSON, user_json(User("alice", CREATED, disabled=True))),
        (OrgJSON, org_json(Org("eng", CREATED, parent="acme"))),
        (MembershipJSON, membership_json(Membership("eng", "alice", "admin"))),
        (TokenJSON, token_json(ApiToken("t1", "alice", "ci", CREATED))),
        (ChatJSON, chat_json(chat())),
        (ConflictsJSON, conflicts()),
        (FeedbackJSON, feedback_json(feedback())),
        (
            CodeViewJSON,
            code_view_json("d1", [code_block()], [[TokenSpan(0, 3, "keyword")]], [collection()]),
        ),
        (IdentifierJSON, identifier()),
        (CallJSON, call_json(11, code_place())),
        (CallNodeJSON, call_node_json(CallNode(code_place(), 1, line=11, cut="cycle"))),
    ]


def conflicts() -> ConflictsJSON:
    """A scan report and one pair, one side with a block span and one without."""
    first = ConflictSide("c1", "d1", 2, 4, 8, SPAN, ("15.2",), (SPAN,))
    second = ConflictSide("c2", "d2", None, 4, 8, None, ("15.3",), (BlockSpan("b9", 0, 20),))
    pair = ConflictPair(first, second, "version", 0.97, 0.95, CREATED)
    report = ScanReport(2, 10, 1, 4, 1, 0.25)
    return conflicts_json(report, [pair], {"d1": "Guide"}, {"c1": "Use 15.2 now"})


def feedback() -> Feedback:
    """A thumbs-down with every part of its frozen copy and its triage filled."""
    citation = Citation(1, "d1", "T", 4, "b2", 3, 12, "根据文档回答问题", "h1", ("c1",), ("h2",))
    ranked = RankedChunk(1, Hit("c1", "d1", 0.5, "hybrid", 2.0, 1, 0.8, 3, None), "T", "h2")
    judged = Judged(
        "什么是随问？", "随问。[1]", "answered", "", (citation,), (ranked,), "hybrid",
        ("n",), "extractive", "m", "light", Timings(1.5, 2.5, 3.5, 7.5),
    )  # fmt: skip
    triage = Triage("generation_fault", "why", ("found: x",), "terms")
    return Feedback("f1", "alice", "t", "u", "down", "too long", judged, CREATED, "api", triage)
