"""Blocks to chunks (pure)."""
