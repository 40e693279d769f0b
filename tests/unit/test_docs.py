"""Docs are tested: every CLI command has help text and appears in the README."""

from __future__ import annotations

import re

import click
import pytest
from click.testing import CliRunner

from askalong.cli import main
from conftest import REPO

README = (REPO / "README.md").read_text(encoding="utf-8")


def test_readme_starts_with_the_two_commands() -> None:
    commands = re.findall(r"^(make \w+)$", README, re.M)
    assert commands[:2] == ["make run", "make test"]


@pytest.mark.parametrize("name", sorted(main.commands))
def test_every_command_has_help_and_is_documented(name: str) -> None:
    command = main.commands[name]
    assert isinstance(command, click.Command)
    assert command.help and len(command.help) > 20
    result = CliRunner().invoke(main, [name, "--help"])
    assert result.exit_code == 0, result.output
    assert f"askalong {name}" in README
    for param in command.params:
        if isinstance(param, click.Option) and param.name != "help":
            assert any(opt in README for opt in param.opts), f"{name} {param.opts} not in README"
