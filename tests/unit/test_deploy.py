"""The compose file of docs/deployment.md names only real things: every ``ASKALONG_*``
variable is a setting, every command an ``askalong`` verb with options it takes. (No
container engine runs here: this is all CI can check of the file itself.)"""

from __future__ import annotations

import dataclasses
from typing import Any

import click
import yaml

from askalong.cli import main
from askalong.settings import Settings
from conftest import REPO

COMPOSE = REPO / "deploy" / "compose.yaml"


def services() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    return loaded["services"]


def test_every_askalong_variable_in_the_compose_file_is_a_setting() -> None:
    known = {f"ASKALONG_{f.name.upper()}" for f in dataclasses.fields(Settings)}
    used = {
        name
        for service in services().values()
        for name in service.get("environment", {})
        if name.startswith("ASKALONG_")
    }
    assert used and used <= known, sorted(used - known)


def test_every_askalong_command_in_the_compose_file_parses() -> None:
    commands = [
        service["command"]
        for service in services().values()
        if service.get("command", [None])[0] == "askalong"
    ]
    assert commands
    for _, verb, *args in commands:
        command = main.get_command(click.Context(main), verb)
        assert command is not None, verb
        command.make_context(verb, list(args))  # raises on an option it does not take
