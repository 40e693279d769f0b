"""Docs are tested: the README is a short front door, every CLI command has help text and is
described in the guides, every setting in the configuration page."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from askalong.cli import COMMANDS, command, main
from askalong.settings import Settings
from conftest import REPO

README = (REPO / "README.md").read_text(encoding="utf-8")
GUIDES = "\n".join(
    path.read_text(encoding="utf-8") for path in sorted((REPO / "docs").glob("*.md"))
)
README_MAX_LINES = 150


def test_readme_starts_with_the_two_commands() -> None:
    commands = re.findall(r"^(make \w+)$", README, re.M)
    assert commands[:2] == ["make run", "make test"]


def test_readme_fits_on_a_screen_and_links_every_guide() -> None:
    assert len(README.splitlines()) <= README_MAX_LINES
    linked = set(re.findall(r"\(docs/([\w-]+\.md)\)", README))
    pages = {path.name for path in (REPO / "docs").glob("*.md")} - {"index.md"}
    assert pages <= linked, f"guides the README does not link: {sorted(pages - linked)}"


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_has_help_and_is_documented(name: str) -> None:
    verb = command(name)
    assert verb.help and len(verb.help) > 20
    result = CliRunner().invoke(main, [name, "--help"])
    assert result.exit_code == 0, result.output
    assert f"askalong {name}" in GUIDES
    for param in verb.params:
        if isinstance(param, click.Option) and param.name != "help":
            assert any(opt in GUIDES for opt in param.opts), f"{name} {param.opts} not in docs/"


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_listing_shows_each_commands_own_first_sentence(name: str) -> None:
    assert COMMANDS[name][2] == command(name).get_short_help_str(limit=1000)


def test_the_listing_imports_no_command() -> None:
    """`askalong --help` lists every verb from COMMANDS alone (a blink, not every engine)."""
    probe = "import sys; from askalong.cli import main; main(['--help'])"
    shown = subprocess.run(
        [sys.executable, "-c", probe + "\n"], capture_output=True, text=True, check=False
    )
    assert all(f"  {name} " in shown.stdout for name in COMMANDS), shown.stdout
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys\nfrom askalong.cli import main\n"
            "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith('askalong.cli.')))",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert loaded.stdout.strip().splitlines()[-1] == "[]", loaded.stdout


@pytest.mark.parametrize("field", [f.name for f in dataclasses.fields(Settings)])
def test_every_setting_is_explained(field: str) -> None:
    page = (REPO / "docs" / "configuration.md").read_text(encoding="utf-8")
    assert f"ASKALONG_{field.upper()}" in page
