"""Run parsers in a child process with a time limit.

A pathological file can make a parser (or the C library under it) loop or crash. The
guard parses in one long-lived child process; when a file takes longer than the limit,
or the child dies, the child is killed and replaced, and the caller gets a clean
``ParseTimeout`` / ``CorruptDocument`` instead of a hung or crashed process.
"""

from __future__ import annotations

import importlib
import multiprocessing
from collections.abc import Mapping
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from types import TracebackType

from askalong.errors import AskAlongError, CorruptDocument, ParseTimeout
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
    """Parse in this process, with no time limit (the child's work, and tests')."""
    module = importlib.import_module(modules[fmt])
    parsed: ParsedDocument = module.parse(data, source=source)
    return parsed


def _serve(conn: Connection, modules: Mapping[str, str]) -> None:
    """Child loop: parse what arrives, send back the result or the domain error."""
    while True:
        try:
            request = conn.recv()
        except EOFError:
            return
        data, fmt, source = request
        try:
            conn.send(("ok", parse_bytes(data, fmt, source=source, modules=modules)))
        except AskAlongError as exc:
            conn.send(("error", exc))
        except Exception as exc:  # a parser bug must not take the caller down
            conn.send(("error", CorruptDocument(f"cannot parse: {exc!r}", source=source)))


class ParserGuard:
    """Parses files in a child process, ``timeout`` seconds per file."""

    def __init__(self, timeout: float, modules: Mapping[str, str] = PARSER_MODULES) -> None:
        self.timeout = timeout
        self.modules = dict(modules)
        self._context = multiprocessing.get_context("spawn")
        self._process: BaseProcess | None = None
        self._conn: Connection | None = None

    def parse(self, data: bytes, fmt: str, *, source: str) -> ParsedDocument:
        conn = self._connection()
        conn.send((data, fmt, source))
        if not conn.poll(self.timeout):
            self._kill()
            raise ParseTimeout(f"parsing took longer than {self.timeout:g} s", source=source)
        try:
            status, payload = conn.recv()
        except (EOFError, OSError) as exc:
            self._kill()
            raise CorruptDocument("the parser crashed on this file", source=source) from exc
        if status == "error":
            raise payload
        result: ParsedDocument = payload
        return result

    def _connection(self) -> Connection:
        if self._process is None or not self._process.is_alive() or self._conn is None:
            self._kill()
            parent, child = self._context.Pipe()
            self._process = self._context.Process(
                target=_serve, args=(child, self.modules), daemon=True
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
        self._kill()

    def __enter__(self) -> ParserGuard:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
