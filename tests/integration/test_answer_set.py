"""The real-question set and its harness (``benchmarks/answers.py``): the scoring counts a
hit, a refusal and an echo as the README says, a small paper runs end to end through the
product's asker, and every gold, evidence and selection phrase of the set is found in its
parsed document (the manuals in slow tests; the PostgreSQL one takes minutes, so only
``make sweep`` checks its items, and ``make test`` the one-file manual's)."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest
from benchmark_module import benchmark_module
from model_caches import seeded

PAPER = "pdf/en_1col/Wang-paperAVE2008.pdf"  # 5 pages: its items run end to end here


@pytest.fixture(autouse=True)
def _restored_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``open_corpus`` sets ASKALONG_HOME (and ASKALONG_EMBEDDER for "none") as the script
    does; set here first, monkeypatch puts the caller's values back afterwards."""
    monkeypatch.setenv("ASKALONG_HOME", str(tmp_path / "unused"))
    monkeypatch.setenv("ASKALONG_EMBEDDER", "local")


def _answers() -> ModuleType:
    return benchmark_module("answers")


def _items(manuals: bool, *, folders: bool | None = None) -> list:  # type: ignore[type-arg]
    """The set's paper items, or its manual items (only those over a folder of pages, or
    only those over one file, when ``folders`` says)."""
    answers = _answers()
    items = answers.load_items(answers.QUESTIONS)
    picked = [i for i in items if any(d.startswith("manuals/") for d in i.documents) == manuals]
    if folders is None:
        return picked
    return [i for i in picked if any(_is_folder(d) for d in i.documents) == folders]


def _is_folder(relative: str) -> bool:
    return not Path(relative).suffix  # the set names files with their suffix


def _item(**fields: object) -> object:
    base = {"id": "t", "kind": "factual", "documents": (PAPER,), "question": "q?", "lang": "en"}
    return _answers().Item(**{**base, "gold": ("Minipar",), **fields})


def test_a_gold_phrase_in_the_direct_answer_is_a_hit_and_quotes_do_not_count() -> None:
    score = _answers().score
    item = _item()
    hit = score(item, "Dependencies come from ＭＩＮＩ-\npar (Lin, 1998).", "answered", (), "")
    assert hit["hit"] and not hit["refused"]  # width, case, whitespace and word hyphens
    quoted = score(item, "The RTE system.", "answered", ("derived by Minipar",), "Minipar")
    assert not quoted["hit"] and quoted["evidence_hit"] and quoted["bm25_hit"]


def test_a_refusal_is_counted_and_is_the_hit_only_for_uncovered_items() -> None:
    score = _answers().score
    covered = score(_item(), "Minipar", "not_covered", (), "")
    assert covered["refused"] and not covered["hit"]
    uncovered = score(_item(kind="uncovered", gold=()), "", "not_covered", (), "")
    assert uncovered["refused"] and uncovered["hit"] and not uncovered["bm25_hit"]
    answered = score(_item(kind="uncovered", gold=()), "Some table.", "answered", (), "")
    assert not answered["hit"]


def test_an_answer_repeating_the_selection_is_an_echo() -> None:
    score = _answers().score
    item = _item(kind="explain", intent="explain", selection="the Triple Similarity", gold=("x",))
    assert score(item, "one is called the triple  similarity", "answered", (), "")["echo"]
    assert score(item, "Triple", "answered", (), "")["echo"]  # the answer inside the selection
    assert not score(item, "It counts shared triples.", "answered", (), "")["echo"]


def test_a_bad_line_of_the_set_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "set.jsonl"
    good = {"id": "a", "kind": "why", "documents": [PAPER], "question": "q", "gold": ["x"]}
    lines = [{**good, "lang": "en"}, {**good, "id": "b", "lang": "en", "kind": "trivia"}]
    bad.write_text("\n".join(json.dumps(line) for line in lines), encoding="utf-8")
    with pytest.raises(SystemExit, match=r"set\.jsonl:2: unknown kind 'trivia'"):
        _answers().load_items(bad)


@pytest.mark.slow  # ~16 s of CPU (the embedder loads), over 30 s on the shared machine
def test_a_small_paper_runs_end_to_end(tmp_path: Path, evaldata: Path, model_caches: Path) -> None:
    answers = _answers()
    seeded(tmp_path / "home" / benchmark_module("answers_corpus").code_key(), model_caches)
    items = [i for i in answers.load_items(answers.QUESTIONS) if i.documents == (PAPER,)]
    assert len(items) >= 8 and any(i.kind == "uncovered" for i in items)
    library, ids = answers.open_corpus(tmp_path / "home", [PAPER])
    with library:
        outcomes = answers.ask_all(library, ids, items)
    assert [o.id for o in outcomes] == [i.id for i in items]
    for item, outcome in zip(items, outcomes, strict=True):
        rescored = answers.score(item, outcome.answer, outcome.status, outcome.quotes, "")
        assert outcome.hit == rescored["hit"] and outcome.refused == rescored["refused"]
        assert outcome.evidence_hit == rescored["evidence_hit"] and outcome.ms > 0
    saved = answers.save(outcomes, "test", ["a note"], "", results=tmp_path)
    rows = json.loads(saved.with_suffix(".json").read_text(encoding="utf-8"))["outcomes"]
    assert len(rows) == len(items) and "| **all** | " + str(len(items)) in saved.read_text()
    # Asked again, the library is reused as it is: nothing to ingest.
    again, _ = answers.open_corpus(tmp_path / "home", [PAPER])
    again.close()
    assert len(list((tmp_path / "home").iterdir())) == 1


def _check(tmp_path: Path, manuals: bool, *, folders: bool | None = None) -> None:
    answers = _answers()
    items = _items(manuals, folders=folders)
    library, ids = answers.open_corpus(
        tmp_path, [d for i in items for d in i.documents], vectors="none"
    )
    with library:
        assert all(ids.values()), ids  # every path gave documents
        assert answers.check(library, ids, items) == []


@pytest.mark.slow  # 13 papers parsed and stored: ~14 s of CPU, over 30 s when shared
def test_every_phrase_of_the_paper_items_is_in_its_document(tmp_path: Path, evaldata: Path) -> None:
    assert len(_items(manuals=False)) >= 120
    _check(tmp_path, False)


@pytest.mark.slow
def test_every_phrase_of_the_one_file_manual_items_is_in_its_manual(
    tmp_path: Path, evaldata: Path
) -> None:
    """The sample ``make test`` runs: the manual items over one PDF (gnuplot's)."""
    assert len(_items(manuals=True, folders=False)) >= 5
    _check(tmp_path, True, folders=False)


@pytest.mark.slow
@pytest.mark.sweep  # the 1,174 pages of the PostgreSQL manual take minutes: `make sweep`
def test_every_phrase_of_the_folder_manual_items_is_in_its_manual(
    tmp_path: Path, evaldata: Path
) -> None:
    assert len(_items(manuals=True, folders=True)) >= 15
    _check(tmp_path, True, folders=True)


def test_check_names_a_missing_phrase_a_missing_selection_and_a_gold_inside_it(
    tmp_path: Path, evaldata: Path
) -> None:
    answers = _answers()
    explain = {"kind": "explain", "intent": "explain"}
    items = [
        _item(gold=("Minipar", "Stanford parser")),
        _item(id="b", **explain, selection="no such words in the paper", gold=("Minipar",)),
        _item(id="c", **explain, selection="derived by Minipar", gold=("Minipar",)),
        _item(id="d", **explain, selection="derived by Minipar", gold=("SMES",)),
    ]
    library, ids = answers.open_corpus(tmp_path, [PAPER], vectors="none")
    with library:
        assert answers.check(library, ids, items) == [
            f"t: 'Stanford parser' not in {PAPER}",
            "b: selection not found: 'no such words in the paper'",
            "c: a gold phrase is inside the selection itself",
        ]
