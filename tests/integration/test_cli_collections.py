"""`askalong add FOLDER` makes a collection; `collections`, `docs/search/ask --collection`
and `collections rm` over eight real PostgreSQL manual pages."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from samples import MANUAL_PAGES, manual_folder

from askalong.cli import main
from askalong.config import Settings


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def run_json(*args: str) -> Any:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture
def added(settings: Settings, evaldata: Path, tmp_path: Path) -> dict[str, Any]:
    """The folder added, with a stray document outside it that says the same words."""
    (tmp_path / "other.md").write_text(
        "# Isolation\n\nSerializable isolation of transactions, in another document.\n"
    )
    run_json("add", "--no-embed", str(tmp_path / "other.md"))
    result: dict[str, Any] = run_json("add", "--no-embed", str(manual_folder(evaldata, tmp_path)))
    return result


def test_adding_a_folder_makes_a_collection_named_after_it(added: dict[str, Any]) -> None:
    [made] = added["collections"]
    assert made["name"] == "pg-transactions"
    assert made["documents"] == len(MANUAL_PAGES) == added["added"]
    assert made["chunks"] == sum(r["chunks"] for r in added["results"])
    listed = run_json("collections")["collections"]
    assert listed == [made]
    shown = run("collections")
    assert "pg-transactions" in shown.output and str(len(MANUAL_PAGES)) in shown.output


def test_docs_search_and_ask_stay_inside_the_collection(added: dict[str, Any]) -> None:
    members = {r["document"]["id"] for r in added["results"]}
    in_docs = run_json("docs", "--collection", "pg-transactions")
    assert {d["id"] for d in in_docs["documents"]} == members
    assert len(run_json("docs")["documents"]) == len(members) + 1
    query = "serializable isolation transactions"
    found = run_json("search", "--collection", "pg-transactions", "-k", "20", query)["hits"]
    assert found and {h["document_id"] for h in found} <= members
    everywhere = run_json("search", "-k", "50", query)["hits"]
    assert {h["document_id"] for h in everywhere} - members  # the stray one matches too
    answer = run_json("ask", "--collection", "pg-transactions", "What does ROLLBACK do?")
    assert answer["status"] == "answered"
    assert {q["document_id"] for q in answer["quotes"]} <= members


def test_adding_again_with_a_name_extends_one_collection(
    added: dict[str, Any], tmp_path: Path
) -> None:
    extra = tmp_path / "extra.txt"
    extra.write_text("Savepoints mark a point inside a transaction.\n")
    again = run_json("add", "--no-embed", "--collection", "pg-transactions", str(extra))
    [extended] = again["collections"]
    assert extended["id"] == added["collections"][0]["id"]
    assert extended["documents"] == len(MANUAL_PAGES) + 1
    alone = run_json("add", "--no-embed", str(tmp_path / "other.md"))
    assert alone["collections"] == []  # a file named alone joins no collection


def test_removing_a_collection_keeps_its_documents_unless_asked(
    added: dict[str, Any], tmp_path: Path
) -> None:
    removed = run_json("collections", "rm", "pg-transactions")
    assert removed["removed"]["name"] == "pg-transactions"
    assert removed["documents_removed"] == []
    assert len(run_json("docs")["documents"]) == len(MANUAL_PAGES) + 1
    assert run_json("collections")["collections"] == []
    missing = run("search", "--collection", "pg-transactions", "x")
    assert missing.exit_code == 1 and "no such collection" in missing.output

    run_json("add", "--no-embed", "--collection", "again", str(tmp_path / "pg-transactions"))
    gone = run_json("collections", "rm", "again", "--with-documents")
    assert len(gone["documents_removed"]) == len(MANUAL_PAGES)
    assert len(run_json("docs")["documents"]) == 1  # only the stray document is left


def test_removing_a_document_takes_it_out_of_its_collection(added: dict[str, Any]) -> None:
    first = added["results"][0]["document"]["id"]
    run_json("rm", first)
    [left] = run_json("collections")["collections"]
    assert left["documents"] == len(MANUAL_PAGES) - 1
