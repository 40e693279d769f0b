"""Run every byte-dependent step (detection, parsing, page rendering) in a child process
with limits.

A pathological file can make a parser (or the C library under it, or a regex) loop, crash
or allocate without end. ``GuardedChild`` is one long-lived child process whose address
space is capped; a call that takes longer than its time limit, exhausts the memory, or
whose child dies, replaces the child and raises ``ChildFailure`` saying which. One child
serves one call at a time: its lock serialises callers from several threads.

``ParserGuard`` detects and parses in such a child (``ASKALONG_PARSE_MEMORY_MB``,
``ASKALONG_PARSE_TIMEOUT``) and turns a failure into a clean ``ParseTimeout`` /
``TooLarge`` / ``CorruptDocument`` naming the file instead of a hung, swapping or crashed
process. Page images are drawn the same way (``parse/pdf/render.py``).
"""

from __future__ import annotations

import functools
import importlib
import multiprocessing
import resource
import signal
import threading
import time
from collections.abc import Callable, Mapping
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from types import TracebackType
from typing import Any, Literal

from askalong.errors import AskAlongError, CorruptDocument, ParseTimeout, TooLarge
from askalong.parse.detect import MB, detect_format
from askalong.parse.progress import Sink, reporting
from askalong.types import ParsedDocument

PARSER_MODULES: dict[str, str] = {
    "pdf": "askalong.parse.pdf.parser",
    "html": "askalong.parse.flow.html",
    "markdown": "askalong.parse.flow.markdown",
    "text": "askalong.parse.flow.text",
    "docx": "askalong.parse.flow.docx",
    "code": "askalong.parse.code.parser",
}

FailureKind = Literal["timeout", "memory", "killed", "crashed", "bug"]


# Keyword arguments a format's parser takes besides the bytes, e.g. {"pdf": {"ocr_budget": 5}}.
ParserOptions = Mapping[str, Mapping[str, object]]


def parse_bytes(
    data: bytes,
    fmt: str,
    *,
    source: str,
    modules: Mapping[str, str] = PARSER_MODULES,
    options: ParserOptions | None = None,
) -> ParsedDocument:
    """Parse in this process, with no limits (the child's work, and tests')."""
    module = importlib.import_module(modules[fmt])
    extra = (options or {}).get(fmt, {})
    parsed: ParsedDocument = module.parse(data, source=source, **extra)
    return parsed


def read_bytes(
    data: bytes,
    fmt: str | None,
    *,
    source: str,
    modules: Mapping[str, str] = PARSER_MODULES,
    options: ParserOptions | None = None,
) -> ParsedDocument:
    """Detect the format (unless given), then parse: in this process, with no limits."""
    fmt = fmt or detect_format(data, source=source)
    return parse_bytes(data, fmt, source=source, modules=modules, options=options)


def too_large(source: str, memory_mb: int) -> TooLarge:
    message = f"too large to parse: it needs more than {memory_mb} MB (ASKALONG_PARSE_MEMORY_MB)"
    return TooLarge(message, source=source)


class ChildFailure(Exception):
    """A guarded call gave no answer: it ran out of time (``timeout``) or memory
    (``memory``; ``killed``: SIGKILL, the kernel's OOM killer or someone's ``kill -9``),
    the child died otherwise (``crashed``), or the work raised a non-domain error (``bug``,
    its ``repr`` in ``detail``)."""

    def __init__(self, kind: FailureKind, detail: str = "") -> None:
        super().__init__(f"{kind}: {detail}" if detail else kind)
        self.kind: FailureKind = kind
        self.detail = detail


def limit_memory(memory_mb: int) -> None:
    """Cap the child's address space, so an allocation past it fails instead of the machine."""
    if memory_mb > 0:
        limit = memory_mb * MB
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _serve(conn: Connection, work: Callable[..., object], memory_mb: int) -> None:
    """Child loop: call ``work`` on what arrives, send back the result or the error."""
    limit_memory(memory_mb)
    while True:
        try:
            request = conn.recv()
        except EOFError:
            return
        try:
            with reporting(lambda progress: conn.send(("progress", progress))):
                result = work(*request)
            conn.send(("ok", result))
        except MemoryError:  # the parent replaces this child: its heap may be in a bad state
            conn.send(("memory", None))
        except AskAlongError as exc:
            conn.send(("error", exc))
        except Exception as exc:  # a bug in the work must not take the caller down
            conn.send(("bug", repr(exc)))


class GuardedChild:
    """One long-lived child process that runs ``work(*request)`` (a module-level function,
    or a ``functools.partial`` of one: the child is spawned, not forked) within
    ``memory_mb`` of address space (0: no limit); replaced whenever a call fails."""

    def __init__(self, work: Callable[..., object], memory_mb: int = 0) -> None:
        self.work = work
        self.memory_mb = memory_mb
        self._context = multiprocessing.get_context("spawn")
        self._process: BaseProcess | None = None
        self._conn: Connection | None = None
        self._lock = threading.Lock()

    def call(self, request: tuple[Any, ...], timeout: float, progress: Sink | None = None) -> Any:
        """The work's result for ``request``; its domain error re-raised here, any other
        outcome as ``ChildFailure``. Callers wait their turn. ``progress`` receives what
        the work reports as it goes (``parse/progress.py``)."""
        with self._lock:
            return self._call(request, timeout, progress)

    def start(self) -> None:
        """Start the child now (it imports its modules meanwhile), not at the first call."""
        with self._lock:
            self._connection()

    def _call(self, request: tuple[Any, ...], timeout: float, progress: Sink | None) -> Any:
        conn = self._connection()
        try:
            conn.send(request)
        except OSError as exc:  # the child died since it was last seen alive
            raise self._died() from exc
        status, payload = self._answer(conn, time.monotonic() + timeout, progress)
        if status == "memory":
            self._kill()
            raise ChildFailure("memory")
        if status == "error":
            raise payload
        if status == "bug":
            raise ChildFailure("bug", payload)
        return payload

    def _answer(self, conn: Connection, deadline: float, progress: Sink | None) -> tuple[str, Any]:
        """The child's answer, its progress reports passed on meanwhile; the time limit
        runs over the whole call, reports included."""
        while True:
            if not conn.poll(max(deadline - time.monotonic(), 0)):
                self._kill()
                raise ChildFailure("timeout")
            try:
                status, payload = conn.recv()
            except (EOFError, OSError) as exc:
                raise self._died() from exc
            if status != "progress":
                return status, payload
            if progress is not None:
                progress(payload)

    def _died(self) -> ChildFailure:
        """The child died mid-call: SIGKILL (the kernel, for its memory; or a person) or
        a crash."""
        process = self._process
        if process is not None:
            process.join(timeout=5)
        killed = process is not None and process.exitcode == -signal.SIGKILL
        code = None if process is None else process.exitcode
        self._kill()
        return ChildFailure("killed" if killed else "crashed", f"exit code {code}")

    def _connection(self) -> Connection:
        if self._process is None or not self._process.is_alive() or self._conn is None:
            self._kill()
            parent, child = self._context.Pipe()
            self._process = self._context.Process(
                target=_serve, args=(child, self.work, self.memory_mb), daemon=True
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

    @property
    def pid(self) -> int | None:
        """The child's process id, while one runs."""
        return None if self._process is None else self._process.pid

    def close(self) -> None:
        with self._lock:
            self._kill()


def _read_request(
    modules: Mapping[str, str], options: ParserOptions, data: bytes, fmt: str | None, source: str
) -> ParsedDocument:
    return read_bytes(data, fmt, source=source, modules=modules, options=options)


def parse_failure(
    failure: ChildFailure, source: str, timeout: float, memory_mb: int
) -> AskAlongError:
    """The domain error for a parse (``timeout`` s, ``memory_mb`` MB) that gave no answer."""
    if failure.kind == "timeout":
        return ParseTimeout(f"parsing took longer than {timeout:g} s", source=source)
    if failure.kind in ("memory", "killed"):
        return too_large(source, memory_mb)
    if failure.kind == "bug":
        return CorruptDocument(f"cannot parse: {failure.detail}", source=source)
    return CorruptDocument("the parser crashed on this file", source=source)


class ParserGuard:
    """Detects and parses files in a child process: ``timeout`` seconds and ``memory_mb``
    of address space per file (0: no memory limit); ``options`` go to a format's parser."""

    def __init__(
        self,
        timeout: float,
        modules: Mapping[str, str] = PARSER_MODULES,
        memory_mb: int = 0,
        options: ParserOptions | None = None,
    ) -> None:
        self.timeout = timeout
        self.memory_mb = memory_mb
        self.modules = dict(modules)
        work = functools.partial(_read_request, self.modules, dict(options or {}))
        self._child = GuardedChild(work, memory_mb)

    def read(self, data: bytes, *, source: str, progress: Sink | None = None) -> ParsedDocument:
        """Detect the format of ``data`` and parse it, both in the child; ``progress``
        receives the parser's reports (pages parsed, pages read by OCR)."""
        return self._request(data, None, source, progress)

    def parse(self, data: bytes, fmt: str, *, source: str) -> ParsedDocument:
        """Parse ``data`` as ``fmt`` in the child."""
        return self._request(data, fmt, source)

    def _request(
        self, data: bytes, fmt: str | None, source: str, progress: Sink | None = None
    ) -> ParsedDocument:
        try:
            parsed: ParsedDocument = self._child.call((data, fmt, source), self.timeout, progress)
        except ChildFailure as failure:
            raise self._failed(failure, source) from None
        return parsed

    def _failed(self, failure: ChildFailure, source: str) -> AskAlongError:
        return parse_failure(failure, source, self.timeout, self.memory_mb)

    def close(self) -> None:
        self._child.close()

    def __enter__(self) -> ParserGuard:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
