"""The KB evaluation's knowledge base: the corpus ingested once into a library of its own
under ``<home>/kb/<corpus digest>``, with the corpus's orgs and users made first and each
document added by its owner with its visibility, so that every search runs the product's
own permission filter. ``kb.json`` beside it maps each corpus key to its document id; a
document already recorded is not read again.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from askalong.config import Settings
from askalong.errors import InputError
from askalong.evaluate.kb_corpus import KbCorpus, KbDocument, materialised
from askalong.ingest.describe import descriptions_key
from askalong.library import Library
from askalong.types import Access

Progress = Callable[[str, int, int], None]  # (stage, done, total)


@dataclass(frozen=True)
class KbLibrary:
    library: Library
    ids: dict[str, str]  # corpus key -> document id

    def keys(self) -> dict[str, str]:
        """Document id -> corpus key."""
        return {doc_id: key for key, doc_id in self.ids.items()}


def kb_settings(settings: Settings, corpus: KbCorpus) -> Settings:
    """The corpus's own home; one built with descriptions is another (``descriptions_key``)."""
    folder = "-".join(filter(None, (corpus.digest, descriptions_key(settings))))
    return dataclasses.replace(settings, home=settings.home / "kb" / folder)


def open_kb(
    settings: Settings, corpus: KbCorpus, evaldata: Path, progress: Progress | None = None
) -> KbLibrary:
    """The corpus's library, built where missing; the caller closes ``library``."""
    own = kb_settings(settings, corpus)
    library = Library(own)
    try:
        _accounts(library, corpus)
        ids = _documents(library, corpus, evaldata, own.home / "kb.json", progress)
        _embed(library, progress)
    except BaseException:
        library.close()
        raise
    return KbLibrary(library, ids)


def user_access(library: Library, name: str | None) -> Access:
    """Who asks: a corpus user as the store says (orgs and their ancestors), or the local
    single user (sees everything) for an item with no asker."""
    return Access.local() if name is None else library.store.access_of(name)


def _accounts(library: Library, corpus: KbCorpus) -> None:
    store = library.store
    known_orgs = {o.id for o in store.list_orgs()}
    for org in corpus.orgs:
        if org not in known_orgs:
            store.add_org(org)
    for user in corpus.users:
        if store.get_user(user.name) is None:
            store.add_user(user.name, secrets.token_urlsafe(16), admin=False)
        for org in user.orgs:
            store.set_member(org, user.name, "member")


def _documents(
    library: Library, corpus: KbCorpus, evaldata: Path, record: Path, progress: Progress | None
) -> dict[str, str]:
    ids: dict[str, str] = json.loads(record.read_text("utf-8")) if record.exists() else {}
    todo = [d for d in corpus.documents if d.key not in ids]
    for done, document in enumerate(todo, 1):
        ids[document.key] = _add(library, corpus, document, evaldata)
        record.write_text(json.dumps(ids, indent=1, ensure_ascii=False), encoding="utf-8")
        if progress:
            progress("ingesting", done, len(todo))
    return {d.key: ids[d.key] for d in corpus.documents}


def _add(library: Library, corpus: KbCorpus, document: KbDocument, evaldata: Path) -> str:
    owner = corpus.user(document.owner)
    access = Access(user=owner.name, orgs=owner.orgs, member_of=owner.orgs)
    path = materialised(document, evaldata, library.settings.home / "records")
    added = library.ingestor.add(
        str(path), access, visibility=document.visibility, source=document.key
    )
    if added.document is None:
        raise InputError(f"could not add the corpus document: {added.error}", source=document.key)
    return added.document.id


def _embed(library: Library, progress: Progress | None) -> None:
    pending = library.indexes.pending_vectors()
    if not pending:
        return
    total = sum(len(library.store.chunks(d.id)) for d in pending)

    def report(done: int) -> None:
        if progress:
            progress("embedding", done, total)

    result = library.indexes.embed(pending, report)
    if result.error:
        raise InputError(f"embedding the corpus failed: {result.error}", source="kb")
