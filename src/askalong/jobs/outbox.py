"""Queueing a document: its row (status pending: no blocks yet) and its job in one
transaction, the original stored with them (the outbox). A worker does the reading.

What can be known without parsing is known now: the id (from the content), the format
(from the bytes: an unsupported file is refused at once, as an inline add refuses it),
owner, visibility and org tags; title, language and pages follow from the parse step.
"""

from __future__ import annotations

import hashlib

from askalong.errors import NotFound
from askalong.ingest.inputs import Upload
from askalong.ingest.pipeline import AddOutcome, Ingestor, pending_document
from askalong.parse.detect import detect_format
from askalong.store.base import Store
from askalong.types import Access, Document, Visibility
from askalong.values.jobs import Job


def queue_upload(
    ingestor: Ingestor,
    store: Store,
    upload: Upload,
    access: Access,
    *,
    visibility: Visibility | None = None,
) -> AddOutcome:
    """Queue ``upload`` for ``access.user``: ``queued``, or ``exists`` (the same content is
    one document, queued once, but for a copy beside one ``access`` may not see:
    ``Ingestor.placed_id``); bad input raises, as ``Ingestor.add_upload`` does."""
    content_hash = hashlib.sha256(upload.data).hexdigest()
    known = ingestor.known(upload, content_hash, access)
    if known is not None:
        return known
    fmt = detect_format(upload.data, source=upload.source)  # unsupported: refused now
    chosen = visibility or ingestor.settings.visibility
    placed = ingestor.placed(content_hash, access, upload.source)
    document = pending_document(upload, placed, fmt, access, chosen)
    if store.enqueue_document(document, upload.data) is None:  # queued meanwhile elsewhere
        return ingestor.known(upload, content_hash, access) or AddOutcome(upload.source, "exists")
    return AddOutcome(upload.source, "queued", document)


def queue_item(
    ingestor: Ingestor,
    store: Store,
    item: str,
    access: Access,
    visibility: Visibility | None,
    source: str | None = None,
) -> AddOutcome:
    """``queue_upload`` for a path or URL (called ``source`` when given, as in
    ``Ingestor.add``); never raises for bad input."""
    return ingestor.add(
        item,
        access,
        visibility=visibility,
        add=lambda upload: queue_upload(ingestor, store, upload, access, visibility=visibility),
        source=source,
    )


def retry_document(store: Store, ref: str, access: Access) -> tuple[Document, Job]:
    """Queue the document (id or prefix) again for ``access``: its owner or ``everything``
    may; anyone else, as for a document that is not there, gets ``NotFound``."""
    document = store.get_document(ref, access)
    if not (access.everything or document.owner == access.user):
        raise NotFound("no such document", source=ref)
    return document, store.retry_job(document.id)
