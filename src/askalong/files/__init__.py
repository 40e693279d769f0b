"""Stored originals, by content hash."""
