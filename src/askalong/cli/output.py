"""Printing for the CLI: rich for people (stderr for progress), stable JSON for scripts."""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

from rich.console import Console
from rich.markup import escape

from askalong.types import Block, Chunk, Document

console = Console(highlight=False, soft_wrap=True)
err_console = Console(stderr=True, highlight=False, soft_wrap=True)


def fail(message: str) -> NoReturn:
    err_console.print(f"[bold red]error:[/] {escape(message)}")
    sys.exit(1)


def print_json(value: Any) -> None:
    sys.stdout.write(json.dumps(value, ensure_ascii=False, indent=2) + "\n")


# The JSON shapes below are a documented contract (README, "JSON output"): add fields,
# never rename or remove them.


def document_json(doc: Document) -> dict[str, Any]:
    return {
        "id": doc.id,
        "title": doc.title,
        "source": doc.source,
        "format": doc.format,
        "language": doc.language,
        "pages": doc.page_count,
        "size_bytes": doc.size_bytes,
        "created": doc.created,
        "owner": doc.owner,
        "visibility": doc.visibility,
        "org_tags": list(doc.org_tags),
        "ocr_pages": list(doc.ocr_pages),
        "notices": list(doc.notices),
    }


def block_json(block: Block) -> dict[str, Any]:
    return {
        "id": block.id,
        "kind": block.kind,
        "order": block.order,
        "page": block.page,
        "section_path": list(block.section_path),
        "heading_level": block.heading_level,
        "text": block.text,
        "boxes": [[b.x0, b.top, b.x1, b.bottom, b.start, b.end] for b in block.boxes],
        "lines": list(block.lines) if block.lines else None,
    }


def chunk_json(chunk: Chunk) -> dict[str, Any]:
    return {
        "id": chunk.id,
        "order": chunk.order,
        "text": chunk.text,
        "section_path": list(chunk.section_path),
        "page_start": chunk.page_start,
        "page_end": chunk.page_end,
        "spans": [[s.block_id, s.start, s.end] for s in chunk.spans],
    }


def shorten(text: str, width: int) -> str:
    """One line of at most ``width`` characters, escaped: document text is never markup."""
    flat = " ".join(text.split())
    return escape(flat if len(flat) <= width else flat[: width - 1] + "…")
