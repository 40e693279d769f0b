"""The values that flow through the pipeline: parse -> chunk -> index -> retrieve -> answer.

All are frozen dataclasses. Positions are kept everywhere so that a citation can be
highlighted exactly: a block knows its page and line boxes (PDF) or source line range
(text formats); a chunk knows which character span of which block it was made from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, get_args

from askalong.access_tokens import PUBLIC_TOKEN, org_token, user_token

Visibility = Literal["private", "org", "public"]
VISIBILITIES: tuple[str, ...] = get_args(Visibility)

BlockKind = Literal[
    "heading",
    "paragraph",
    "list_item",
    "table",
    "code",
    "caption",
    "footnote",
    "formula",
    "header",
    "footer",
    "navigation",
]
BLOCK_KINDS: tuple[str, ...] = get_args(BlockKind)

# Page furniture, and navigation (tables of contents, link lists, index pages), is kept
# for the reader but never chunked, searched or quoted.
FURNITURE_KINDS: frozenset[str] = frozenset({"header", "footer", "navigation"})

DocumentFormat = Literal["pdf", "html", "markdown", "text", "docx", "code"]
DOCUMENT_FORMATS: tuple[str, ...] = get_args(DocumentFormat)


@dataclass(frozen=True)
class LineBox:
    """One printed line of a block on a PDF page.

    Coordinates are PDF points with the origin at the page's top-left corner (y grows
    downwards, as on screen). ``start``/``end`` are the character offsets of this line
    within the block's text, so a character span maps back to rectangles. ``page`` is
    set only on the lines of a paragraph that runs on past a page break: the page those
    lines lie on (``None``: the block's own page).
    """

    x0: float
    top: float
    x1: float
    bottom: float
    start: int
    end: int
    page: int | None = None


@dataclass(frozen=True)
class Block:
    """A unit of a document in reading order: a heading, a paragraph, a table, ..."""

    id: str
    kind: BlockKind
    text: str
    order: int
    section_path: tuple[str, ...] = ()
    heading_level: int = 0
    page: int | None = None  # 1-based; None for formats without pages
    boxes: tuple[LineBox, ...] = ()  # PDF only
    lines: tuple[int, int] | None = None  # 1-based inclusive source line range (text formats)

    @property
    def last_page(self) -> int | None:
        """The page its last line lies on: past ``page`` when it runs on across a break."""
        return self.page_at(len(self.text))

    def page_at(self, offset: int) -> int | None:
        """The page the character at ``offset`` lies on (its line's, else the block's)."""
        pages = [box.page for box in self.boxes if box.page and box.start <= offset]
        return pages[-1] if pages else self.page


@dataclass(frozen=True)
class ParsedDocument:
    """What a parser returns: the blocks and what it learned about the document."""

    format: DocumentFormat
    blocks: tuple[Block, ...]
    title: str = ""
    page_count: int = 0
    page_sizes: tuple[tuple[float, float], ...] = ()  # PDF (width, height) in points, per page
    ocr_pages: tuple[int, ...] = ()  # 1-based pages that are images only and need OCR
    unread_pages: tuple[int, ...] = ()  # of ``ocr_pages``, those OCR did not read (its budget)
    # PDF, per page: degrees clockwise its text lines run on the displayed page (() upright)
    page_turns: tuple[int, ...] = ()
    notices: tuple[str, ...] = ()  # human-readable remarks, e.g. "3 pages need OCR"


@dataclass(frozen=True)
class Document:
    """A stored document. ``id`` is derived from the content hash, so the same bytes
    added twice are the same document."""

    id: str
    content_hash: str
    title: str
    source: str
    format: DocumentFormat
    language: str
    page_count: int
    size_bytes: int
    created: str  # ISO 8601, UTC
    owner: str = "local"
    visibility: Visibility = "private"
    org_tags: tuple[str, ...] = ()
    page_sizes: tuple[tuple[float, float], ...] = ()
    ocr_pages: tuple[int, ...] = ()
    notices: tuple[str, ...] = ()
    page_turns: tuple[int, ...] = ()
    unread_pages: tuple[int, ...] = ()  # scanned pages OCR has not read yet ("read it now")


@dataclass(frozen=True)
class BlockSpan:
    """The characters ``text[start:end]`` of one block that a chunk covers."""

    block_id: str
    start: int
    end: int


@dataclass(frozen=True)
class Chunk:
    """A retrieval unit: consecutive block spans under one heading.

    ``text`` is exactly the block spans joined by ``CHUNK_JOINER``. ``description`` is its
    background (what document, section and subject it belongs to; ``chunk/descriptions``),
    empty unless ``ASKALONG_CONTEXT_DESCRIPTIONS`` is on: searched with the text, never quoted.
    """

    id: str
    document_id: str
    order: int
    spans: tuple[BlockSpan, ...]
    text: str
    section_path: tuple[str, ...] = ()
    page_start: int | None = None
    page_end: int | None = None
    description: str = ""

    @property
    def size(self) -> int:
        return len(self.text)


CHUNK_JOINER = "\n"


@dataclass(frozen=True)
class Access:
    """Who is asking: the permission filter every store query and search route applies.

    Access is a set of tokens on both sides. A document carries ``u:<owner>``, plus
    ``public`` when public, plus ``o:<tag>`` for each org tag when its visibility is
    ``org`` (``document_tokens``); a caller holds ``u:<user>``, ``public`` and ``o:<org>``
    for each org in ``orgs`` (``tokens``). A document is visible when the two sets meet.
    ``orgs`` is every org the caller is a member of **and every ancestor of those** (the
    accounts store computes it once per request): a department's member sees the company's
    ``org`` documents, the company's members do not see the department's. ``everything``
    is the local, single-user case (the CLI on one's own machine, a server with no accounts).
    ``admin_of`` names the orgs whose shared documents the caller may re-share,
    ``member_of`` the orgs the caller belongs to directly: what a document they add is
    tagged with (its ``org`` visibility shares it there, and so with those orgs' subtrees).
    """

    user: str = "local"
    orgs: tuple[str, ...] = ()
    everything: bool = False
    admin_of: tuple[str, ...] = ()
    member_of: tuple[str, ...] = ()

    @classmethod
    def local(cls) -> Access:
        return cls(user="local", everything=True)

    @property
    def tokens(self) -> tuple[str, ...]:
        """The caller's access tokens, sorted (a query clause or an SQL ``IN`` list)."""
        return tuple(sorted({PUBLIC_TOKEN, user_token(self.user), *map(org_token, self.orgs)}))


@dataclass(frozen=True)
class StoredDocument:
    """A document with its blocks and chunks, as written to or read from a store."""

    document: Document
    blocks: tuple[Block, ...]
    chunks: tuple[Chunk, ...] = field(default=())


RetrievalMode = Literal["hybrid", "keyword", "vector"]


@dataclass(frozen=True, init=False)
class Hit:
    """One retrieved chunk with every route's evidence, kept for citations and triage.

    ``score`` is what the hit was ranked by (fused score, or a single route's score when
    only one route ran); the per-route scores and 1-based ranks are None when that route
    did not find the chunk or did not run. ``mode`` says which routes produced the list.
    """

    chunk_id: str
    document_id: str
    score: float
    mode: RetrievalMode
    keyword_score: float | None = None
    keyword_rank: int | None = None
    vector_score: float | None = None
    vector_rank: int | None = None
    rerank_score: float | None = None  # set when a reranker reordered the hits

    def __init__(
        self,
        chunk_id: str,
        document_id: str,
        score: float,
        mode: RetrievalMode,
        keyword_score: float | None = None,
        keyword_rank: int | None = None,
        vector_score: float | None = None,
        vector_rank: int | None = None,
        rerank_score: float | None = None,
    ) -> None:
        # The fields in one write: a frozen dataclass's own __init__ sets them one
        # object.__setattr__ at a time, twice as slow, and a search makes ~600 hits
        # (each route's 150, then one per fused chunk). Still frozen: assignment raises.
        self.__dict__.update(
            {"chunk_id": chunk_id, "document_id": document_id, "score": score, "mode": mode,
             "keyword_score": keyword_score, "keyword_rank": keyword_rank,
             "vector_score": vector_score, "vector_rank": vector_rank,
             "rerank_score": rerank_score}
        )  # fmt: skip


@dataclass(frozen=True)
class SearchResult:
    """One search's hits, ranked (``retrieve/search``), with the routes that ran."""

    query: str
    hits: tuple[Hit, ...]
    routes: tuple[str, ...]  # the routes that ran and answered
    notes: tuple[str, ...] = ()  # why a route was skipped, or why nothing was found


@dataclass(frozen=True)
class Anchor:
    """Where a read-along question was asked: a block (and optionally a character span
    of it), or only the selected text, which is then located in the document. A selection
    over several blocks gives every block's span in ``spans`` (document order, the first
    being ``block_id``'s); () for one block."""

    document_id: str
    block_id: str | None = None
    start: int | None = None
    end: int | None = None
    selected_text: str | None = None
    spans: tuple[BlockSpan, ...] = ()


Verdict = Literal["supported", "weak", "suspicious", "unverified"]
VERDICTS: tuple[str, ...] = get_args(Verdict)
AnswerStatus = Literal["answered", "not_covered"]
Intent = Literal["ask", "explain", "example", "compare"]
# Why a read-along question was answered from the whole document instead of its anchor
# (``context/anchor_scope.py``): it shares no terms with it, or it names another part.
SetAside = Literal["unrelated", "other_section"]
INTENTS: tuple[str, ...] = get_args(Intent)


@dataclass(frozen=True)
class Quote:
    """A verbatim piece of a source block that an answer cites.

    ``text`` is always the exact source text ``block.text[start:end]``: what the model
    wrote is only used to find the span, never shown.
    """

    number: int  # 1-based, as cited in the answer: [1], [2], ...
    document_id: str
    block_id: str
    start: int
    end: int
    text: str
    page: int | None = None
    section_path: tuple[str, ...] = ()
    verdict: Verdict = "unverified"


@dataclass(frozen=True)
class AnswerSpan:
    """Where the answer's quote ``quote`` sits in its passage: ``AnswerPassage.text[start:end]``
    (its block and offsets in the block are the quote's own)."""

    start: int
    end: int
    quote: int


@dataclass(frozen=True)
class AnswerPassage:
    """The paragraph the direct answer sits in, for reading the answer in place.

    ``text`` is exactly ``spans`` (block spans, in reading order) joined by CHUNK_JOINER, as
    a context unit's is; ``answer_spans`` mark the answer's quotes in it; ``spans`` give the
    block ids a reader scrolls to."""

    document_id: str
    text: str
    spans: tuple[BlockSpan, ...]
    answer_spans: tuple[AnswerSpan, ...]
    page: int | None = None
    section_path: tuple[str, ...] = ()


@dataclass(frozen=True)
class Claim:
    """One sentence of the answer with the quotes it cites and how well they support it."""

    text: str
    quote_numbers: tuple[int, ...]
    verdict: Verdict
    reasons: tuple[str, ...] = ()  # e.g. "number 42 not in the cited text"


@dataclass(frozen=True)
class Timings:
    retrieval_ms: float = 0.0
    answer_ms: float = 0.0
    verify_ms: float = 0.0
    total_ms: float = 0.0


@dataclass(frozen=True)
class ConflictNotice:
    """Two citations of one answer that contradict each other (the contradiction scan
    found their chunks): their numbers and what each says instead of the other."""

    first: int
    second: int
    kind: str  # "number" | "date" | "version" | "setting" | "negation"
    first_tokens: tuple[str, ...]
    second_tokens: tuple[str, ...]


@dataclass(frozen=True)
class Answer:
    """A grounded answer: the direct answer first, then the quotes that support it, then
    extra explanation; verdicts per quote and per claim."""

    status: AnswerStatus
    question: str
    answer: str
    quotes: tuple[Quote, ...] = ()
    explanation: str = ""
    claims: tuple[Claim, ...] = ()
    intent: Intent = "ask"
    anchor: Anchor | None = None
    thread_id: str | None = None
    turn_id: str | None = None
    answerer: str = "extractive"
    model: str | None = None
    # "light" | "strong" when a model answered; the code's (asking/code_routes) when written
    # from code; a chat answer's as stored: its one part's
    route: str | None = None
    searched: tuple[str, ...] = ()  # what was searched: shown with a not_covered answer
    notes: tuple[str, ...] = ()
    timings: Timings = field(default_factory=Timings)
    anchor_set_aside: SetAside | None = None  # the anchor was given but not used: why
    conflicts: tuple[ConflictNotice, ...] = ()  # cited sources that contradict each other
    # The retrieval's hits as ranked, with every route's scores and ranks: kept on the
    # stored turn so that feedback freezes what the answer was drawn from.
    hits: tuple[Hit, ...] = ()
    # the paragraph the direct answer sits in, its quotes marked (None: not covered, or no
    # quote of the answer lies in a passage the answerer read)
    passage: AnswerPassage | None = None
