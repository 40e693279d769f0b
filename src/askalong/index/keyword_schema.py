"""The keyword route's tantivy schema and the entry one chunk is indexed as.

We tokenise with ``askalong.text.tokens.tokenize`` (rjieba for Chinese, Snowball stems for
English) and hand tantivy the tokens space-joined in a field analysed by its
``whitespace`` tokenizer, so tantivy's BM25 runs over exactly our tokens. Text with
Chinese in it also fills a second field, ``grams`` (``askalong.text.tokens.gram_tokens``:
Han characters and bigrams). The ``section`` field holds the tokens of the chunk's
document title and section path, ``titles`` its exact title keys (what index and glossary
pages point at, ``index/sections.py``), ``role`` marks a document's own index or glossary
pages, whose text is stored in ``pointed`` for their entries; ``access`` holds the
document's access tokens (``types.Access``), what the permission clause matches;
``context`` the tokens and grams of the chunk's description (``chunk/descriptions``), absent
while descriptions are off.

Three numeric fast fields let a search name its hits without reading stored documents
(``index/keyword_ids.py``; ~1.8 us a stored document, ~0.04 us a fast-field value):
``document_number`` (``id_number`` of the document id), ``chunk_order`` (the chunk's
order when its id is the chunkers' ``{document id}:c{order}``, else ``NO_ORDER``) and
``section_number`` (``id_number`` of the section key, what siblings are grouped by).
``SCHEMA_VERSION`` names the schema and the tokens (a field carries it), so bumping it
rebuilds the index where the fields would otherwise match: a change to what a text is
tokenised as bumps it too, since tokens written before would no longer meet a query's.
Chinese is indexed and searched in Simplified characters (``text/simplified.py``), so a
Traditional question meets a Simplified passage and the reverse.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

import tantivy

from askalong.access_tokens import document_tokens
from askalong.index.sections import is_index_page, normal_title, section_text, title_keys
from askalong.text.simplified import simplified
from askalong.text.tokens import gram_tokens, tokenize
from askalong.types import Chunk, Document

CHUNK_ID = "chunk_id"
DOCUMENT_ID = "document_id"
TEXT = "text"
GRAMS = "grams"
ACCESS = "access"  # the document's access tokens (access_tokens.document_tokens)
SECTION = "section"
TITLES = "titles"
SECTION_KEY = "section_key"
ROLE = "role"  # "index" or "glossary" for a document's own index pages
POINTED = "pointed"  # an index page's text, stored (not indexed) for its entries
HEADINGS = "headings"  # each title's tokens, a line each, stored (is one fully asked?)
CONTEXT = "context"  # the description's tokens and grams, searched with the text
DOCUMENT_NUMBER = "document_number"  # fast: id_number(document id)
CHUNK_ORDER = "chunk_order"  # fast: the order in "{document id}:c{order}", or NO_ORDER
SECTION_NUMBER = "section_number"  # fast: id_number(section key)
NO_ORDER = (1 << 64) - 1  # a chunk id of another form: read from the stored document

# 2: section, titles, section key, role, pointed, headings; 3: access; 4: context;
# 5: document number, chunk order, section number (fast fields);
# 6: Traditional Chinese cut as its Simplified image and indexed in Simplified characters
SCHEMA_VERSION = 6
# A "word" this long is a hash or an encoded blob, never something a user searches for;
# dropping it keeps every term far below tantivy's 65,530-byte term limit.
MAX_TOKEN_CHARS = 80


def search_tokens(text: str) -> list[str]:
    """The tokens indexed for (and searched with) ``text``, Chinese in Simplified characters."""
    return [token for token in tokenize(simplified(text)) if len(token) <= MAX_TOKEN_CHARS]


def search_grams(text: str) -> list[str]:
    """The tokens of the ``grams`` field for ``text`` (none without Chinese)."""
    return [token for token in gram_tokens(simplified(text)) if len(token) <= MAX_TOKEN_CHARS]


def build_schema() -> tantivy.Schema:
    builder = tantivy.SchemaBuilder()
    builder.add_text_field(CHUNK_ID, stored=True, tokenizer_name="raw", index_option="basic")
    builder.add_text_field(DOCUMENT_ID, stored=True, tokenizer_name="raw", index_option="basic")
    # "freq" keeps term frequencies for BM25; we never run phrase queries, so no positions.
    builder.add_text_field(TEXT, tokenizer_name="whitespace", index_option="freq")
    builder.add_text_field(GRAMS, tokenizer_name="whitespace", index_option="freq")
    builder.add_text_field(SECTION, tokenizer_name="whitespace", index_option="freq")
    builder.add_text_field(TITLES, tokenizer_name="raw", index_option="basic")
    builder.add_text_field(SECTION_KEY, stored=True, tokenizer_name="raw", index_option="basic")
    builder.add_text_field(ROLE, tokenizer_name="raw", index_option="basic")
    builder.add_bytes_field(POINTED, stored=True)
    builder.add_bytes_field(HEADINGS, stored=True)
    builder.add_text_field(f"schema_v{SCHEMA_VERSION}", tokenizer_name="raw")
    builder.add_text_field(ACCESS, tokenizer_name="raw", index_option="basic")
    builder.add_text_field(CONTEXT, tokenizer_name="whitespace", index_option="freq")
    builder.add_unsigned_field(DOCUMENT_NUMBER, fast=True)
    builder.add_unsigned_field(CHUNK_ORDER, fast=True)
    builder.add_unsigned_field(SECTION_NUMBER, fast=True)
    return builder.build()


def id_number(text: str) -> int:
    """A 64-bit number for an id or key (BLAKE2b): equal texts, equal numbers. Two of
    100k documents share one with odds of ~3e-10, the odds the ids themselves run (64 bits
    of SHA-256, ``ingest/pipeline.document_id``); a shared number among the documents
    listed is named from the stored documents instead (``index/keyword_ids.py``)."""
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "big")


def chunk_order(document_id: str, chunk: Chunk) -> int:
    """The number the chunk's id is rebuilt from (``chunk_id``), or ``NO_ORDER``."""
    if chunk.order >= 0 and chunk.id == chunk_id(document_id, chunk.order):
        return chunk.order
    return NO_ORDER


def chunk_id(document_id: str, order: int) -> str:
    """The chunkers' id of a document's chunk (``chunk/prose.py``, ``chunk/code.py``)."""
    return f"{document_id}:c{order}"


@dataclass(frozen=True)
class IndexedChunk:
    """What one chunk is indexed as, in every keyword route: its tokens per field (the
    ``section`` tokens distinct, ``grams`` and ``context`` empty when absent), its titles'
    tokens a line each, its exact title keys, its section key, its role (``"index"`` or
    ``"glossary"`` for a document's own index pages, else None) and its access tokens."""

    text: list[str]
    grams: list[str]
    context: list[str]
    section: list[str]
    headings: str
    titles: list[str]
    section_key: str
    role: str | None
    access: tuple[str, ...]


def indexed_chunk(document: Document, chunk: Chunk) -> IndexedChunk:
    """The fields of one chunk of ``document`` (the module docstring says what each is)."""
    context = chunk.description or ""
    heading = section_text(document.title, chunk.section_path)
    lines = (" ".join(search_tokens(normal_title(t))) for t in heading.splitlines())
    return IndexedChunk(
        text=search_tokens(chunk.text),
        grams=search_grams(chunk.text),
        context=search_tokens(context) + search_grams(context),
        section=list(dict.fromkeys(search_tokens(heading))),
        headings="\n".join(lines),
        titles=list(title_keys(document.title, chunk.section_path)),
        section_key=f"{document.id}/{len(chunk.section_path)}/{heading}"[:2000],
        role=_role(document.title, chunk.section_path),
        access=document_tokens(document.owner, document.visibility, document.org_tags),
    )


def chunk_entry(document: Document, chunk: Chunk) -> tantivy.Document:
    """The index entry of one chunk of ``document``."""
    indexed = indexed_chunk(document, chunk)
    entry = tantivy.Document()
    entry.add_text(CHUNK_ID, chunk.id)
    entry.add_text(DOCUMENT_ID, document.id)
    entry.add_text(TEXT, " ".join(indexed.text))
    if indexed.grams:
        entry.add_text(GRAMS, " ".join(indexed.grams))
    if indexed.context:
        entry.add_text(CONTEXT, " ".join(indexed.context))
    entry.add_text(SECTION, " ".join(indexed.section))
    entry.add_bytes(HEADINGS, indexed.headings.encode("utf-8"))
    for key in indexed.titles:
        entry.add_text(TITLES, key)
    entry.add_text(SECTION_KEY, indexed.section_key)
    if indexed.role is not None:
        entry.add_text(ROLE, indexed.role)
        entry.add_bytes(POINTED, chunk.text.encode("utf-8"))
    for token in indexed.access:
        entry.add_text(ACCESS, token)
    entry.add_unsigned(DOCUMENT_NUMBER, id_number(document.id))
    entry.add_unsigned(CHUNK_ORDER, chunk_order(document.id, chunk))
    entry.add_unsigned(SECTION_NUMBER, id_number(indexed.section_key))
    return entry


def _role(title: str, section_path: Sequence[str]) -> str | None:
    """ "index" or "glossary" for a chunk of its document's own index pages, else None."""
    if not is_index_page(title, section_path):
        return None
    named = {normal_title(text) for text in (title, *section_path[:1])}
    return "index" if named & {"index", "索引"} else "glossary"
