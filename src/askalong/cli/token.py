"""The token command: the install's HTTP API token (made on first use, mode 0600)."""

from __future__ import annotations

import click
from rich.markup import escape

from askalong.cli.output import err_console, print_json
from askalong.config import load_settings
from askalong.server.token import install_token, token_path


@click.command()
@click.option("--json", "as_json", is_flag=True, help='Print {"token": ...} as JSON.')
def token(as_json: bool) -> None:
    """Print the HTTP API token of this ASKALONG_HOME (scripts send it as
    'Authorization: Bearer <token>'; a browser opens the reader at /?token=<token>)."""
    home = load_settings().home
    value = install_token(home)
    if as_json:
        print_json({"token": value})
        return
    click.echo(value)
    err_console.print(f"[dim]kept in {escape(str(token_path(home)))} (readable by you only)[/]")
