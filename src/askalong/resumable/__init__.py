"""Resumable uploads: the bytes of a file arriving in pieces, possibly over many
connections, until the whole file is in and becomes a document (``server/routes/resumable``
speaks the tus protocol over this)."""
