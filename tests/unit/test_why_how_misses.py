"""``benchmarks/why_how_misses.py``: a miss's gold sentence is placed before or after the
answer's sentences by its distance in reading order, ranked by its place in the rank
head's order, and the table counts only misses whose passage holds the gold."""

from __future__ import annotations

from benchmark_module import benchmark_module


def test_the_gold_stands_before_or_after_the_answer_by_its_distance() -> None:
    stands = benchmark_module("why_how_misses")._stands
    assert stands(4, [2, 3]) == "after, next"
    assert stands(6, [2, 3]) == "after, 2-3"
    assert stands(8, [2, 3]) == "after, 4+"
    assert stands(1, [2, 3]) == "before, next"
    assert stands(0, [3]) == "before, 2-3"
    assert stands(0, [5, 9]) == "before, 4+"
    assert stands(4, [2, 7]) == "after, next"  # between a sentence and its runner-up


def test_the_gold_is_ranked_by_its_place_in_the_rank_heads_order() -> None:
    ranked = benchmark_module("why_how_misses")._ranked
    order = [(0, 0, k) for k in (5, 1, 7, 2, 9, 3)]
    assert ranked(order, (0, 0, 1)) == "2nd"
    assert ranked(order, (0, 0, 7)) == "3rd"
    assert ranked(order, (0, 0, 9)) == "4th-5th"
    assert ranked(order, (0, 0, 3)) == "lower"
    assert ranked(order, (0, 0, 4)) == "no candidate"


def test_the_table_counts_only_misses_whose_passage_holds_the_gold() -> None:
    misses = benchmark_module("why_how_misses")
    item = benchmark_module("unseen_set").Item("a", "dev", "d", "html", "why", "en", "q", ("x",))
    done = [
        misses.Answered(item, "reason", True, None, None),
        misses.Answered(item, "reason", False, None, None),  # the passage lacks the gold
        misses.Answered(item, "reason", False, "after, next", "3rd"),
        misses.Answered(item, "method", False, "before, next", "no candidate"),
    ]
    table = misses.miss_table(done, "answer type", lambda d: d.answer_type)
    rows = {line.split(" | ")[0].strip("| "): line for line in table.splitlines()}
    assert rows["reason"] == "| reason | 3 | 1 | 1 | 0 | 0 | 0 | 1 | 0 | 0 | 0 | 1 | 0 | 0 | 0 |"
    assert rows["all"].startswith("| all | 4 | 1 | 2 | 1 | 0 | 0 | 1 |")
    assert rows["all"].endswith("| 0 | 1 | 0 | 0 | 1 |")


def test_placed_misses_are_crossed_by_where_the_gold_stands_and_was_ranked() -> None:
    misses = benchmark_module("why_how_misses")
    item = benchmark_module("unseen_set").Item("a", "dev", "d", "html", "how", "en", "q", ("x",))
    done = [
        misses.Answered(item, "method", False, "after, next", "3rd"),
        misses.Answered(item, "method", False, "after, next", "3rd"),
        misses.Answered(item, "method", False, "before, 4+", "lower"),
        misses.Answered(item, "method", True, None, None),
    ]
    rows = misses.stands_by_rank(done).splitlines()
    assert "| after, next | 0 | 2 | 0 | 0 | 0 |" in rows
    assert "| before, 4+ | 0 | 0 | 0 | 1 | 0 |" in rows
    assert "| before, next | 0 | 0 | 0 | 0 | 0 |" in rows
