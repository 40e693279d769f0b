"""The serve command: the HTTP API and the web reader on localhost."""

from __future__ import annotations

import threading
import webbrowser

import click

from askalong.cli.output import console
from askalong.config import load_settings


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--open", "open_browser", is_flag=True, help="Open the reader in a web browser.")
def serve(host: str, port: int, open_browser: bool) -> None:
    """Start the reader and the HTTP API (OpenAPI docs at /docs).

    It listens on localhost only unless --host says otherwise; the library is the one
    under ASKALONG_HOME.
    """
    import uvicorn

    from askalong.server.app import create_app

    settings = load_settings()
    url = f"http://{_display_host(host)}:{port}/"
    console.print(f"AskAlong reader at [bold]{url}[/]  (API docs: {url}docs; Ctrl+C stops)")
    if host not in ("127.0.0.1", "localhost", "::1"):
        console.print("[yellow]note:[/] listening beyond this machine; there is no login yet")
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    uvicorn.run(create_app(settings), host=host, port=port, log_level="warning")


def _display_host(host: str) -> str:
    if host in ("0.0.0.0", "::"):
        return "127.0.0.1"
    return f"[{host}]" if ":" in host else host
