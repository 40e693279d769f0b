"""``benchmarks/refusals.py``: each item's group (the kinds issue 32 reports on), and the
before/after table counting refusals and hits per group."""

from __future__ import annotations

from dataclasses import replace

from benchmark_module import benchmark_module

refusals = benchmark_module("refusals")
Item = benchmark_module("unseen_set").Item

PLAIN = Item("a1", "dev", "d", "html_manual", "factual", "en", "What is X?", ("x",))


def test_each_item_falls_in_the_group_it_stands_for() -> None:
    assert refusals.group_of(PLAIN) == "prose en"
    assert refusals.group_of(replace(PLAIN, doc_kind="code_go")) == "code"
    assert refusals.group_of(replace(PLAIN, kind="follow_up", previous="a0")) == "follow-ups"
    assert refusals.group_of(replace(PLAIN, kind="explain", intent="explain")).startswith("intents")
    assert refusals.group_of(replace(PLAIN, lang="zh", question="這個函數做什麼？")) == "zh-Hant"
    assert refusals.group_of(replace(PLAIN, lang="zh", question="这个函数做什么？")) == "zh-Hans"


def row(item: str, group: str, covered: bool, refused: bool, hit: bool) -> dict:
    out = {"id": item, "group": group, "covered": covered}
    for name in ("rules", "learned"):
        out |= {f"{name}_refused": refused, f"{name}_hit": hit}
    return out


def test_the_table_counts_each_group_before_and_after() -> None:
    before = [row("a", "prose en", True, False, True), row("b", "prose en", False, False, False)]
    after = [row("a", "prose en", True, True, False), row("b", "prose en", False, True, False)]
    table = refusals.compare(before, after).splitlines()
    prose = next(line for line in table if line.startswith("| prose en"))
    assert prose.split(" | ")[1:6] == ["1", "1", "0 → **1**", "1 → **0**", "0 → **1**"]
    assert "| zh-Hans | 0 | 0 | — |" in refusals.compare(before, after)
