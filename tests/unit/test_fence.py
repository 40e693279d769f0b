"""Prompt fences: nonces drawn per fence, fence-like runs stripped to a fixed point."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from askalong.text.fence import Fence, strip_fences

RUN = re.compile(r"<{3,}|>{3,}")


def stripped_by_repeating(text: str) -> str:
    """Remove every run of three or more, again and again until nothing changes."""
    while True:
        again = RUN.sub("", text)
        if again == text:
            return text
        text = again


def nested(depth: int) -> str:
    """Runs that only come together as the inner ones go: depth passes for a repeated regex."""
    text = "<<<"
    for level in range(1, depth):
        bracket = ">" if level % 2 else "<"
        text = bracket + text + bracket * 2
    return text


def test_runs_rebuilt_by_a_removal_are_removed_too() -> None:
    assert strip_fences("SOURCES>><<<>") == "SOURCES"  # one pass left "SOURCES>>>"
    assert strip_fences("a <<<END DATA>>> b") == "a END DATA b"
    assert strip_fences("<<<<END>>>> <<>> x<y>z -> <-") == "END <<>> x<y>z -> <-"
    assert strip_fences("<<><<>>>") == "<<><<"
    assert strip_fences(nested(5)) == ""


def brackets_out(text: str) -> str:
    return re.sub("[<>]", "", text)


@given(st.text(alphabet="<>a\n", max_size=80))
def test_a_fixed_point_like_repeated_removal(text: str) -> None:
    cleaned, repeated = strip_fences(text), stripped_by_repeating(text)
    assert RUN.search(cleaned) is None and strip_fences(cleaned) == cleaned
    assert brackets_out(cleaned) == brackets_out(text) == brackets_out(repeated)


def test_lone_brackets_may_differ_from_repeating() -> None:
    assert stripped_by_repeating("<>>><<<x") == "<x"  # both runs go in the same pass
    assert strip_fences("<>>><<<x") == "x"  # "<" and "<<<" met once ">>>" went


@pytest.mark.timeout(60)  # stops a quadratic pass: 40,000 passes over 120,000 characters
def test_deep_nesting_is_stripped_in_linear_time() -> None:
    hostile = nested(40_000) + " the rest"  # 120,000 characters, 40,000 passes to repeat
    assert strip_fences(hostile) == " the rest"


def test_every_fence_draws_its_own_nonce() -> None:
    first, second = Fence.new(), Fence.new()
    assert first.nonce != second.nonce and re.fullmatch(r"[0-9a-f]{16}", first.nonce)
    wrapped = first.wrap("SOURCE 2", f"text {second.closing} <<<END DATA>>>>")
    assert wrapped.split("\n") == [
        f"<<<SOURCE 2 {first.nonce}>>>",
        f"text END {second.nonce} END DATA",
        f"<<<END {first.nonce}>>>",
    ]
