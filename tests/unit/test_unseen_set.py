"""The never-seen-documents sets (``benchmarks/unseen/questions.jsonl``, split by document,
and the fresh test-only ``benchmarks/unseen2/`` … ``unseen25/``) are well formed,
and ``benchmarks/unseen.py`` matches and counts as the README says. Only shapes are asserted,
and that the held-out and unrun sets' gold phrases and selections are in their parsed
documents (their ``--check``): no test asks an item or reads an answer."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from types import ModuleType

import pytest
from benchmark_module import benchmark_module
from script_imports import repository_scripts


def _set() -> ModuleType:
    return benchmark_module("unseen_set")


def _script() -> ModuleType:
    return benchmark_module("unseen")


def test_the_set_is_large_enough_and_every_item_is_answerable_or_refused() -> None:
    items = _set().load_items()
    assert len(items) >= _set().MIN_ITEMS
    for item in items:
        assert (_set().DOCS / item.doc).exists()
        assert item.refuse or (item.gold and all(g.strip() for g in item.gold))
        assert item.refuse == (item.kind == "uncovered")


def test_the_splits_share_no_document_and_both_hold_every_kind() -> None:
    items = _set().load_items()
    dev, test = (_set().of_split(items, s) for s in ("dev", "test"))
    assert dev and test and len(dev) + len(test) == len(items)
    assert not {i.doc for i in dev} & {i.doc for i in test}
    assert {i.kind for i in dev} == {i.kind for i in test} == set(_set().KINDS)
    assert {i.lang for i in dev} == {i.lang for i in test} == {"en", "zh"}


# the test-only sets, oldest first
FRESH = (
    "unseen2", "unseen3", "unseen4", "unseen5", "unseen6", "unseen7", "unseen8", "unseen9",
    "unseen10", "unseen11", "unseen12", "unseen13", "unseen14", "unseen15", "unseen16",
    "unseen17", "unseen18", "unseen19", "unseen20", "unseen21", "unseen22", "unseen23",
    "unseen24", "unseen25",
)  # fmt: skip
CHECKED = FRESH[-3:]  # the held-out and the unrun sets: a test keeps their --check true


@pytest.mark.parametrize("name", FRESH)
def test_a_fresh_set_is_test_only_on_documents_no_earlier_set_has_with_every_kind(
    name: str,
) -> None:
    items = _set().load_items(_set().questions_of(name))  # documents beside it
    assert len(items) >= _set().MIN_ITEMS
    assert {i.split for i in items} == {"test"}
    assert {i.kind for i in items} == set(_set().KINDS)
    assert {i.lang for i in items} == {"en", "zh"}
    assert len({i.doc for i in items}) >= 8
    earlier = _set().SETS[: _set().SETS.index(name)]
    for other in earlier:
        assert not {i.doc for i in items} & {
            i.doc for i in _set().load_items(_set().questions_of(other))
        }


def test_the_newest_set_has_enough_uncovered_and_code_questions() -> None:
    kinds = [i.kind for i in _set().load_items(_set().questions_of(FRESH[-1]))]
    assert len(kinds) >= 150
    assert kinds.count("uncovered") >= 18 and kinds.count("code") >= 20


def test_the_held_out_set_is_no_dev_set_and_no_default_run_asks_it() -> None:
    # the newest set is held out until its one run, or waits unrun behind the ones before it
    assert _set().TEST_SETS in ((), FRESH[-4:-3], FRESH[-3:-2], FRESH[-2:-1], FRESH[-1:])
    held = set(_set().TEST_SETS) | set(_set().UNRUN_SETS)
    assert FRESH[-1] in held or not _set().TEST_SETS  # never dev while an older set waits
    assert not set(_set().DEV_SETS) & held
    assert set(_set().DEV_SETS) | held == set(_set().SETS)
    assert not set(benchmark_module("followups")._arguments([]).sets) & held


def set_names_in(script: Path) -> list[str]:
    """The set names ``script`` writes out beyond the first set's (a default): ``"unseen7"``,
    or ``f"unseen{n}"`` over a range of its own."""
    named = []
    for node in ast.walk(ast.parse(script.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            named += [node.value] if re.fullmatch(r"unseen\d+", node.value) else []
        elif isinstance(node, ast.JoinedStr) and node.values:
            first = node.values[0]
            opens = isinstance(first, ast.Constant) and str(first.value).endswith("unseen")
            named += [ast.unparse(node)] if opens and len(node.values) > 1 else []
    return named


def test_only_unseen_set_names_the_sets_so_their_roles_have_one_home() -> None:
    """A script with its own list of DEV sets goes stale when a set changes role (it read
    ``unseen``..``unseen12`` after unseen13 and unseen14 became DEV)."""
    named = {
        s.name: names
        for s in repository_scripts()
        if s.name != "unseen_set.py" and (names := set_names_in(s))
    }
    assert named == {}


def test_a_set_list_of_its_own_is_found(tmp_path: Path) -> None:
    script = tmp_path / "own.py"
    script.write_text('SETS = ["unseen", *(f"unseen{n}" for n in range(2, 13)), "unseen14"]\n')
    assert sorted(set_names_in(script)) == ["f'unseen{n}'", "unseen14"]


@pytest.mark.slow
@pytest.mark.parametrize("name", CHECKED)
def test_a_newest_set_passes_its_check_on_the_parsed_documents(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    monkeypatch.setenv("ASKALONG_HOME", str(tmp_path))  # open_library sets it: restored after
    monkeypatch.delenv("ASKALONG_ANSWERER", raising=False)
    questions = _set().questions_of(name)
    items = _set().load_items(questions)
    ids = _script().build(tmp_path, questions.parent / "docs", items, vectors=False)
    with _script().open_library(tmp_path) as library:
        assert _script().check(library, ids, items) == []


@pytest.mark.parametrize("name", FRESH)
def test_the_script_runs_the_named_set_and_names_its_results_after_it(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    monkeypatch.setattr("sys.argv", ["unseen.py", "--set", name, "--split", "test"])
    args = _script()._arguments()
    assert args.set == name
    assert args.out.name.startswith(f"{name}-test-")


@pytest.mark.parametrize(
    ("given", "tables"),
    [("run.md", "run.md"), ("run", "run.md"), ("run.json", "run.json.md"), ("a.b", "a.b.md")],
)
def test_out_names_the_tables_file_and_the_answers_go_beside_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, given: str, tables: str
) -> None:
    monkeypatch.setattr("sys.argv", ["unseen.py", "--out", str(tmp_path / given)])
    out = _script()._arguments().out
    assert out == tmp_path / tables
    _script()._save(out, [], ["a note"])
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([tables, tables[:-3] + ".json"])
    assert json.loads(out.with_suffix(".json").read_text("utf-8"))["notes"] == ["a note"]


def test_follow_ups_follow_an_earlier_item_on_their_document() -> None:
    items = _set().load_items()
    seen = {}
    for item in items:
        if item.previous:
            assert seen[item.previous].doc == item.doc
        seen[item.id] = item
    assert any(i.previous for i in items)


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"gold": []}, "gold"),
        ({"refuse": True}, "never both"),
        ({"doc": "nowhere.pdf"}, "not in"),
        ({"split": "train"}, "unknown"),
        ({"previous": "nobody"}, "follow-ups"),
    ],
)
def test_a_bad_line_is_refused_naming_its_line(
    tmp_path: Path, change: dict[str, object], problem: str
) -> None:
    good = {"id": "x-01", "split": "dev", "doc": "vim-undo.txt", "doc_kind": "text_manual"}
    good |= {"kind": "factual", "lang": "en", "question": "What is u?", "gold": ["Undo"]}
    (tmp_path / "docs").mkdir()  # a set's documents lie beside its questions
    (tmp_path / "docs" / "vim-undo.txt").write_text("u: undo", encoding="utf-8")
    path = tmp_path / "set.jsonl"
    path.write_text(json.dumps(good | change) + "\n", encoding="utf-8")
    with pytest.raises(SystemExit, match=f"set.jsonl:1: x-01: .*{problem}"):
        _set().load_items(path)


@pytest.mark.parametrize(
    ("answer", "gold"),
    [
        ("It uses a PENDING\nlock.", "pending lock"),  # case and line breaks
        ("ＤＲＯＰＥＶＥＮＴ is raised", "DropEvent"),  # full width
        ("粘滞位 保护 目录", "粘滞位保护目录"),  # spaces between CJK characters
        ("the same “rule row”", 'same "rule row"'),  # curly quotes
        ("a super-\njournal is made", "super-journal"),  # a word hyphen at a line end
    ],
)
def test_a_gold_phrase_matches_whatever_the_case_width_or_spacing(answer: str, gold: str) -> None:
    assert _set().contains_any(answer, [gold])


def test_a_gold_phrase_that_is_not_there_or_empty_never_matches() -> None:
    assert not _set().contains_any("SHARED locks only", ["exclusive lock", "", "  "])


def test_a_refusal_never_hits_and_counts_as_wrong_only_when_covered() -> None:
    items = {i.kind: i for i in _set().load_items()}
    covered, uncovered = items["factual"], items["uncovered"]
    gold = covered.gold[0]
    rows = [
        {"system": "rules", **_script()._scored(covered, gold, True, [gold], 5.0)},
        {"system": "rules", **_script()._scored(uncovered, "", True, [], 7.0)},
    ]
    assert not rows[0]["answer_hit"] and rows[0]["passage_hit"]
    cells = _script().figures(rows)
    assert cells["answer hit"] == "0/1 (0.00)"
    assert cells["wrong refusals"] == "1/1 (1.00)"
    assert cells["uncovered refused"] == "1/1 (1.00)"
    assert cells["refused"] == "2/2 (1.00)"


def test_the_paragraph_baseline_answers_with_the_best_block_never_a_heading() -> None:
    from askalong.types import Block

    blocks = [
        Block("h", "heading", "Vacuum and the free space map", 0),
        Block("a", "paragraph", "The planner estimates row counts from statistics.", 1),
        Block("b", "paragraph", "VACUUM reclaims space; the free space map records it.", 2),
        Block("c", "paragraph", "Autovacuum runs VACUUM and ANALYZE in the background.", 3),
    ]
    top = benchmark_module("unseen_baselines").top_paragraph
    assert top("What records the free space after VACUUM?", blocks) == blocks[2].text
    assert top("unrelated words entirely", blocks) == ""
    assert "bm25p" in _script().SYSTEMS and "bm25" in _script().SYSTEMS


def test_the_threshold_sweep_refuses_below_the_passage_probability_only_more() -> None:
    def row(covered: bool, p: float, refused: bool = False) -> dict:
        hit = covered and not refused
        return {
            "system": "learned",
            "covered": covered,
            "refused": refused,
            "answer_hit": hit,
            "passage_p": p,
        }

    rows = [row(True, 0.9), row(True, 0.3), row(False, 0.2), row(False, 0.8, refused=True)]
    table = benchmark_module("unseen_calibrate").sweep(rows).splitlines()
    assert "| 0.00 | 0/2 | 1/2 | 2/2 |" in table
    assert "| 0.30 | 0/2 | 2/2 | 2/2 |" in table  # 0.3 itself is not below
    assert "| 0.40 | 1/2 | 2/2 | 1/2 |" in table


def test_the_breakdown_reads_the_gold_of_the_set_the_run_asked() -> None:
    """A run of ``unseen3`` is broken down against unseen3's gold phrases, not unseen's."""
    item = next(i for i in _set().load_items(_set().questions_of("unseen3")) if not i.refuse)
    row = {"id": item.id, "kind": item.kind, "covered": True, "refused": False}
    rows = [
        {**row, "system": "learned", "answer_hit": False, "passage": f"… {item.gold[0]} …"},
        {**row, "system": "bm25", "answer_hit": True},
    ]
    counts = benchmark_module("unseen_breakdown").breakdown(rows, "unseen3")
    assert counts[("learned", item.kind)]["sentence"] == 1  # the right passage, not the sentence
