"""Parsers that misbehave on purpose, loaded by the guard's child process in tests."""

from __future__ import annotations

import os
import signal
import time

from askalong.errors import CorruptDocument
from askalong.types import Block, ParsedDocument


def parse(data: bytes, *, source: str) -> ParsedDocument:
    command = data.decode()
    if command == "hang":
        time.sleep(3600)
    if command.startswith("slow"):
        time.sleep(float(command.split()[1]))  # "slow 2": a parse that takes 2 s
    if command == "crash":
        os._exit(3)  # like a segfault in a C library: the process just dies
    if command == "allocate":
        hog = [bytearray(2**20) for _ in range(1024)]  # 1 GB, a MB at a time
        del hog
    if command == "killed":
        os.kill(os.getpid(), signal.SIGKILL)  # what the kernel's OOM killer does
    if command == "bug":
        raise ZeroDivisionError("parser bug")
    if command == "corrupt":
        raise CorruptDocument("bad bytes", source=source)
    block = Block(id="b0", kind="paragraph", text=command, order=0)
    return ParsedDocument(format="text", blocks=(block,), title="stub", page_count=1)
