"""Every pattern applied to document text matches in linear time (issue 11, item 1).

Each audited pattern gets generated hostile strings (a short unit repeated, then a tail
that makes the match fail): four times the input may take at most ~8 times as long
(linear is 4x, quadratic 16x). The old HTML-start pattern took seconds at 22 comments.

Both sizes are timed in the same test, in turns, by the CPU time of this thread: a loaded
machine slows a wall clock unevenly (a short run fits in one time slice, a long one is
preempted), but not the CPU time the match itself takes, so the ratio holds at any load.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from askalong.parse import detect
from askalong.parse.flow import builder, decoding, markdown
from askalong.parse.pdf import tables
from askalong.text import sentences
from askalong.verify import claims

AUDITED: dict[str, re.Pattern[str] | re.Pattern[bytes]] = {
    "detect html opening": detect._HTML_OPENING,
    "detect html anywhere": detect._HTML_ANYWHERE,
    "detect markdown signs": detect._MARKDOWN_SIGNS,
    "detect markdown heading": detect._MARKDOWN_HEADING,
    "html meta charset": decoding._META_CHARSET,
    "html xml encoding": decoding._XML_ENCODING,
    "markdown tag": markdown._TAG,
    "markdown front matter": markdown._FRONT_MATTER,
    "builder cjk wrap": builder._CJK_WRAP,
    "tables numbered heading": tables._NUMBERED_HEADING,
    "sentences boundary": sentences._BOUNDARY_RE,
    "claims tight": claims._TIGHT,
    "claims english name": claims._EN_NAME,
    "claims number": claims._NUMBER,
    "claims acronym": claims._ACRONYM,
    "claims latin": claims._LATIN,
}
UNITS = ["<!--", "<!---->", " ", "#", "|", "-", "=", "\n", "<p", "<", "A-", "1.", "中", "\t"]
TAILS = ["", "x", "\n", "1", "!"]
SIZE = 3000  # repetitions of the unit at the smaller size


ROUNDS = 5  # the best of five for each size: caches and frequency scaling vary too


def _cpu_seconds(run: Callable[[], object]) -> float:
    started = time.thread_time()
    run()
    return time.thread_time() - started


def _ratio(small: Callable[[], object], large: Callable[[], object]) -> tuple[float, float]:
    """The best CPU times of the small and the large run, measured in turns so that
    whatever else the machine does affects both alike."""
    best_small = best_large = float("inf")
    for _ in range(ROUNDS):
        best_small = min(best_small, _cpu_seconds(small))
        best_large = min(best_large, _cpu_seconds(large))
    return best_small, best_large


def _matching(pattern: re.Pattern[str] | re.Pattern[bytes], text: str) -> Callable[[], object]:
    data: str | bytes = text.encode() if isinstance(pattern.pattern, bytes) else text

    def run() -> None:
        pattern.findall(data)  # type: ignore[arg-type]
        pattern.match(data)  # type: ignore[arg-type]

    return run


def test_the_html_start_check_is_linear_on_repeated_comments() -> None:
    """The issue's reproduction, at sizes the old pattern could never finish."""
    small, large = _ratio(_after_comments(2000), _after_comments(8000))
    assert large < 8 * small + 0.002, f"{small * 1000:.1f} ms, then {large * 1000:.1f} ms"


def _after_comments(count: int) -> Callable[[], object]:
    data = b"<!---->" * count + b"x"

    def run() -> None:
        assert detect._starts_as_html(data) is False

    return run


@pytest.mark.slow  # every audited pattern on drawn inputs: make test, not make check
@pytest.mark.parametrize("name", sorted(AUDITED))
@settings(max_examples=12, deadline=None)
@given(units=st.lists(st.sampled_from(UNITS), min_size=1, max_size=3), tail=st.sampled_from(TAILS))
@example(units=["<!---->"], tail="x")
@example(units=["<p"], tail="")
@example(units=["A-"], tail="")
@example(units=[" "], tail="x")
@example(units=["中", "\n", "\n"], tail="x")
@example(units=["1.", "1", " "], tail="1")
def test_audited_patterns_match_in_linear_time(name: str, units: list[str], tail: str) -> None:
    pattern, unit = AUDITED[name], "".join(units)
    small, large = _ratio(
        _matching(pattern, unit * SIZE + tail), _matching(pattern, unit * 4 * SIZE + tail)
    )
    assert large < 8 * small + 0.002, f"{name}: {small * 1000:.1f} ms, then {large * 1000:.1f} ms"
