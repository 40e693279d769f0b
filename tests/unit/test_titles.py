"""Title chunks (a document's title and byline) rank after their document's next chunk."""

from __future__ import annotations

from askalong.retrieve.titles import title_only, titles_last
from askalong.types import Chunk, Hit

PAPER = "Construction of the Literature Graph in Semantic Scholar"


def chunk(text: str, order: int = 0) -> Chunk:
    return Chunk("c", "d", order, (), text)


def test_a_title_and_byline_is_a_title_chunk() -> None:
    byline = "\nWaleed Ammar, Daniel S. Weld, and Oren Etzioni\nwaleeda@allenai.org\nSeattle WA"
    assert title_only(chunk(PAPER + byline), PAPER)
    claim = "Bariatric surgery: a meta-analysis."
    assert title_only(chunk(claim), claim)
    template = "一个优美的 LATEX 工作论文模板"
    assert title_only(chunk(template + "\nElegantPaper: Ethan DENG"), template)


def test_a_chunk_with_a_sentence_or_not_first_is_not() -> None:
    assert not title_only(chunk(PAPER + "\nThe literature graph has 280M nodes."), PAPER)
    assert not title_only(chunk(PAPER, order=1), PAPER)
    assert not title_only(chunk("Abstract\nWe describe a system."), PAPER)
    # A web page's first chunk: its title line, then the question it asks.
    page = "建行理财到期钱没了-就爱阅读网\n建设银行的理财产品为什么到期了,钱还没有到账?"
    assert not title_only(chunk(page), "建行理财到期钱没了-就爱阅读网")
    assert not title_only(chunk(PAPER), "")
    # A reference page's purpose line answers "what does COPY do?": not a title chunk.
    assert not title_only(chunk("COPY\nCOPY — copy data between a file and a table"), "COPY")


def hits(*rows: tuple[str, str, float]) -> list[Hit]:
    return [Hit(chunk_id, doc, score, "hybrid") for chunk_id, doc, score in rows]


def test_a_title_chunk_goes_just_below_its_documents_next_chunk() -> None:
    ranked = hits(("title", "p", 3.0), ("other", "q", 2.5), ("abstract", "p", 2.0), ("x", "q", 1.0))
    moved = titles_last(ranked, {"title"})
    assert [h.chunk_id for h in moved] == ["other", "abstract", "title", "x"]
    assert 1.0 < moved[2].score < 2.0
    # Alone in its document, or not a title: it keeps its place and score.
    alone = hits(("title", "p", 3.0), ("other", "q", 2.5))
    assert titles_last(alone, {"title"}) == alone
    assert titles_last(ranked, set()) == ranked
