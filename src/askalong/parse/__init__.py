"""Parsers: bytes of one format -> ParsedDocument (blocks in reading order with positions).

Each module exposes ``parse(data: bytes, *, source: str) -> ParsedDocument`` and raises
only ``askalong.errors`` input errors. ``detect.py`` picks the module from the content.
"""
