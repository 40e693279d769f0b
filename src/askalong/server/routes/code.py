"""Reading code in the reader: a source file's code view (its symbols, and each block's
syntax-highlighting spans from Pygments), and per symbol the calls it makes that resolve
in its repository ("go to definition") and the places that call it ("find callers").

Every route reads the document as the caller may see it (404 otherwise), and the
repository only through the collections and members the caller may see
(``asking/code_reading.py``), so a caller or callee in a document hidden from the caller
is never named.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from fastapi import Path as FastPath
from starlette.concurrency import run_in_threadpool

from askalong.asking.code_reading import anchor_place, repository_of
from askalong.asking.limits import MAX_ID_CHARS
from askalong.context.code_graph import Repository
from askalong.context.code_identifiers import IDENTIFIER, definitions, references
from askalong.context.code_places import Place
from askalong.errors import InputError, NotFound
from askalong.parse.code.tokens import block_tokens
from askalong.server.deps import AccessDep, ServerState, StateDep
from askalong.server.routes.documents import ERRORS
from askalong.server.schemas import BlockPath, DocPath
from askalong.types import Access, Block, Document
from askalong.wire import (
    CallJSON,
    CodeViewJSON,
    IdentifierJSON,
    call_json,
    code_view_json,
    identifier_json,
)

router = APIRouter(prefix="/api", tags=["code"])


@router.get("/documents/{doc}/code", response_model=CodeViewJSON, responses=ERRORS)
async def get_code_view(doc: DocPath, state: StateDep, access: AccessDep) -> CodeViewJSON:
    """A source file (format ``code``) for the reader: its symbols (qualified names, in
    reading order, nested by ``qualname``) and each block's highlighting spans
    ``[start, end, kind]`` (code points of the block's text; kinds as in
    ``CODE_TOKEN_KINDS``); the caller's collections holding it (``repositories``, whose file
    tree the reader links). 400 for a document that is not source code."""
    return await run_in_threadpool(_code_view, state, doc, access)


@router.get(
    "/documents/{doc}/symbols/{block}/calls", response_model=list[CallJSON], responses=ERRORS
)
async def get_calls(
    doc: DocPath, block: BlockPath, state: StateDep, access: AccessDep
) -> list[CallJSON]:
    """Go to definition: the calls the symbol at ``block`` makes (a name passed as a
    callback counts) that resolve to a definition in its repository, in call order, each
    with the line it is called on and the definition as a citation."""
    return await run_in_threadpool(_calls, state, doc, block, access)


@router.get(
    "/documents/{doc}/symbols/{block}/callers", response_model=list[CallJSON], responses=ERRORS
)
async def get_callers(
    doc: DocPath, block: BlockPath, state: StateDep, access: AccessDep
) -> list[CallJSON]:
    """Find callers: the functions of the repository that call (or pass) the symbol at
    ``block``, its own file first, each with the line of the call."""
    return await run_in_threadpool(_callers, state, doc, block, access)


@router.get("/documents/{doc}/identifiers/{name}", response_model=IdentifierJSON, responses=ERRORS)
async def get_identifier(
    doc: DocPath,
    name: Annotated[str, FastPath(max_length=100)],
    state: StateDep,
    access: AccessDep,
    block: Annotated[str, Query(min_length=1, max_length=MAX_ID_CHARS)],
    line: Annotated[int, Query(ge=1)],
) -> IdentifierJSON:
    """Go to definition and find references for a name clicked at ``line`` of ``block``:
    its definitions (the call there resolved through the call graph, else the functions,
    classes, constants and fields so named; the clicked file first) and every line of the
    repository naming it, grouped by file with a count each. 400 for a name that is not an
    identifier."""
    return await run_in_threadpool(_identifier, state, doc, block, name, line, access)


def _identifier(
    state: ServerState, ref: str, block_id: str, name: str, line: int, access: Access
) -> IdentifierJSON:
    if IDENTIFIER.fullmatch(name) is None:
        raise InputError(f"{name[:40]!r} is not an identifier", source="name")
    repository, place = _symbol(state, ref, block_id, access)
    found = definitions(repository, name, place, line)
    return identifier_json(name, found, list(references(repository, name)))


def _code_view(state: ServerState, ref: str, access: Access) -> CodeViewJSON:
    document, blocks = _source(state, ref, access)
    tokens = [block_tokens(document.source, block.text) for block in blocks]
    repositories = state.library.store.document_collections(document.id, access)
    return code_view_json(document.id, blocks, tokens, repositories)


def _calls(state: ServerState, ref: str, block_id: str, access: Access) -> list[CallJSON]:
    repository, place = _symbol(state, ref, block_id, access)
    return [call_json(site.line, target) for site, target in repository.callees(place)]


def _callers(state: ServerState, ref: str, block_id: str, access: Access) -> list[CallJSON]:
    repository, place = _symbol(state, ref, block_id, access)
    return [call_json(site.line, caller) for site, caller in repository.callers(place)]


def _source(state: ServerState, ref: str, access: Access) -> tuple[Document, tuple[Block, ...]]:
    store = state.library.store
    document = store.get_document(ref, access)
    if document.format != "code":
        raise InputError(f"a {document.format} document, not source code", source=document.id)
    return document, store.blocks(document.id)


def _symbol(
    state: ServerState, ref: str, block_id: str, access: Access
) -> tuple[Repository, Place]:
    document, blocks = _source(state, ref, access)
    block = next((b for b in blocks if b.id == block_id), None)
    if block is None:
        raise NotFound(f"no block {block_id}", source=document.id)
    repository = repository_of(state.library.store, document, blocks, access)
    return repository, anchor_place(repository, document, block)
