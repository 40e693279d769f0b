"""A thread as Markdown, for ``GET /api/threads/{id}/export``: each turn's question, where it
was asked, the answer, its quotes with page and section, and how the answer was checked.

Built from the thread's JSON form (``wire.ThreadJSON``), so the export says exactly what the
reader shows. Document text is quoted verbatim, inside block quotes line by line, and every
one-line field (a heading, a section name) is folded onto one line, so no text of the
document can start a heading or end a quote of its own.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from askalong.wire import PlacedAnchorJSON, QuoteJSON, ThreadJSON, TurnJSON

VERDICT_WORDS = {
    "supported": "supported",
    "weak": "weak support",
    "suspicious": "suspicious",
    "unverified": "not checked",
}


def thread_markdown(thread: ThreadJSON, document_title: str | None) -> str:
    """The whole thread; ``document_title`` is None when its document is gone."""
    head = [f"# {_line(thread['title'])}", ""]
    if document_title is not None:
        head += [f"Document: {_line(document_title)}", ""]
    count = len(thread["turns"])
    head += [f"Asked {thread['created'][:10]} · {count} question{'' if count == 1 else 's'}", ""]
    body = [line for turn in thread["turns"] for line in _turn(turn)]
    return "\n".join(head + body).rstrip("\n") + "\n"


def _turn(turn: TurnJSON) -> Iterator[str]:
    answer = turn["answer"]
    question = turn["question"].strip() or answer["question"]
    yield f"## {turn['index'] + 1}. {_line(question)}"
    yield ""
    if turn["anchor"] is not None:
        yield f"Asked at {_anchor(turn['anchor'])}"
        yield ""
    if answer["status"] == "not_covered":
        yield from _not_covered(answer["answer"], answer["searched"])
        return
    yield from (answer["answer"].strip(), "")
    for quote in answer["quotes"]:
        yield from _quote(quote)
    if answer["explanation"].strip():
        yield from (answer["explanation"].strip(), "")
    if answer["claims"]:
        yield from ("How the answer was checked:", "")
        for claim in answer["claims"]:
            yield f"- {_verdict(claim['verdict'])}: {_line(claim['text'])}"
        yield ""


def _not_covered(answer: str, searched: Sequence[str]) -> Iterator[str]:
    yield from (answer.strip() or "The document does not cover this.", "")
    if searched:
        yield "Searched: " + "; ".join(_line(s) for s in searched)
        yield ""


def _quote(quote: QuoteJSON) -> Iterator[str]:
    yield from (f"> {line}".rstrip() for line in quote["text"].splitlines() or [""])
    place = where(quote["page"], quote["section_path"])
    yield f"> — [{quote['number']}] {place} ({_verdict(quote['verdict'])})"
    yield ""


def _anchor(anchor: PlacedAnchorJSON) -> str:
    place = where(anchor["page"], anchor["section_path"])
    selected = _line(anchor["selected_text"] or "")
    return f"{place}: “{selected}”" if selected else place


def where(page: int | None, section_path: Sequence[str]) -> str:
    """``p. 3 · Methods › Data``, as the reader's quote cards say it."""
    parts = [f"p. {page}"] if page else []
    if section_path:
        parts.append(" › ".join(_line(s) for s in section_path))
    return " · ".join(parts) or "the document"


def _verdict(verdict: str) -> str:
    return VERDICT_WORDS.get(verdict, verdict)


def _line(text: str) -> str:
    return " ".join(text.split())
