"""The ask command: a grounded answer with numbered, verified quotes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import cast

import click

from askalong.asking.asker import Question
from askalong.asking.choose import make_asker
from askalong.asking.limits import check_sizes
from askalong.cli.output import console, print_json, shown
from askalong.context.line_anchor import LineRef, line_anchor, line_ref, names_file
from askalong.errors import InputError
from askalong.library import opened_library
from askalong.store.base import Store
from askalong.types import INTENTS, Access, Anchor, Answer, AnswerPassage, Document, Intent
from askalong.wire import answer_json

VERDICT_STYLES = {
    "supported": "green",
    "weak": "yellow",
    "suspicious": "red",
    "unverified": "dim",
}


@click.command()
@click.argument("question", required=False, default="")
@click.option("--doc", "documents", multiple=True, help="Ask about this document (repeatable).")
@click.option(
    "--collection", default=None, metavar="NAME", help="Ask this collection's documents as one."
)
@click.option(
    "--at",
    "at",
    default=None,
    metavar="BLOCK[:START-END]|FILE:LINE[-LINE]",
    help="Anchor at a block of --doc (optionally a character span of it), or at lines of a"
    " source file (found among --doc, the --collection, or all documents).",
)
@click.option(
    "--select",
    "selected",
    default=None,
    metavar="TEXT",
    help="Anchor at this selected text of --doc (found in the document).",
)
@click.option(
    "--intent",
    type=click.Choice([i for i in INTENTS if i != "ask"]),
    default=None,
    help="A quick intent; with an anchor it is a complete question on its own.",
)
@click.option("--thread", "thread_id", default=None, help="Follow up in this thread.")
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON (see README).")
def ask(
    question: str,
    documents: Sequence[str],
    collection: str | None,
    at: str | None,
    selected: str | None,
    intent: str | None,
    thread_id: str | None,
    as_json: bool,
) -> None:
    """Ask a question; the answer quotes the documents and every quote is checked."""
    with opened_library() as library:
        access = Access.local()
        members = () if collection is None else tuple(library.collection(collection, access)[1])
        ref = None if at is None else line_ref(at)
        if ref is not None:  # a source file's lines: its document is the anchor's
            documents = (_source_document(library.store, access, ref, documents, members),)
        core_question = _question(
            library.store, access, question, intent, documents, None if ref else at, selected
        )
        if ref is not None:
            anchor = line_anchor(documents[0], library.store.blocks(documents[0]), ref)
            core_question = replace(core_question, anchor=anchor)
        elif members:  # they join any --doc; an anchor stays on --doc
            core_question = replace(core_question, documents=core_question.documents + members)
        asker = make_asker(library)
        answer = asker.ask(replace(core_question, thread_id=thread_id), access)
    if as_json:
        print_json(answer_json(answer))
    else:
        _print_answer(answer)


def _question(
    store: Store,
    access: Access,
    text: str,
    intent: str | None,
    refs: Sequence[str],
    at: str | None,
    selected: str | None,
) -> Question:
    """The core's question: each --doc resolved (and access checked) here, once; the core
    trusts the resolved documents."""
    documents = tuple(store.get_document(ref, access) for ref in refs)
    anchor = _anchor(documents[0].id if documents else None, at, selected)
    check_sizes(text, anchor)  # before any work: the embedder is shared
    return Question(text, cast(Intent, intent or "ask"), anchor, documents)


def _source_document(
    store: Store,
    access: Access,
    ref: LineRef,
    refs: Sequence[str],
    members: Sequence[Document],
) -> str:
    """The id of the one source document ``ref.file`` names, among --doc, the
    collection's members, else all documents."""
    pool = [store.get_document(r, access) for r in refs] or list(members)
    found = [d.id for d in pool or store.list_documents(access) if names_file(d.source, ref.file)]
    if len(found) != 1:
        problem = "no document is this file" if not found else "several documents end so"
        raise InputError(f"{problem}; give --doc or a longer path", source=ref.file)
    return found[0]


def _anchor(document_id: str | None, at: str | None, selected: str | None) -> Anchor | None:
    if at is None and selected is None:
        return None
    if document_id is None:
        raise InputError("--at and --select need --doc", source="--at")
    if selected is not None:
        return Anchor(document_id, selected_text=selected)
    assert at is not None
    block_id, _, span = at.partition(":")
    if not span:
        return Anchor(document_id, block_id)
    start, _, end = span.partition("-")
    if not (start.isdigit() and end.isdigit()):
        raise InputError(f"{at!r}: expected BLOCK:START-END with numbers", source="--at")
    return Anchor(document_id, block_id, int(start), int(end))


def _print_answer(answer: Answer) -> None:
    console.print(f"[bold]{shown(answer.answer, lines=True)}[/]")
    if answer.passage is not None:
        _print_passage(answer.passage)
    if answer.status == "not_covered":
        for item in answer.searched:
            console.print(f"[dim]searched: {shown(item)}[/]")
    for quote in answer.quotes:
        style = VERDICT_STYLES[quote.verdict]
        where = f"p. {quote.page}, " if quote.page else ""
        section = " > ".join(quote.section_path)
        console.print(
            f"\n[{style}][{quote.number}] {quote.verdict}[/] [dim]{where}{shown(section)}"
            f" ({quote.document_id} {quote.block_id}:{quote.start}-{quote.end})[/]"
        )
        console.print(f"    “{shown(quote.text, lines=True)}”")
    if answer.explanation:
        console.print(f"\n{shown(answer.explanation, lines=True)}")
    for note in answer.notes:
        console.print(f"[yellow]note:[/] {shown(note)}")
    console.print(
        f"\n[dim]thread {answer.thread_id} · {answer.answerer}"
        f" · {answer.timings.total_ms:.0f} ms[/]"
    )


def _print_passage(passage: AnswerPassage) -> None:
    """The paragraph the answer sits in, the answer emphasised: bold and underlined on a
    terminal, between Markdown's ``**`` where there is no colour (a pipe, NO_COLOR)."""
    where = f"p. {passage.page}, " if passage.page else ""
    section = " > ".join(passage.section_path)
    first = passage.spans[0] if passage.spans else None
    place = f" ({passage.document_id} {first.block_id})" if first else ""
    console.print(f"\n[dim]in the passage · {where}{shown(section)}{place}[/]")
    styled = console.color_system is not None
    console.print(
        marked_passage(passage, *(("[bold underline]", "[/]") if styled else ("**",) * 2))
    )


def marked_passage(passage: AnswerPassage, opening: str, closing: str) -> str:
    """The passage's text made safe (``shown``), each answer span between ``opening`` and
    ``closing``."""
    text, out, at = passage.text, [], 0
    for span in sorted(passage.answer_spans, key=lambda s: s.start):
        if span.start < at:  # overlapping spans: the first one marks the place
            continue
        out += [shown(text[at : span.start], lines=True), opening]
        out += [shown(text[span.start : span.end], lines=True), closing]
        at = span.end
    out.append(shown(text[at:], lines=True))
    return "".join(out)
