"""The serve command: the HTTP API and the web reader on localhost."""

from __future__ import annotations

import threading
import webbrowser

import click
from rich.markup import escape

from askalong.cli.output import console
from askalong.config import load_settings


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--open", "open_browser", is_flag=True, help="Open the reader in a web browser.")
@click.option("--doc", help="Open the reader on this document (its id) rather than the library.")
def serve(host: str, port: int, open_browser: bool, doc: str | None) -> None:
    """Start the reader and the HTTP API (OpenAPI docs at /docs).

    It listens on localhost only unless --host says otherwise; the library is the one
    under ASKALONG_HOME, and 'askalong ask' on that home asks this server while it runs.
    The printed address carries the API token (see 'askalong token'): opening it lets
    the browser in; scripts send the token as a header.
    """
    from askalong.server.app import create_app
    from askalong.server.listen import AnnouncedServer, server_config
    from askalong.server.token import configured_token

    settings = load_settings()
    url = f"http://{_display_host(host)}:{port}/"
    page = f"reader.html?doc={doc}&" if doc else "?"
    entry = f"{url}{page}token={configured_token(settings)}"
    console.print(f"AskAlong reader at [bold]{escape(entry)}[/]")
    console.print("(the HTTP API's docs are at /docs; Ctrl+C stops)")
    if host not in ("127.0.0.1", "localhost", "::1"):
        console.print(
            "[yellow]note:[/] listening beyond this machine; anyone with the token can use it"
            " (other host names: ASKALONG_ALLOWED_HOSTS)"
        )
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(entry,)).start()
    config = server_config(create_app(settings, host=host), host, port)
    AnnouncedServer(config, settings.home).run()


def _display_host(host: str) -> str:
    if host in ("0.0.0.0", "::"):
        return "127.0.0.1"
    return f"[{host}]" if ":" in host else host
