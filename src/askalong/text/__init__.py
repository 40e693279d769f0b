"""Text primitives for Chinese and English (pure functions, no I/O)."""
