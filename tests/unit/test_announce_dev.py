"""``announce_dev.hangs``: an answer left on a lead-in without what it announces."""

from __future__ import annotations

from benchmark_module import benchmark_module

hangs = benchmark_module("announce_dev").hangs


def test_a_lead_in_cited_last_or_before_a_label_hangs() -> None:
    assert hangs("This looks like: [1]")
    assert hangs("Available fields: [1] Around the selection: Use spaces between fields. [2]")
    assert hangs("One matcher. [1] Around the selection: A matcher is one of: [6]")


def test_a_lead_in_followed_by_its_block_or_a_finished_answer_does_not() -> None:
    assert not hangs("This looks like: [1] int x; [2]")
    assert not hangs("The -as option aligns code. [1]")
    assert not hangs("The selected sentence begins: It runs. [1]")
