"""Files on disk: stored originals by content hash (``local``), atomic writes (``atomic``),
and whether a failed write failed for want of space (``disk``, which the store reads too)."""
