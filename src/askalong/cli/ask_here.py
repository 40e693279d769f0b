"""Answering ``askalong ask`` in this process: the library opened, the options resolved
against the store (``--doc`` prefixes, ``--collection``, ``--at FILE:LINE``) and the
question asked of the engine. Imported only when no running server answers
(``cli/resident.py``): a question to the server costs none of these imports.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import cast

from askalong.asking.asker import Question
from askalong.asking.choose import make_asker
from askalong.asking.limits import check_sizes
from askalong.cli.progress import ReindexBar
from askalong.cli.resident import AskOptions, option_anchor
from askalong.context.line_anchor import LineRef, line_anchor, line_ref, names_file
from askalong.errors import InputError
from askalong.library import opened_library
from askalong.store.base import Store
from askalong.types import Access, Answer, Document, Intent


def answer_here(options: AskOptions) -> Answer:
    """The command's question answered with this process's library."""
    documents, collection, at = options.documents, options.collection, options.at
    with opened_library(ReindexBar()) as library:
        access = Access.local()
        members = () if collection is None else tuple(library.collection(collection, access)[1])
        ref = None if at is None else line_ref(at)
        if ref is not None:  # a source file's lines: its document is the anchor's
            documents = (_source_document(library.store, access, ref, documents, members),)
        core_question = _question(library.store, access, options, documents, ref is None)
        if ref is not None:
            anchor = line_anchor(documents[0], library.store.blocks(documents[0]), ref)
            core_question = replace(core_question, anchor=anchor)
        elif members:  # they join any --doc; an anchor stays on --doc
            core_question = replace(core_question, documents=core_question.documents + members)
        asker = make_asker(library)
        return asker.ask(replace(core_question, thread_id=options.thread_id), access)


def _question(
    store: Store, access: Access, options: AskOptions, refs: Sequence[str], block_at: bool
) -> Question:
    """The core's question: each document resolved (and access checked) here, once; the
    core trusts the resolved documents. ``block_at``: ``--at`` names a block (not lines)."""
    documents = tuple(store.get_document(ref, access) for ref in refs)
    at = options.at if block_at else None
    anchor = option_anchor(documents[0].id if documents else None, at, options.selected)
    check_sizes(options.question, anchor)  # before any work: the embedder is shared
    return Question(options.question, cast(Intent, options.intent or "ask"), anchor, documents)


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
