"""Parsers that misbehave on purpose, loaded by the guard's child process in tests."""

from __future__ import annotations

import os
import time

from askalong.errors import CorruptDocument
from askalong.types import Block, ParsedDocument


def parse(data: bytes, *, source: str) -> ParsedDocument:
    command = data.decode()
    if command == "hang":
        time.sleep(3600)
    if command == "crash":
        os._exit(3)  # like a segfault in a C library: the process just dies
    if command == "bug":
        raise ZeroDivisionError("parser bug")
    if command == "corrupt":
        raise CorruptDocument("bad bytes", source=source)
    block = Block(id="b0", kind="paragraph", text=command, order=0)
    return ParsedDocument(format="text", blocks=(block,), title="stub", page_count=1)
