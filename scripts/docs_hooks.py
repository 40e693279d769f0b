"""MkDocs hooks: the reference pages generated from the code at build time, so they are never
stale: the CLI from its click commands, the configuration from ``Settings``, the HTTP API from
the server's OpenAPI schema. ``mkdocs build --strict`` (run by ``make lint``) builds them."""

from __future__ import annotations

import dataclasses
import tempfile
from typing import Any

import click
from mkdocs.structure.files import File, Files

from askalong.cli import COMMANDS, command
from askalong.config import CHOICES, ENV_PREFIX
from askalong.settings import Settings

GENERATED = "<!-- Generated at build time by scripts/docs_hooks.py: edit the code, not this. -->\n"


def on_files(files: Files, config: Any) -> Files:
    for name, text in (
        ("reference/cli.md", cli_reference()),
        ("reference/settings.md", settings_reference()),
        ("reference/http.md", http_reference()),
    ):
        files.append(File.generated(config, name, content=GENERATED + text))
    return files


def cli_reference() -> str:
    parts = [
        "# CLI reference\n",
        "Every command, its arguments and options, as `--help` prints them.\n",
    ]
    for name in sorted(COMMANDS):
        parts.extend(_command_help(["askalong", name], command(name)))
    return "\n".join(parts)


def _command_help(path: list[str], command: click.Command) -> list[str]:
    with click.Context(command, info_name=" ".join(path)) as ctx:
        text = command.get_help(ctx)
    parts = [f"## `{' '.join(path)}`\n", "```text", text, "```\n"]
    if isinstance(command, click.Group):
        for sub in sorted(command.commands):
            parts.extend(_command_help([*path, sub], command.commands[sub]))
    return parts


def settings_reference() -> str:
    rows = ["| variable | type | default | valid |", "|---|---|---|---|"]
    for field in dataclasses.fields(Settings):
        rows.append(_settings_row(field))
    intro = (
        "# Settings reference\n\nEvery field of `Settings`, read from `ASKALONG_<NAME>` or"
        " `config.toml`; what each means is in [Configuration](../configuration.md).\n\n"
    )
    return intro + "\n".join(rows) + "\n"


def _settings_row(field: dataclasses.Field[Any]) -> str:
    default = "`~/.askalong`" if field.name == "home" else f"`{field.default!r}`"
    kind = "path" if field.name == "home" else type(field.default).__name__
    valid = ", ".join(f"`{choice}`" for choice in CHOICES.get(field.name, ()))
    return f"| `{ENV_PREFIX}{field.name.upper()}` | {kind} | {default} | {valid} |"


def http_reference() -> str:
    schema = _openapi()
    rows = ["| method | path | what it does |", "|---|---|---|"]
    for path, methods in sorted(schema["paths"].items()):
        for method, op in sorted(methods.items()):
            summary = (op.get("description") or op.get("summary") or "").split("\n")[0]
            rows.append(f"| {method.upper()} | `{path}` | {summary} |")
    intro = (
        "# HTTP reference\n\nEvery route of `askalong serve`, from its OpenAPI schema (served"
        " live at `/docs` and `/openapi.json`). Guides: [The HTTP API](../http.md).\n\n"
    )
    return intro + "\n".join(rows) + "\n"


def _openapi() -> dict[str, Any]:
    """The schema of an app over a throw-away home (making the app writes its token there)."""
    from askalong.config import load_settings
    from askalong.server.app import create_app

    with tempfile.TemporaryDirectory() as home:
        return dict(create_app(load_settings(home=home)).openapi())
