"""The ``askalong`` command: thin; it parses arguments, calls the core and prints.

Domain errors are translated here into one-line messages and exit status 1. A command's
module is imported only when that command runs (or its help is asked for): ``askalong
--help`` and a mistyped verb cost a blink, not the import of every engine.
"""

from __future__ import annotations

import atexit
import gc
import importlib
from typing import Any

import click

from askalong.errors import AskAlongError

# verb -> (module under askalong.cli, its function, the one line `askalong --help` shows).
# The line is the command's own first docstring sentence; tests/unit/test_docs.py keeps
# them equal, so the help has one home and the listing needs no import.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "add": (
        "adding",
        "add",
        "Add files, folders (recursively) and http(s) URLs of web pages or PDFs.",
    ),
    "docs": (
        "documents",
        "docs",
        "List the documents, newest first (a collection's: by title).",
    ),
    "show": (
        "documents",
        "show",
        "Show a document (id or id prefix): its outline, blocks, chunks or symbols.",
    ),
    "rm": (
        "documents",
        "rm",
        "Remove a document (id or id prefix) with its blocks, chunks and stored file.",
    ),
    "retry": (
        "jobs",
        "retry",
        "Queue a document (id or id prefix) for ingestion again: a failed job gets "
        "fresh attempts; `askalong worker` (or a running server) does the work.",
    ),
    "worker": (
        "jobs",
        "worker",
        "Run queued ingestion jobs (from `add --queue` and finished uploads), one log"
        " line per step.",
    ),
    "visibility": (
        "visibility",
        "visibility",
        "Make document DOC (id or prefix) private, shared with its orgs, or public.",
    ),
    "collections": (
        "collections",
        "collections",
        "List the collections (name, documents, chunks); `collections rm NAME` removes one.",
    ),
    "search": (
        "search",
        "search",
        "Search the documents: hits with page, section and per-route scores.",
    ),
    "ask": (
        "ask",
        "ask",
        "Ask a question; the answer quotes the documents and every quote is checked.",
    ),
    "chat": (
        "chat",
        "chat",
        "Ask the knowledge base; each part of the question is searched and cited.",
    ),
    "feedback": (
        "feedback",
        "feedback",
        "Rate answers (up/down with a reason), list the ratings, export them for eval.",
    ),
    "calls": (
        "code",
        "calls",
        "Which paths does this trigger? The calls from the function at FILE:LINE, as "
        "a tree (functions of its repository only; a cycle is cut), one line per node"
        " with its lines.",
    ),
    "serve": (
        "serve",
        "serve",
        "Start the reader and the HTTP API (OpenAPI docs at /docs).",
    ),
    "token": (
        "token",
        "token",
        "Print the HTTP API token of this ASKALONG_HOME (scripts send it as "
        "'Authorization: Bearer <token>'; a browser opens the reader at "
        "/?token=<token>).",
    ),
    "user": (
        "accounts",
        "user",
        "Accounts of a multi-user server: add, list, disable, password.",
    ),
    "org": (
        "accounts",
        "org",
        "Organisations (a tree) and their members: add, list, member.",
    ),
    "eval": (
        "evaluate",
        "evaluate",
        "Measure retrieval (and later answers) on public test collections.",
    ),
    "doctor": (
        "doctor",
        "doctor",
        "Check that the store, the keyword index, the vectors and the files agree.",
    ),
    "conflicts": (
        "conflicts",
        "conflicts",
        "List chunk pairs of different documents that contradict each other.",
    ),
    "migrate": (
        "migrate",
        "migrate",
        "Copy this ASKALONG_HOME into server mode (documents, chunks, vectors, accounts,"
        " threads, feedback, jobs) and compare the counts; run it again after a crash to"
        " finish, or after it finished to change nothing.",
    ),
}


class _Group(click.Group):
    """The verbs of COMMANDS, each loaded on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module, attribute, _ = COMMANDS[name]
        command = getattr(importlib.import_module(f"askalong.cli.{module}"), attribute)
        assert isinstance(command, click.Command)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        limit = formatter.width - 6 - max(map(len, COMMANDS))
        rows = [(name, _shortened(line, limit)) for name, (_, _, line) in COMMANDS.items()]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def invoke(self, ctx: click.Context) -> Any:
        from askalong.cli.output import fail  # rich and the settings: only on the way out

        _no_collection_at_exit()
        try:
            return super().invoke(ctx)
        except AskAlongError as exc:
            fail(str(exc))
        except KeyboardInterrupt:
            fail("interrupted")


def _no_collection_at_exit() -> None:
    """Freeze the heap once the command has run: the interpreter's shutdown then skips its
    collector passes over every loaded module's objects (~35 CPU ms of an ``askalong
    ask``, issue 28); the process ends and the system takes the memory back. Registered
    once, however often a test runs a command in its process."""
    atexit.unregister(gc.freeze)
    atexit.register(gc.freeze)


def _shortened(line: str, limit: int) -> str:
    return line if len(line) <= limit else line[: max(limit - 3, 10)].rstrip() + "..."


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="askalong")
def main() -> None:
    """AskAlong (随问): grounded answers about what you are reading.

    Documents and indexes live under ASKALONG_HOME (default ~/.askalong).
    """


def command(name: str) -> click.Command:
    """The command behind verb ``name`` (imports its module)."""
    found = main.get_command(click.Context(main), name)
    if found is None:
        raise KeyError(name)
    return found


__all__ = ["COMMANDS", "command", "main"]
