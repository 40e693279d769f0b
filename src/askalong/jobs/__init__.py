"""Ingestion jobs: a document queued in the store is read by a worker that survives crashes
(``job`` the value, ``outbox`` queueing, ``queue`` claims and leases, ``steps`` the work,
``worker`` the loop)."""
