"""The ask command: a grounded answer with numbered, verified quotes; asked of the
running ``askalong serve`` of the same home when there is one (``cli/resident.py``)."""

from __future__ import annotations

from collections.abc import Sequence

import click

from askalong.cli.output import console, print_json, shown
from askalong.cli.resident import AskOptions, ask_resident
from askalong.config import load_settings
from askalong.types import INTENTS, Answer, AnswerPassage
from askalong.wire import AnswerJSON, answer_from_json, answer_json

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
@click.option(
    "--in-process",
    is_flag=True,
    help="Answer in this process even when 'askalong serve' runs for this home.",
)
def ask(
    question: str,
    documents: Sequence[str],
    collection: str | None,
    at: str | None,
    selected: str | None,
    intent: str | None,
    thread_id: str | None,
    as_json: bool,
    in_process: bool,
) -> None:
    """Ask a question; the answer quotes the documents and every quote is checked."""
    options = AskOptions(question, documents, collection, at, selected, intent, thread_id)
    if not in_process:
        asked = ask_resident(load_settings().home, options)
        if asked is not None:
            _print(asked.answer, as_json, f"askalong serve, pid {asked.server.pid}")
            return
    from askalong.providers.local.e5.threads import single_blas_thread

    single_blas_thread()  # before the engines import numpy
    from askalong.cli.ask_here import answer_here  # the engines: only when answering here

    _print(answer_json(answer_here(options)), as_json)


def _print(answer: AnswerJSON, as_json: bool, via: str = "") -> None:
    """The answer as JSON, or as text (its footer naming the server that gave it)."""
    if as_json:
        print_json(answer)
    else:
        _print_answer(answer_from_json(answer), via)


def _print_answer(answer: Answer, via: str = "") -> None:
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
    through = f" · via {via}" if via else ""
    console.print(
        f"\n[dim]thread {answer.thread_id} · {answer.answerer}"
        f" · {answer.timings.total_ms:.0f} ms{shown(through)}[/]"
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
