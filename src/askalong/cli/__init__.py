"""The ``askalong`` command: thin; it parses arguments, calls the core and prints.

Domain errors are translated here into one-line messages and exit status 1.
"""

from __future__ import annotations

from typing import Any

import click

from askalong.cli.accounts import org, user
from askalong.cli.adding import add
from askalong.cli.ask import ask
from askalong.cli.chat import chat
from askalong.cli.code import calls
from askalong.cli.collections import collections
from askalong.cli.conflicts import conflicts
from askalong.cli.doctor import doctor
from askalong.cli.documents import docs, rm, show
from askalong.cli.evaluate import evaluate
from askalong.cli.feedback import feedback
from askalong.cli.jobs import retry, worker
from askalong.cli.output import fail
from askalong.cli.search import search
from askalong.cli.serve import serve
from askalong.cli.token import token
from askalong.cli.visibility import visibility
from askalong.errors import AskAlongError


class _Group(click.Group):
    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except AskAlongError as exc:
            fail(str(exc))
        except KeyboardInterrupt:
            fail("interrupted")


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="askalong")
def main() -> None:
    """AskAlong (随问): grounded answers about what you are reading.

    Documents and indexes live under ASKALONG_HOME (default ~/.askalong).
    """


for command in (
    add,
    docs,
    show,
    rm,
    retry,
    worker,
    visibility,
    collections,
    search,
    ask,
    chat,
    feedback,
    calls,
    serve,
    token,
    user,
    org,
    evaluate,
    doctor,
    conflicts,
):
    main.add_command(command)

__all__ = ["main"]
