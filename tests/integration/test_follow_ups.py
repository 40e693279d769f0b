"""Follow-ups in a real thread keep their context: `askalong ask --thread` on a real
Markdown guide, the offline answerer, the real store and keyword index."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from askalong.answer.base import HistoryTurn
from askalong.asking.evidence import gather
from askalong.asking.evidence_search import thread_context
from askalong.asking.question import AskedQuestion
from askalong.cli import main
from askalong.config import Settings
from askalong.library import Library, opened_library
from askalong.question.reading import read_question
from askalong.types import Access

GUIDE = """# Weekend guide

## Easy sudoku puzzles

Easy sudoku puzzles give thirty or more starting digits, so every empty cell can be
filled by scanning its row, column and box for the single missing digit.

## Harder sudoku puzzles

Harder sudoku puzzles give fewer than twenty-five digits and need techniques such as
the X-wing or forcing chains before the grid opens up.

## Harder hiking trails

The harder trails climb eight hundred metres, and the harder ridge routes need a rope.
"""


def run_json(*args: str) -> Any:
    result = CliRunner().invoke(main, [*args, "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture
def guide(settings: Settings, tmp_path: Path) -> dict[str, str]:
    path = tmp_path / "guide.md"
    path.write_text(GUIDE, encoding="utf-8")
    doc = run_json("add", str(path))["results"][0]["document"]["id"]
    blocks = run_json("show", doc, "--blocks")["blocks"]
    return {b["id"]: b["text"] for b in blocks}


def quoted(answer: dict[str, Any], blocks: dict[str, str]) -> str:
    """The blocks the answer quotes, joined."""
    return "\n".join(blocks[quote["block_id"]] for quote in answer["quotes"])


def first_hit(library: Library, question: str, history: tuple[HistoryTurn, ...]) -> str:
    """The text of the best chunk gathered for ``question`` asked with ``history``."""
    asked = AskedQuestion(question, read_question(question), "ask", None, (), history)
    evidence = gather(library.store, library.searcher, asked, Access.local())
    return library.store.chunk(evidence.hits[0].chunk_id).text


def test_a_follow_up_is_searched_with_the_thread(guide: dict[str, str]) -> None:
    first = run_json("ask", "Which sudoku puzzles are easy?")
    with opened_library() as library:
        turns = library.store.turns(first["thread_id"])
        history = tuple(HistoryTurn(turn.question, turn.answer.answer) for turn in turns)
        # Alone, "harder" is the hiking trails' word; in the thread it means puzzles.
        assert "trails" in first_hit(library, "And the harder ones?", ())
        assert "X-wing" in first_hit(library, "And the harder ones?", history)


def test_a_question_unrelated_to_the_selection_is_not_forced_through_it(
    guide: dict[str, str],
) -> None:
    doc = run_json("docs")["documents"][0]["id"]
    selection = "Easy sudoku puzzles give thirty or more starting digits"
    related = run_json("ask", "How many digits do they give?", "--doc", doc, "--select", selection)
    assert "thirty or more starting digits" in quoted(related, guide)
    unrelated = run_json(
        "ask", "How high do the ridge routes climb?", "--doc", doc, "--select", selection
    )
    assert "eight hundred metres" in unrelated["answer"]
    assert "thirty or more" not in quoted(unrelated, guide)  # the selection stays out


def test_a_follow_up_naming_its_own_subject_is_not_searched_with_the_thread(
    guide: dict[str, str],
) -> None:
    first = run_json("ask", "Which sudoku puzzles are easy?")
    with opened_library() as library:
        turns = library.store.turns(first["thread_id"])
        history = tuple(HistoryTurn(turn.question, turn.answer.answer) for turn in turns)
        own = "How far do the harder hiking trails climb?"
        asked = AskedQuestion(own, read_question(own), "ask", None, (), history)
        assert thread_context(asked) == ""  # searched as asked: the puzzles stay out
        assert "eight hundred metres" in first_hit(library, own, history)
        leaning = "And the harder ones?"
        asked = AskedQuestion(leaning, read_question(leaning), "ask", None, (), history)
        assert "Which sudoku puzzles are easy?" in thread_context(asked)


def test_a_question_naming_another_section_is_answered_from_the_whole_document(
    settings: Settings, evaldata: Path
) -> None:
    """The issue's reproduction on SPECTER: anchored on the future-work sentence (which
    mentions triplets), "How are the negatives for the triplets chosen?" is answered from
    the method like the same question unanchored, and the answer says so; a follow-up
    leaning on the selection ("Why does it do that?") still answers from it."""
    paper = evaldata / "pdf" / "en_2col" / "2020.acl-main.207.pdf"
    doc = run_json("add", str(paper))["results"][0]["document"]["id"]
    selection = "We used citations to build triplets for our loss function"
    question = "How are the negatives for the triplets chosen?"
    anchored = run_json("ask", question, "--doc", doc, "--select", selection)
    unanchored = run_json("ask", question, "--doc", doc)
    future = anchored["anchor"]["block_id"]  # the thread keeps its anchor
    assert anchored["anchor_set_aside"] == "other_section"
    assert future not in {q["block_id"] for q in anchored["quotes"]}
    assert anchored["answer"] == unanchored["answer"]
    why = run_json("ask", "Why does it do that?", "--thread", anchored["thread_id"])
    assert why["anchor_set_aside"] is None and why["anchor"]["block_id"] == future
    assert future in {q["block_id"] for q in why["quotes"]}


LIMITS = """# Service limits

## Uploads

The upload size limit is 2 GB per file.

Uploads resume after a broken connection, from the last part the server confirmed.

An upload over the size limit is rejected with error 413 and nothing of it is stored.

## Requests

If the request rate limit is exceeded, the server answers 429 and the client waits a
minute before trying again.
"""


def test_a_what_if_follow_up_is_searched_about_the_thread_subject(
    settings: Settings, tmp_path: Path
) -> None:
    """Alone, "the limit is exceeded" is the request rate's; after a question on the
    upload size it is searched about uploads (``question/rewrite``: the thread's subject
    added to a follow-up naming no new subject), and stored as asked."""
    path = tmp_path / "limits.md"
    path.write_text(LIMITS, encoding="utf-8")
    run_json("add", str(path))
    alone = run_json("ask", "What if the limit is exceeded?")
    first = run_json("ask", "What is the upload size limit?")
    assert "2 GB" in first["answer"]
    follow_up = run_json("ask", "What if the limit is exceeded?", "--thread", first["thread_id"])
    assert follow_up["question"] == "What if the limit is exceeded?"
    with opened_library() as library:
        best = [library.store.chunk(a["hits"][0]["chunk_id"]).text for a in (alone, follow_up)]
    assert "429" in best[0] and "413" not in best[0]
    assert "413" in best[1] and "429" not in best[1]
