"""Ingestion: inputs and URLs in, parse, chunk, store and the keyword route in one step."""
