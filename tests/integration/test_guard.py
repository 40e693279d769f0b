"""The parser guard turns hangs and crashes into clean errors and keeps working."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from askalong.errors import CorruptDocument, ParseTimeout
from askalong.parse.guard import ParserGuard

STUB = {"text": "stub_parsers"}


@pytest.fixture(scope="module")
def guard() -> Iterator[ParserGuard]:
    with ParserGuard(timeout=3, modules=STUB) as guard:
        yield guard


def test_a_good_file_parses_in_the_child(guard: ParserGuard) -> None:
    parsed = guard.parse(b"hello", "text", source="a.txt")
    assert [b.text for b in parsed.blocks] == ["hello"]


def test_a_hanging_parser_times_out_and_the_guard_recovers(guard: ParserGuard) -> None:
    started = time.monotonic()
    with pytest.raises(ParseTimeout, match=r"slow.pdf: parsing took longer than 3 s"):
        guard.parse(b"hang", "text", source="slow.pdf")
    assert time.monotonic() - started < 10
    assert guard.parse(b"after", "text", source="b.txt").blocks[0].text == "after"


def test_a_crashing_parser_becomes_an_error(guard: ParserGuard) -> None:
    with pytest.raises(CorruptDocument, match="boom.pdf: the parser crashed"):
        guard.parse(b"crash", "text", source="boom.pdf")
    assert guard.parse(b"again", "text", source="c.txt").blocks[0].text == "again"


def test_parser_bugs_and_domain_errors_cross_back(guard: ParserGuard) -> None:
    with pytest.raises(CorruptDocument, match="x.txt: cannot parse: ZeroDivisionError"):
        guard.parse(b"bug", "text", source="x.txt")
    with pytest.raises(CorruptDocument, match="y.txt: bad bytes"):
        guard.parse(b"corrupt", "text", source="y.txt")
