"""The parser fuzz's child process: many cases in one process, each under its own time limit.

The parent (``attack_parsers.py``) starts this loop in a child under the parser guard's
memory limit (``askalong.parse.guard``) and sends cases one at a time; each is detected
and parsed as ``add`` would (``detect_format``, then that format's parser; PDFs without
OCR, which reads page images, not the file's structure) under a ``setitimer`` alarm, and
one ``Outcome`` goes back. A case stuck in C code, where the alarm cannot interrupt, or
one that kills the process, is the parent's watchdog's to record.

What counts as what:

- ``parsed``: a document whose blocks hold only encodable text without NUL, unique ids,
  sane line and page numbers, and (up to ``CHUNKED_CHARS``) that the chunker accepts;
- ``refused``: a domain error that names the file, raised on purpose;
- ``library``: a domain error from the parser's boundary wrapping a third-party library's
  own bug (an ``AttributeError`` inside python-docx, say): refused, but not by our words;
- ``failure``: anything else: an exception of ours reaching the boundary (a ``TypeError``
  in ``askalong/``), an error not naming the file, a broken document, a timeout, a
  ``MemoryError``.
"""

from __future__ import annotations

import math
import signal
import time
import traceback
from dataclasses import dataclass
from functools import partial
from multiprocessing.connection import Connection

from askalong.chunk.prose import chunk_blocks
from askalong.errors import AskAlongError
from askalong.parse.detect import detect_format
from askalong.parse.flow import docx, html, markdown, text
from askalong.parse.guard import limit_memory
from askalong.parse.pdf import parser as pdf
from askalong.types import ParsedDocument

PARSERS = {
    "pdf": partial(pdf.parse, ocr=False),
    "html": html.parse,
    "markdown": markdown.parse,
    "text": text.parse,
    "docx": docx.parse,
}
# Exceptions that mean a program's mistake, not a file's: raised in our code, a failure.
BUGS = (
    AttributeError, IndexError, KeyError, TypeError, NameError, ZeroDivisionError,
    AssertionError, UnboundLocalError, StopIteration, OverflowError,
)  # fmt: skip
OURS = "/askalong/"
CASE_SECONDS = 10.0  # and CASE_PER_BYTE more a byte: no real small file comes near it
CASE_PER_BYTE = 20e-6
CHUNKED_CHARS = 100_000  # the chunker, not a parser, would be most of a larger case's time


class CaseTimeout(BaseException):
    """The case's alarm: a BaseException, so no parser's ``except Exception`` hides it."""


@dataclass(frozen=True)
class Outcome:
    """One case's end: ``kind`` (parsed / refused / library / failure) and what it was
    (the format reached, the error, the problem), in ``seconds``."""

    kind: str
    detail: str
    seconds: float
    restart: bool = False  # the child's heap may be damaged (a MemoryError): start afresh


def case_limit(size: int) -> float:
    """Seconds a case of ``size`` bytes may take: parsing must be linear, and the slowest
    parser here (markdown-it over tag soup) spends some 10 us a byte on a loaded machine."""
    return CASE_SECONDS + CASE_PER_BYTE * size


def serve(conn: Connection, memory_mb: int) -> None:
    """Child loop: ``(fmt, data, source)`` in, ``Outcome`` out, until the pipe closes.
    "ready" first: the parent's clock for a case must not count this process's start."""
    limit_memory(memory_mb)
    conn.send("ready")
    while True:
        try:
            fmt, data, source = conn.recv()
        except EOFError:
            return
        outcome = run_case(fmt, data, source, case_limit(len(data)))
        conn.send(outcome)
        if outcome.restart:
            return


def _alarm(signum: int, frame: object) -> None:
    raise CaseTimeout


def run_case(fmt: str, data: bytes, source: str, seconds: float) -> Outcome:
    """Detect (``fmt`` "detect": only detect) and parse one case under an alarm; any
    alarm set before (a test runner's) is put back after."""
    started = time.perf_counter()
    previous = signal.signal(signal.SIGALRM, _alarm)
    earlier, _ = signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        try:
            kind, detail = attempt(fmt, data, source)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    except CaseTimeout:
        kind, detail = "failure", f"took over {seconds:g} s"
    except MemoryError:
        kind, detail = "failure", "MemoryError under the memory limit"
    finally:
        signal.signal(signal.SIGALRM, previous)
        spent = time.perf_counter() - started
        if earlier:
            signal.setitimer(signal.ITIMER_REAL, max(earlier - spent, 0.001))
    return Outcome(kind, detail, spent, restart=detail.startswith("MemoryError"))


def attempt(fmt: str, data: bytes, source: str) -> tuple[str, str]:
    try:
        detected = detect_format(data, source=source)
        if fmt == "detect":
            return "parsed", detected
        parsed = PARSERS[detected](data, source=source)
        problem = document_problem(parsed)
        return ("failure", f"{detected}: {problem}") if problem else ("parsed", detected)
    except AskAlongError as exc:
        return refusal(exc, source)
    except (CaseTimeout, MemoryError):
        raise
    except Exception as exc:
        return "failure", f"{_named(exc)} crossed the parser at {_where(exc)}"


def refusal(exc: AskAlongError, source: str) -> tuple[str, str]:
    """``refused``, ``library`` or ``failure``, from the message and what it wraps."""
    if not str(exc).startswith(f"{source}: "):
        return "failure", f"an error not naming the file: {exc}"
    cause = _bug_cause(exc)
    if cause is None:
        return "refused", exc.message
    frames = traceback.extract_tb(cause.__traceback__)
    kind = "failure" if frames and OURS in frames[-1].filename else "library"  # raised where
    return kind, f"{_named(cause)} at {_where(cause)} (refused as: {exc.message[:120]})"


def _bug_cause(exc: BaseException) -> BaseException | None:
    """A program's mistake the error was raised ``from`` (``parser_boundary`` does so)."""
    seen: set[int] = set()
    cause = exc.__cause__
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, BUGS):
            return cause
        seen.add(id(cause))
        cause = cause.__cause__
    return None


def _named(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {str(exc)[:160]}"


def _where(exc: BaseException) -> str:
    """The innermost frame of ours (else the innermost frame) that the exception crossed."""
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if OURS in f.filename]
    frame = (ours or frames or [None])[-1]
    if frame is None:
        return "?"
    path = frame.filename.split(OURS, 1)[-1] if OURS in frame.filename else frame.filename
    return f"{OURS.strip('/')}/{path}:{frame.lineno}" if ours else f"{path}:{frame.lineno}"


def document_problem(parsed: ParsedDocument) -> str | None:
    """What is wrong with a parsed document that ingestion would store, if anything."""
    ids = [block.id for block in parsed.blocks]
    if len(set(ids)) != len(ids):
        return "two blocks share an id"
    for block in parsed.blocks:
        problem = _text_problem(block.text) or _place_problem(block.lines, block.page, parsed)
        if problem:
            return f"block {block.id} ({block.kind}): {problem}"
    if problem := _text_problem(parsed.title):
        return f"title: {problem}"
    if any(not (0 < w < math.inf and 0 < h < math.inf) for w, h in parsed.page_sizes):
        return f"page sizes {parsed.page_sizes[:3]}"
    if sum(len(block.text) for block in parsed.blocks) <= CHUNKED_CHARS:
        chunk_blocks("fuzz", parsed.blocks)  # the next step of ingestion takes the blocks
    return None


def _text_problem(value: str) -> str | None:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "text that is not encodable (a lone surrogate)"
    return "a NUL character in the text" if "\x00" in value else None


def _place_problem(
    lines: tuple[int, int] | None, page: int | None, parsed: ParsedDocument
) -> str | None:
    if lines is not None and not 1 <= lines[0] <= lines[1]:
        return f"lines {lines}"
    if page is not None and not 1 <= page <= parsed.page_count:
        return f"page {page} of {parsed.page_count}"
    return None
