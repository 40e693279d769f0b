"""The account commands: ``user add/list/disable/password`` and ``org add/list/member``.

They change the store of this ASKALONG_HOME directly (whoever can run them owns the
install). Creating the first user makes ``askalong serve`` multi-user: every request then
needs a session or a token (``askalong token create USER``).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import cast

import click
from rich.table import Table

from askalong.cli.documents import json_option
from askalong.cli.output import console, print_json
from askalong.config import load_settings
from askalong.store.backends import open_store
from askalong.store.base import Store
from askalong.values.accounts import ROLES, Role
from askalong.wire import membership_json, org_json, user_json


@contextmanager
def opened_store() -> Iterator[Store]:
    """The store alone: account commands need no search index."""
    with open_store(load_settings()) as store:
        yield store


@click.group()
def user() -> None:
    """Accounts of a multi-user server: add, list, disable, password."""


password_stdin_option = click.option(
    "--password-stdin", is_flag=True, help="Read the password from standard input (scripts)."
)


def read_password(from_stdin: bool) -> str:
    """From standard input (scripts) or prompted for twice, never an argument (``ps``)."""
    if from_stdin:
        return sys.stdin.readline().rstrip("\n")
    return str(click.prompt("Password", hide_input=True, confirmation_prompt=True))


@user.command("add")
@click.argument("name")
@password_stdin_option
@click.option(
    "--admin",
    is_flag=True,
    default=None,
    help="Make the user a site administrator (the /admin page); the first user always is.",
)
@json_option
def user_add(name: str, password_stdin: bool, admin: bool | None, as_json: bool) -> None:
    """Add a user NAME; the password is asked for (never an argument: it would show in ps)."""
    password = read_password(password_stdin)
    with opened_store() as store:
        made = store.add_user(name, password, admin=admin)
    if as_json:
        print_json({"user": user_json(made)})
        return
    console.print(f"added user {made.id}")


@user.command("list")
@json_option
def user_list(as_json: bool) -> None:
    """The users, with their orgs."""
    with opened_store() as store:
        users, members = store.list_users(), store.memberships()
    if as_json:
        print_json({"users": [user_json(u) for u in users]})
        return
    table = Table("user", "orgs", "admin", "disabled", "created", box=None)
    for u in users:
        orgs = ", ".join(f"{m.org} ({m.role})" for m in members if m.user == u.id)
        created = u.created[:16].replace("T", " ")
        table.add_row(u.id, orgs, "yes" if u.admin else "", "yes" if u.disabled else "", created)
    console.print(table)


@user.command("disable")
@click.argument("name")
@click.option("--enable", is_flag=True, help="Enable the user again instead.")
@json_option
def user_disable(name: str, enable: bool, as_json: bool) -> None:
    """Disable a user: their sessions and tokens stop working at once."""
    with opened_store() as store:
        changed = store.set_disabled(name, not enable)
    if as_json:
        print_json({"user": user_json(changed)})
        return
    console.print(f"{'enabled' if enable else 'disabled'} user {changed.id}")


@user.command("password")
@click.argument("name")
@password_stdin_option
@json_option
def user_password(name: str, password_stdin: bool, as_json: bool) -> None:
    """Set a user's password: every session of theirs ends (their API tokens stay)."""
    password = read_password(password_stdin)
    with opened_store() as store:
        changed = store.set_password(name, password)
    if as_json:
        print_json({"user": user_json(changed)})
        return
    console.print(f"new password for {changed.id}; their sessions have ended")


@click.group()
def org() -> None:
    """Organisations (a tree) and their members: add, list, member.

    A member of an org sees the org-visible documents of that org and of every org above
    it; an admin may change the visibility of the documents of their org and those below.
    """


@org.command("add")
@click.argument("name")
@click.option("--parent", help="The org it belongs under (default: a top-level org).")
@json_option
def org_add(name: str, parent: str | None, as_json: bool) -> None:
    """Add an organisation NAME."""
    with opened_store() as store:
        made = store.add_org(name, parent)
    if as_json:
        print_json({"org": org_json(made)})
        return
    console.print(f"added org {made.id}" + (f" under {parent}" if parent else ""))


@org.command("list")
@json_option
def org_list(as_json: bool) -> None:
    """The organisations, each with its parent and members."""
    with opened_store() as store:
        orgs, members = store.list_orgs(), store.memberships()
    if as_json:
        print_json(
            {
                "orgs": [org_json(o) for o in orgs],
                "memberships": [membership_json(m) for m in members],
            }
        )
        return
    table = Table("org", "parent", "members", box=None)
    for o in orgs:
        names = ", ".join(f"{m.user} ({m.role})" for m in members if m.org == o.id)
        table.add_row(o.id, o.parent or "", names)
    console.print(table)


@org.command("member")
@click.argument("org_name", metavar="ORG")
@click.argument("name", metavar="USER")
@click.option("--role", type=click.Choice(ROLES), default="member", show_default=True)
@click.option("--remove", is_flag=True, help="Remove the user from the org instead.")
@json_option
def org_member(org_name: str, name: str, role: str, remove: bool, as_json: bool) -> None:
    """Make USER a member (or admin) of ORG, or remove them with --remove."""
    with opened_store() as store:
        made = store.set_member(org_name, name, None if remove else cast(Role, role))
    if as_json:
        print_json({"membership": None if made is None else membership_json(made)})
        return
    console.print(
        f"removed {name} from {org_name}" if made is None else f"{name} is {role} of {org_name}"
    )
