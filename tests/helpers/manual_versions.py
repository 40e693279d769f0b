"""Versions of real PostgreSQL manual text for the contradiction scan's tests: one
parameter's entry of ``runtime-config-wal.html`` as written, with its default changed
(another release's page, say), copied unchanged, and paraphrased with the same values."""

from __future__ import annotations

import html
import re
from pathlib import Path

PAGE = Path("manuals/postgresql-15-html/runtime-config-wal.html")
ENTRIES = ("GUC-FULL-PAGE-WRITES", "GUC-WAL-BUFFERS", "GUC-WAL-WRITER-DELAY")
FULL_PAGE_DEFAULT = (
    'file or on the server command line.\n        The default is <code class="literal">on</code>.'
)
WAL_BUFFERS_MIN = 'than <code class="literal">64kB</code> nor more'
# The same statements reworded, every value kept (what a paraphrase is not: a conflict).
PARAPHRASES = {
    "This parameter can only be set in the": "One may set this parameter solely in the",
    "The amount of shared memory used for WAL data": "How much shared memory is used for WAL data",
}


def entries_html(evaldata: Path, ids: tuple[str, ...] = ENTRIES) -> str:
    """A small HTML document: the page's title and the named parameters' entries."""
    page = (evaldata / PAGE).read_text(encoding="utf-8")
    parts = []
    for entry in ids:
        start = page.index(f'<dt id="{entry}">')
        end = page.index("</dd>", start) + len("</dd>")
        parts.append(page[start:end])
    body = "".join(parts)
    return (
        "<html><head><title>20.5. Write Ahead Log</title></head><body>"
        f"<h1>20.5. Write Ahead Log</h1><dl>{body}</dl></body></html>"
    )


def changed(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def with_defaults_changed(evaldata: Path) -> str:
    """The entries with full_page_writes' default turned off and wal_buffers' floor raised."""
    text = entries_html(evaldata)
    text = changed(text, FULL_PAGE_DEFAULT, FULL_PAGE_DEFAULT.replace(">on<", ">off<"))
    return changed(text, WAL_BUFFERS_MIN, WAL_BUFFERS_MIN.replace("64kB", "128kB"))


def paraphrased(evaldata: Path) -> str:
    text = entries_html(evaldata)
    for old, new in PARAPHRASES.items():
        text = changed(text, old, new)
    return text.replace("<h1>", '<h1 class="copy">')


def plain(markup: str) -> str:
    """The text of an entry as a reader sees it: tags dropped, white space collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", markup)).split())
