"""The visibility command: who may see a document, changed in the store and in every
search route at once (``Library.set_visibility``)."""

from __future__ import annotations

from typing import cast

import click

from askalong.cli.documents import json_option
from askalong.cli.output import console, document_json, print_json, shown
from askalong.cli.progress import ReindexBar
from askalong.library import opened_library
from askalong.types import VISIBILITIES, Access, Visibility


@click.command()
@click.argument("doc")
@click.argument("value", type=click.Choice(VISIBILITIES), metavar="private|org|public")
@json_option
def visibility(doc: str, value: str, as_json: bool) -> None:
    """Make document DOC (id or prefix) private, shared with its orgs, or public.

    `org` shares it with the orgs of its owner (as they were when it was added) and every
    org below them; on a server, its owner or an admin of one of those orgs may change it.
    """
    with opened_library(ReindexBar()) as library:
        document = library.store.get_document(doc, Access.local())
        changed = library.set_visibility(document.id, cast(Visibility, value), Access.local())
    if as_json:
        print_json({"document": document_json(changed)})
        return
    console.print(f"{shown(changed.title)} ({changed.id}) is now {changed.visibility}")
