"""``benchmarks/unseen_replay.py``: the recording answerer keeps what it is handed and
answers as the one it wraps; a replay scores only the recorded plain questions, a refusal
never hitting and counting as wrong only when the item is covered."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from benchmark_module import benchmark_module

from askalong.answer.base import Answerer, Draft, DraftRequest
from askalong.question.reading import read_question


class Echo(Answerer):
    name = "echo"
    offline = True

    def draft(self, request: DraftRequest) -> Draft:
        return Draft("answered", f"{request.question.text} [1]", ())


def request(text: str, intent: str = "ask") -> DraftRequest:
    return DraftRequest(read_question(text), intent, ())  # type: ignore[arg-type]


def test_the_recording_answerer_keeps_each_request_under_the_item_asked() -> None:
    recording = benchmark_module("unseen_replay").Recording(Echo())
    recording.asking = "a1"
    first = request("What is X?")
    assert recording.draft(first).answer == "What is X? [1]"
    recording.asking = "a2"
    recording.draft(request("Why Y?"))
    assert recording.requests["a1"] is first and set(recording.requests) == {"a1", "a2"}
    assert (recording.name, recording.offline) == ("echo", True)


def test_a_replay_scores_plain_questions_only_and_refusals_never_hit() -> None:
    replay = benchmark_module("unseen_replay")
    item = benchmark_module("unseen_set").Item
    items = [
        item("hit", "dev", "d", "html", "factual", "en", "q", ("blue",)),
        item("miss", "dev", "d", "html", "factual", "en", "q", ("green",)),
        item("refused", "dev", "d", "html", "factual", "en", "q", ("blue",)),
        item("uncovered", "dev", "d", "html", "uncovered", "en", "q", (), refuse=True),
        item("intent", "dev", "d", "html", "explain", "en", "q", ("blue",)),
    ]
    requests = {i.id: request(i.id) for i in items[:4]} | {"intent": request("x", "explain")}

    def draft(asked: DraftRequest) -> Draft:
        refuses = asked.question.text in ("refused", "uncovered")
        return Draft("not_covered" if refuses else "answered", "The sky is blue. [1]", ())

    figures = replay.replayed(items, requests, draft)
    assert (figures.hits, figures.covered, figures.covered_refused) == (1, 3, 1)
    assert (figures.uncovered, figures.uncovered_refused) == (1, 1)


def test_questions_are_grouped_by_the_kinds_a_default_is_judged_on() -> None:
    replay = benchmark_module("unseen_replay")
    item = benchmark_module("unseen_set").Item

    def kind(kind: str, doc_kind: str, refuse: bool = False) -> str:
        gold = () if refuse else ("x",)
        return replay.kind_of(item("i", "dev", "d", doc_kind, kind, "en", "q", gold, refuse))

    assert kind("factual", "html_manual") == kind("why", "pdf_paper") == "prose"
    assert kind("follow_up", "code_go") == "follow-ups"  # the thread, whatever the document
    assert kind("factual", "code_python") == "code"
    assert kind("cross_lingual", "pdf_zh") == "cross-lingual"
    assert kind("chinese", "pdf_zh_cn") == kind("chinese", "html_zh_cn") == "zh-Hans"
    assert kind("chinese", "man_zh_tw") == "zh-Hant"
    assert kind("uncovered", "html_zh_tw", refuse=True) == "uncovered"


def test_covered_questions_are_the_plain_covered_ones_and_a_held_out_set_stops(
    tmp_path: Path,
) -> None:
    replay = benchmark_module("unseen_replay")
    items = benchmark_module("unseen_set").load_items(
        benchmark_module("unseen_set").questions_of("unseen")
    )
    covered = next(i for i in items if not i.refuse)
    uncovered = next(i for i in items if i.refuse)
    other = next(i for i in items if not i.refuse and i.id != covered.id)
    requests = {
        covered.id: request("q"),
        uncovered.id: request("q"),
        other.id: request("q", "explain"),
    }
    dev = tmp_path / "dev.pkl"
    dev.write_bytes(pickle.dumps({"set": "unseen", "requests": requests}))
    found = list(replay.covered_questions([dev]))
    assert [(name, item.id) for name, item, _ in found] == [("unseen", covered.id)]
    held = tmp_path / "held.pkl"
    held_out = benchmark_module("unseen_set").TEST_SETS[0]  # moves on after each run
    held.write_bytes(pickle.dumps({"set": held_out, "requests": {}}))
    with pytest.raises(SystemExit, match="held out"):
        list(replay.covered_questions([held]))
