"""The token command: the install's HTTP API token (made on first use, mode 0600), and
the API tokens of accounts (``token create USER``, ``token revoke ID``, ``token list``)."""

from __future__ import annotations

import click
from rich.markup import escape
from rich.table import Table

from askalong.cli.accounts import opened_store
from askalong.cli.output import console, err_console, print_json
from askalong.config import load_settings
from askalong.server.token import configured_token, token_path
from askalong.wire import token_json


@click.group(invoke_without_command=True)
@click.option("--json", "as_json", is_flag=True, help='Print {"token": ...} as JSON.')
@click.pass_context
def token(ctx: click.Context, as_json: bool) -> None:
    """Print the HTTP API token of this ASKALONG_HOME (scripts send it as
    'Authorization: Bearer <token>'; a browser opens the reader at /?token=<token>).
    It acts as the install's owner, who sees every document.

    `token create USER` makes an account's token instead (shown once), `token revoke ID`
    ends one, `token list` lists them.
    """
    if ctx.invoked_subcommand is not None:
        return
    settings = load_settings()
    value = configured_token(settings)
    if as_json:
        print_json({"token": value})
        return
    click.echo(value)
    if settings.api_token:
        err_console.print("[dim]from ASKALONG_API_TOKEN (shared by this deployment's servers)[/]")
        return
    path = token_path(settings.home)
    err_console.print(f"[dim]kept in {escape(str(path))} (readable by you only)[/]")


@token.command("create")
@click.argument("user")
@click.option("--label", default="", help="What the token is for (shown in `token list`).")
@click.option("--json", "as_json", is_flag=True, help='Print {"token": ..., "secret": ...}.')
def create(user: str, label: str, as_json: bool) -> None:
    """Make an API token for USER and print it once: it is stored only as a digest."""
    with opened_store() as store:
        made, secret = store.create_token(user, label)
    if as_json:
        print_json({"token": token_json(made), "secret": secret})
        return
    click.echo(secret)
    err_console.print(f"[dim]token {made.id} of {user}: shown once, keep it safe[/]")


@token.command("revoke")
@click.argument("token_id", metavar="ID")
@click.option("--json", "as_json", is_flag=True, help="Print the revoked token as JSON.")
def revoke(token_id: str, as_json: bool) -> None:
    """Revoke the token ID (the id `token list` shows): it stops working at once."""
    with opened_store() as store:
        revoked = store.revoke_token(token_id)
    if as_json:
        print_json({"token": token_json(revoked)})
        return
    console.print(f"revoked token {revoked.id} of {revoked.user}")


@token.command("list")
@click.option("--user", "user_id", help="Only this user's tokens.")
@click.option("--json", "as_json", is_flag=True, help="Print the tokens as JSON.")
def list_tokens(user_id: str | None, as_json: bool) -> None:
    """The accounts' API tokens (never their secrets)."""
    with opened_store() as store:
        found = store.list_tokens(user_id)
    if as_json:
        print_json({"tokens": [token_json(t) for t in found]})
        return
    table = Table("id", "user", "label", "created", "revoked", box=None)
    for t in found:
        table.add_row(t.id, t.user, t.label, t.created[:16], "yes" if t.revoked else "")
    console.print(table)
