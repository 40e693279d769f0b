"""Printing for the CLI: rich for people (stderr for progress), stable JSON for scripts."""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

from rich.console import Console
from rich.markup import escape

from askalong.wire import block_json, chunk_json, document_json

__all__ = [
    "block_json",
    "chunk_json",
    "console",
    "document_json",
    "err_console",
    "fail",
    "print_json",
    "shorten",
]

console = Console(highlight=False, soft_wrap=True)
err_console = Console(stderr=True, highlight=False, soft_wrap=True)


def fail(message: str) -> NoReturn:
    err_console.print(f"[bold red]error:[/] {escape(message)}")
    sys.exit(1)


def print_json(value: Any) -> None:
    sys.stdout.write(json.dumps(value, ensure_ascii=False, indent=2) + "\n")


def shorten(text: str, width: int) -> str:
    """One line of at most ``width`` characters, escaped: document text is never markup."""
    flat = " ".join(text.split())
    return escape(flat if len(flat) <= width else flat[: width - 1] + "…")
