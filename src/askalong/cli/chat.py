"""The chat command: the knowledge base as the asker sees it, answered by the agent
(several searches for a question of several parts), every citation numbered and checked."""

from __future__ import annotations

from collections.abc import Sequence

import click

from askalong.agent.chat_agent import ChatRequest
from askalong.agent.wiring import make_chat_agent
from askalong.cli.ask import VERDICT_STYLES
from askalong.cli.output import console, print_json, shown
from askalong.cli.progress import ReindexBar
from askalong.library import Library, opened_library
from askalong.types import Access, Document
from askalong.values.chat_answers import ChatAnswer
from askalong.wire import chat_json


@click.command()
@click.argument("question")
@click.option("--conversation", "conversation_id", default=None, help="Continue this conversation.")
@click.option(
    "--collection",
    "collections",
    multiple=True,
    metavar="NAME",
    help="Ask only this collection's documents (repeatable); default: every document.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON (see README).")
def chat(
    question: str, conversation_id: str | None, collections: Sequence[str], as_json: bool
) -> None:
    """Ask the knowledge base; each part of the question is searched and cited."""
    with opened_library(ReindexBar()) as library:
        access = Access.local()
        documents = _documents(library, collections, access)
        agent = make_chat_agent(library)
        answer = agent.ask(ChatRequest(question, access, documents, conversation_id))
    if as_json:
        print_json(chat_json(answer))
    else:
        _print_chat(answer)


def _documents(
    library: Library, collections: Sequence[str], access: Access
) -> tuple[Document, ...]:
    """The named collections' documents the asker may see, each once."""
    found: dict[str, Document] = {}
    for name in collections:
        for document in library.collection(name, access)[1]:
            found.setdefault(document.id, document)
    return tuple(found.values())


def _print_chat(answer: ChatAnswer) -> None:
    for note in answer.notes:
        console.print(f"[dim]{shown(note)}[/]")
    for step in answer.steps:
        query = step.arguments.get("query", "")
        console.print(f"[dim]· {step.name} {shown(str(query))}: {step.summary}[/]")
    console.print(f"\n[bold]{shown(answer.answer, lines=True)}[/]")
    for source in answer.sources:
        style = VERDICT_STYLES[source.verdict]
        where = f" p. {source.page}" if source.page else ""
        console.print(
            f"\n[{style}][{source.number}] {source.verdict}[/] {shown(source.title)}{where}"
            f" [dim]({source.document_id} {source.block_id}:{source.start}-{source.end})[/]"
        )
        console.print(f"    “{shown(source.text, lines=True)}”")
    scores = answer.scores
    if scores.precision is not None and scores.recall is not None:
        console.print(
            f"\n[dim]citation precision {scores.precision:.2f} · recall {scores.recall:.2f}[/]"
        )
    console.print(
        f"[dim]conversation {answer.conversation_id} · {answer.timings.total_ms:.0f} ms[/]"
    )
