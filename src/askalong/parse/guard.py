"""Run every byte-dependent step (detection, then parsing) in a child process with limits.

A pathological file can make a parser (or the C library under it, or a regex) loop, crash
or allocate without end. The guard detects and parses in one long-lived child process
whose address space is capped (``ASKALONG_PARSE_MEMORY_MB``); when a file takes longer than
the time limit, exhausts the memory, or the child dies, the child is replaced and the
caller gets a clean ``ParseTimeout`` / ``TooLarge`` / ``CorruptDocument`` naming the file
instead of a hung, swapping or crashed process. One child serves one file at a time: the
guard's own lock serialises callers from several threads.
"""

from __future__ import annotations

import importlib
import multiprocessing
import resource
import signal
import threading
from collections.abc import Mapping
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from types import TracebackType

from askalong.errors import AskAlongError, CorruptDocument, ParseTimeout, TooLarge
from askalong.parse.detect import MB, detect_format
from askalong.types import ParsedDocument

PARSER_MODULES: dict[str, str] = {
    "pdf": "askalong.parse.pdf.parser",
    "html": "askalong.parse.flow.html",
    "markdown": "askalong.parse.flow.markdown",
    "text": "askalong.parse.flow.text",
    "docx": "askalong.parse.flow.docx",
}


def parse_bytes(
    data: bytes, fmt: str, *, source: str, modules: Mapping[str, str] = PARSER_MODULES
) -> ParsedDocument:
    """Parse in this process, with no limits (the child's work, and tests')."""
    module = importlib.import_module(modules[fmt])
    parsed: ParsedDocument = module.parse(data, source=source)
    return parsed


def read_bytes(
    data: bytes, fmt: str | None, *, source: str, modules: Mapping[str, str] = PARSER_MODULES
) -> ParsedDocument:
    """Detect the format (unless given), then parse: in this process, with no limits."""
    return parse_bytes(
        data, fmt or detect_format(data, source=source), source=source, modules=modules
    )


def too_large(source: str, memory_mb: int) -> TooLarge:
    message = f"too large to parse: it needs more than {memory_mb} MB (ASKALONG_PARSE_MEMORY_MB)"
    return TooLarge(message, source=source)


def _limit_memory(memory_mb: int) -> None:
    """Cap the child's address space, so an allocation past it fails instead of the machine."""
    if memory_mb > 0:
        limit = memory_mb * MB
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _serve(conn: Connection, modules: Mapping[str, str], memory_mb: int) -> None:
    """Child loop: read what arrives, send back the result or the domain error."""
    _limit_memory(memory_mb)
    while True:
        try:
            data, fmt, source = conn.recv()
        except EOFError:
            return
        try:
            conn.send(("ok", read_bytes(data, fmt, source=source, modules=modules)))
        except MemoryError:  # the parent replaces this child: its heap may be in a bad state
            conn.send(("memory", None))
        except AskAlongError as exc:
            conn.send(("error", exc))
        except Exception as exc:  # a parser bug must not take the caller down
            conn.send(("error", CorruptDocument(f"cannot parse: {exc!r}", source=source)))


class ParserGuard:
    """Detects and parses files in a child process: ``timeout`` seconds and ``memory_mb``
    of address space per file (0: no memory limit)."""

    def __init__(
        self, timeout: float, modules: Mapping[str, str] = PARSER_MODULES, memory_mb: int = 0
    ) -> None:
        self.timeout = timeout
        self.memory_mb = memory_mb
        self.modules = dict(modules)
        self._context = multiprocessing.get_context("spawn")
        self._process: BaseProcess | None = None
        self._conn: Connection | None = None
        self._lock = threading.Lock()

    def read(self, data: bytes, *, source: str) -> ParsedDocument:
        """Detect the format of ``data`` and parse it, both in the child."""
        with self._lock:
            return self._request(data, None, source)

    def parse(self, data: bytes, fmt: str, *, source: str) -> ParsedDocument:
        """Parse ``data`` as ``fmt`` in the child."""
        with self._lock:
            return self._request(data, fmt, source)

    def _request(self, data: bytes, fmt: str | None, source: str) -> ParsedDocument:
        conn = self._connection()
        conn.send((data, fmt, source))
        if not conn.poll(self.timeout):
            self._kill()
            raise ParseTimeout(f"parsing took longer than {self.timeout:g} s", source=source)
        try:
            status, payload = conn.recv()
        except (EOFError, OSError) as exc:
            raise self._died(source) from exc
        if status == "memory":
            self._kill()
            raise too_large(source, self.memory_mb)
        if status == "error":
            raise payload
        result: ParsedDocument = payload
        return result

    def _died(self, source: str) -> AskAlongError:
        """The child died mid-file: killed for its memory (SIGKILL, by the kernel) or crashed."""
        process = self._process
        if process is not None:
            process.join(timeout=5)
        killed = process is not None and process.exitcode == -signal.SIGKILL
        self._kill()
        if killed:
            return too_large(source, self.memory_mb)
        return CorruptDocument("the parser crashed on this file", source=source)

    def _connection(self) -> Connection:
        if self._process is None or not self._process.is_alive() or self._conn is None:
            self._kill()
            parent, child = self._context.Pipe()
            self._process = self._context.Process(
                target=_serve, args=(child, self.modules, self.memory_mb), daemon=True
            )
            self._process.start()
            child.close()
            self._conn = parent
        return self._conn

    def _kill(self) -> None:
        if self._conn is not None:
            self._conn.close()
        if self._process is not None and self._process.is_alive():
            self._process.kill()
            self._process.join(timeout=5)
        self._process, self._conn = None, None

    def close(self) -> None:
        with self._lock:
            self._kill()

    def __enter__(self) -> ParserGuard:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
