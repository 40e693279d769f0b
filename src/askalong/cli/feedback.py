"""The feedback command: rate an answer (``feedback up|down TURN``), list the ratings
(``feedback list``), export them as evaluation items (``feedback export``).

A turn is named by its id (or a unique prefix of at least four characters) as ``ask
--json`` prints it (``turn_id``); the CLI is the install's owner, who rates their own
answers and exports everyone's."""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.table import Table

from askalong.answer.choose import make_judge
from askalong.cli.documents import json_option
from askalong.cli.output import console, print_json, shorten, shown
from askalong.cli.progress import ReindexBar
from askalong.errors import InputError, NotFound
from askalong.feedback.export import eval_item
from askalong.feedback.give import give_feedback
from askalong.library import opened_library
from askalong.store.base import MIN_PREFIX, Store
from askalong.types import Access
from askalong.values.feedback import FeedbackFilter
from askalong.wire import feedback_json


@click.group()
def feedback() -> None:
    """Rate answers (up/down with a reason), list the ratings, export them for eval."""


def _rate(rating: str, turn: str, reason: str, as_json: bool) -> None:
    access = Access.local()
    with opened_library(ReindexBar()) as library:
        store = library.store
        conversation, turn_id = find_turn(store, turn, access)
        made = give_feedback(
            store, access, conversation, turn_id, rating, reason,
            source="cli", judge=make_judge(library.settings),
        )  # fmt: skip
    if as_json:
        print_json(feedback_json(made))
        return
    label = f" (triage: {made.triage.label})" if made.triage else ""
    console.print(f"feedback {made.id} stored: {rating}{label}")


reason_option = click.option("--reason", default="", help="Why (at most 2,000 characters).")


@feedback.command("up")
@click.argument("turn")
@reason_option
@json_option
def up(turn: str, reason: str, as_json: bool) -> None:
    """Thumbs up on the answer TURN (a turn id, as `ask --json` prints it)."""
    _rate("up", turn, reason, as_json)


@feedback.command("down")
@click.argument("turn")
@reason_option
@json_option
def down(turn: str, reason: str, as_json: bool) -> None:
    """Thumbs down on the answer TURN; it is triaged (retrieval miss or fault, generation)."""
    _rate("down", turn, reason, as_json)


@feedback.command("list")
@json_option
def list_(as_json: bool) -> None:
    """Every rating, newest first, with its triage."""
    with opened_library(ReindexBar()) as library:
        found = library.store.list_feedback(Access.local(), FeedbackFilter(limit=10_000))
    if as_json:
        print_json({"feedback": [feedback_json(f) for f in found]})
        return
    if not found:
        console.print("No feedback yet. Rate an answer with: askalong feedback up|down TURN")
        return
    table = Table("id", "rating", "triage", "question", "reason", "created", box=None)
    for f in found:
        label = f.triage.label if f.triage else ""
        table.add_row(
            f.id[:12], f.rating, label, shorten(f.judged.question, 40),
            shorten(f.reason, 40), f.created[:16].replace("T", " "),
        )  # fmt: skip
    console.print(table)


@feedback.command("export")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="File to write.")
@click.option("--include-users", is_flag=True, help="Keep who gave each rating (default: no).")
@click.option(
    "--include-private", is_flag=True, help="Keep text quoted from users' private documents."
)
def export(out: Path | None, include_users: bool, include_private: bool) -> None:
    """The ratings as JSONL evaluation items for `askalong eval kb` (stdout by default)."""
    access = Access.local()
    with opened_library(ReindexBar()) as library:
        found = library.store.list_feedback(access, FeedbackFilter(limit=1_000_000))
        private = {
            d.id
            for d in library.store.list_documents(access)
            if d.visibility == "private" and d.owner != access.user and not include_private
        }
    lines = [
        json.dumps(eval_item(f, include_users=include_users, hidden=private), ensure_ascii=False)
        + "\n"
        for f in reversed(found)  # oldest first: a later export only appends
    ]
    if out is None:
        click.echo("".join(lines), nl=False)
        return
    out.write_text("".join(lines), encoding="utf-8")
    console.print(f"wrote {len(lines)} item(s) to {shown(str(out))}")


def find_turn(store: Store, ref: str, access: Access) -> tuple[str, str]:
    """(conversation id, turn id) of the turn ``ref`` names: its id or a unique prefix."""
    if len(ref) < MIN_PREFIX:
        raise InputError(f"a turn id needs at least {MIN_PREFIX} characters", source=ref)
    found = [
        (thread.id, turn.id)
        for thread in store.list_threads(access)
        for turn in store.turns(thread.id)
        if turn.id.startswith(ref)
    ]
    exact = [pair for pair in found if pair[1] == ref]
    if exact or len(found) == 1:
        return (exact or found)[0]
    if not found:
        raise NotFound("no such answer", source=ref)
    raise InputError(f"{len(found)} answers start with {ref!r}: give more of the id", source=ref)
