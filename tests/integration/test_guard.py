"""The parser guard turns hangs and crashes into clean errors and keeps working."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from askalong.errors import CorruptDocument, ParseTimeout, TooLarge
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
    with pytest.raises(ParseTimeout, match=r"slow.pdf: parsing took longer than 3 s"):
        guard.parse(b"hang", "text", source="slow.pdf")  # the parser sleeps an hour
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


def test_detection_runs_in_the_child_too(guard: ParserGuard) -> None:
    assert guard.read(b"detected", source="d.txt").blocks[0].text == "detected"
    with pytest.raises(ParseTimeout, match="slow.txt: parsing took longer than 3 s"):
        guard.read(b"hang", source="slow.txt")
    assert guard.read(b"next", source="n.txt").blocks[0].text == "next"


def test_a_parser_that_allocates_too_much_is_stopped_and_the_next_file_parses() -> None:
    with ParserGuard(timeout=60, modules=STUB, memory_mb=256) as limited:
        # TooLarge, not ParseTimeout: the memory limit stopped it, not the 60 s clock.
        with pytest.raises(TooLarge, match=r"hog.docx: too large to parse: .* 256 MB"):
            limited.read(b"allocate", source="hog.docx")
        assert limited.read(b"fine", source="f.txt").blocks[0].text == "fine"
        with pytest.raises(TooLarge, match="killed.docx: too large to parse"):
            limited.read(b"killed", source="killed.docx")
        assert limited.read(b"still", source="s.txt").blocks[0].text == "still"
