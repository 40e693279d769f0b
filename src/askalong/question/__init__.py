"""A question read once (pure): ``reading.read_question`` and one module per reading."""
