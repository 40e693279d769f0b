"""The offline extractive answerer: it selects and cites the evidence sentences."""
