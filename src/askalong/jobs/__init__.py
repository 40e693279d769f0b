"""Ingestion jobs: a document queued in the store is read by a worker that survives crashes
(``outbox`` queueing, ``queue`` claims and leases, ``steps`` the work, ``worker`` the loop;
the ``Job`` value is ``askalong.values.jobs``, below the store that keeps it)."""
