"""A sample of the parser fuzz (``benchmarks/attack_parsers.py``, the long run: 10,000 cases
a format): mutated real files through detection and every parser, in one child process
under the guard's memory limit, each case under its own alarm. Every case must parse to a
sound document or be refused with a domain error naming the file; and the fuzz's own
judge must tell a bug from a refusal, or a passing sample would prove nothing."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from askalong.errors import CorruptDocument
from askalong.parse.boundary import parser_boundary
from askalong.parse.flow import text

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from attack_parsers import FORMATS, BatchChild, Tally, fuzz
from fuzz_child import refusal, run_case
from fuzz_mutate import case_bytes
from fuzz_seeds import corpus

SEED = 2026  # not the long run's: the sample tries other cases
CASES = 200  # per format


@pytest.fixture(scope="module")
def child() -> Iterator[BatchChild]:
    batch = BatchChild()
    yield batch
    batch.close()


@pytest.mark.slow
@pytest.mark.parametrize("fmt", FORMATS)
def test_mutated_real_files_parse_or_are_refused_cleanly(
    child: BatchChild, evaldata: Path, fmt: str
) -> None:
    tally = fuzz(child, corpus(evaldata), Tally(fmt), SEED, range(CASES))
    assert tally.cases == CASES
    assert tally.ends["failure"] == 0, f"seed {SEED}: {tally.failures}"
    assert tally.ends["parsed"] > CASES // 10  # mutations that still reach the parsers
    if fmt != "detect":
        assert tally.reached[fmt] > 0  # and reach this format's parser


def test_cases_are_made_again_from_their_numbers(evaldata: Path) -> None:
    seeds = corpus(evaldata)
    assert case_bytes(seeds, "docx", 11, 7) == case_bytes(seeds, "docx", 11, 7)
    assert case_bytes(seeds, "docx", 11, 7) != case_bytes(seeds, "docx", 11, 8)


def test_a_bug_behind_the_parser_boundary_is_a_failure_not_a_refusal() -> None:
    with pytest.raises(CorruptDocument) as caught, parser_boundary("text", "a.txt"):
        text.title_level(None)  # type: ignore[arg-type]  # a TypeError inside askalong
    kind, detail = refusal(caught.value, "a.txt")
    assert kind == "failure"
    assert detail.startswith("TypeError") and "askalong/parse/flow/text.py" in detail
    clean = CorruptDocument("the PDF is damaged or truncated", source="a.pdf")
    assert refusal(clean, "a.pdf") == ("refused", "the PDF is damaged or truncated")
    assert refusal(clean, "b.pdf")[0] == "failure"  # an error that names another file


def test_a_case_over_its_time_is_a_failure() -> None:
    outcome = run_case("text", b"Enough words to parse. " * 20_000, "slow.txt", 0.001)
    assert (outcome.kind, outcome.detail) == ("failure", "took over 0.001 s")
    assert run_case("text", b"Quick.", "quick.txt", 10).kind == "parsed"
