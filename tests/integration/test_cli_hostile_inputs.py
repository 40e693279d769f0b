"""`askalong add` against hostile file systems and names (issue 11, items 7 and 8): names
that are not UTF-8, unreadable folders, escape sequences in names, bad number settings,
and links out of the folder being added."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from unreadable import unreadable

from askalong.cli import main
from askalong.config import Settings

RED = "\x1b[31m"  # a terminal escape: printed raw, it recolours (or worse) the terminal


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def run_json(*args: str) -> Any:
    result = run(*args, "--json")
    return json.loads(result.stdout)


def statuses(added: Any) -> dict[str, str]:
    return {Path(r["source"]).name: r["status"] for r in added["results"]}


def test_a_name_that_is_not_utf8_is_added_and_so_are_the_files_after_it(
    settings: Settings, tmp_path: Path
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.txt").write_text("The first file.")
    with open(os.fsencode(folder) + b"/b\xff.txt", "wb") as handle:  # a Latin-1 era name
        handle.write(b"The file with the odd name.")
    (folder / "c.txt").write_text("The file after it.")
    added = run_json("add", str(folder))
    assert statuses(added) == {"a.txt": "added", "b\\xff.txt": "added", "c.txt": "added"}
    assert run("docs").exit_code == 0
    shown = run("show", added["results"][1]["document"]["id"])
    assert f"source: {folder}/b\\xff.txt" in shown.stdout


def test_a_name_that_is_not_utf8_is_named_when_it_fails(settings: Settings, tmp_path: Path) -> None:
    empty = os.fsencode(tmp_path) + b"/empty\xfe.txt"
    open(empty, "wb").close()
    result = run("add", os.fsdecode(empty))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"failed  {tmp_path}/empty\\xfe.txt:" in result.stderr


def test_an_unreadable_folder_is_reported_as_failed_naming_it(
    settings: Settings, tmp_path: Path
) -> None:
    folder = tmp_path / "docs"
    (folder / "locked").mkdir(parents=True)
    (folder / "locked" / "inside.txt").write_text("Never seen.")
    (folder / "open.txt").write_text("Readable.")
    with unreadable(folder / "locked"):
        added = run_json("add", str(folder))
        alone = run("add", str(folder / "locked"))
    assert statuses(added) == {"open.txt": "added", "locked": "failed"}
    failure = added["results"][1]
    assert failure["source"] == str(folder / "locked")
    assert "cannot read the folder" in failure["error"] and "ermission denied" in failure["error"]
    assert alone.exit_code == 1  # nothing at all could be added
    assert f"failed  {folder / 'locked'}: cannot read the folder" in alone.stderr


def test_escape_sequences_in_names_are_shown_escaped(settings: Settings, tmp_path: Path) -> None:
    named = tmp_path / f"{RED}red\u202eevil.txt"
    named.write_text("Plain words in a file with a hostile name.")
    broken = tmp_path / f"{RED}empty.txt"
    broken.write_text("")
    added = run("add", str(named), str(broken))
    doc_id = run_json("docs")["documents"][0]["id"]
    outputs = [added, run("docs"), run("show", doc_id), run("search", "hostile"), run("rm", doc_id)]
    for result in outputs:
        assert result.exit_code == 0, result.output
        assert "\x1b" not in result.output and "\u202e" not in result.output, result.output
    assert f"{tmp_path}/\\x1b[31mred\\u202eevil.txt" in added.stdout
    assert f"failed  {tmp_path}/\\x1b[31mempty.txt" in added.stderr
    assert f"source: {tmp_path}/\\x1b[31mred" in outputs[2].stdout
    assert run_json("docs")["documents"] == []  # JSON keeps the real name; nothing else left


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("ASKALONG_MAX_FILE_MB", "nan"),
        ("ASKALONG_MAX_FILE_MB", "inf"),
        ("ASKALONG_PARSE_TIMEOUT", "nan"),
    ],
)
def test_a_bad_number_setting_is_one_line_naming_the_key(
    settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, key: str, value: str
) -> None:
    (tmp_path / "a.txt").write_text("Some text.")
    monkeypatch.setenv(key, value)
    result = run("add", str(tmp_path / "a.txt"))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.stderr.startswith(f"error: {key}='{value}'")


@pytest.fixture
def linked(tmp_path: Path) -> Path:
    """A folder with a file of its own, a link to a file outside it (a secret), a link to a
    folder outside it, a link to a file inside it and a link back to itself."""
    outside = tmp_path / "outside"
    (outside / "folder").mkdir(parents=True)
    (outside / "secret.txt").write_text("A secret kept outside the folder.")
    (outside / "folder" / "more.txt").write_text("More text in a linked folder.")
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "own.txt").write_text("The folder's own text.")
    (folder / "secret.txt").symlink_to(outside / "secret.txt")
    (folder / "linked").symlink_to(outside / "folder")
    (folder / "alias.txt").symlink_to(folder / "own.txt")
    (folder / "loop").symlink_to(folder)
    return folder


def test_a_folder_add_stays_inside_the_folder_and_says_what_it_skipped(
    settings: Settings, linked: Path
) -> None:
    added = run_json("add", str(linked))
    assert statuses(added) == {
        "alias.txt": "added",  # a link to a file inside the folder is taken
        "own.txt": "exists",  # (the same content again)
        "secret.txt": "failed",
        "linked": "failed",
        "loop": "failed",
    }
    errors = {Path(r["source"]).name: r["error"] for r in added["results"] if r["error"]}
    assert "outside the folder" in errors["secret.txt"] and "--follow-links" in errors["secret.txt"]
    assert "a link to a folder" in errors["linked"] and "--follow-links" in errors["linked"]
    titles = {d["title"] for d in run_json("docs")["documents"]}
    assert titles == {"The folder's own text."}
    human = run("add", str(linked))
    assert f"failed  {linked / 'secret.txt'}: a link to a file outside the folder" in human.stderr


def test_follow_links_takes_links_out_of_the_folder_once(settings: Settings, linked: Path) -> None:
    added = run_json("add", "--follow-links", str(linked))
    names = [Path(r["source"]).name for r in added["results"]]
    assert sorted(names) == ["alias.txt", "more.txt", "own.txt", "secret.txt"]  # loop: once
    assert added["failed"] == 0
    titles = {d["title"] for d in run_json("docs")["documents"]}
    assert "A secret kept outside the folder." in titles
    assert "More text in a linked folder." in titles


def test_a_link_named_on_the_command_line_is_taken(settings: Settings, linked: Path) -> None:
    added = run_json("add", str(linked / "secret.txt"), str(linked / "linked"))
    assert statuses(added) == {"secret.txt": "added", "more.txt": "added"}
