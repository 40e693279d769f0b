"""The stable JSON forms of AskAlong's public values: what `--json` prints, what the HTTP
API returns and what stored threads keep. Fields are added, never renamed or removed
(documented in the README, "JSON output" and "Doctor").

Each form is declared once, as a ``TypedDict`` in the module of its family, next to the one
function that builds it: mypy checks that the function writes exactly the declared keys,
and the HTTP response schemas (``server/schemas.py``, ``/openapi.json``) are the same
classes, read by pydantic (which, on Python 3.11, reads ``typing_extensions.TypedDict``
only). The families: ``documents`` (documents, blocks, chunks, block spans),
``code`` (symbols, places, calls, the code view), ``collections``, ``search`` (hits),
``anchors``, ``answers`` (quotes, claims, passages),
``threads``, ``chat`` (the agent's answers), ``accounts`` (users, orgs, memberships,
tokens) and ``doctor`` (what ``askalong doctor --json`` found and repaired).

This package is the one import path for them (``from askalong.wire import answer_json``),
so unlike other packages its ``__init__`` names them: the modules import only values and
one another, never a store, an index or an edge.
"""

from askalong.wire.accounts import (
    MembershipJSON,
    OrgJSON,
    TokenJSON,
    UserJSON,
    membership_json,
    org_json,
    token_json,
    user_json,
)
from askalong.wire.anchors import (
    AnchorJSON,
    PlacedAnchorJSON,
    anchor_from_json,
    anchor_json,
    placed_anchor_json,
)
from askalong.wire.answers import (
    AnswerJSON,
    ClaimJSON,
    PassageJSON,
    QuoteJSON,
    TimingsJSON,
    answer_from_json,
    answer_json,
    claim_json,
    passage_json,
    quote_json,
    timings_json,
)
from askalong.wire.chat import (
    ChatJSON,
    ChatPartJSON,
    ChatSourceJSON,
    ChatTimingsJSON,
    ToolStepJSON,
    chat_json,
    chat_part_json,
    chat_source_json,
    tool_step_json,
)
from askalong.wire.code import (
    BlockTokensJSON,
    CallJSON,
    CallNodeJSON,
    CodeViewJSON,
    PlaceJSON,
    SymbolJSON,
    call_json,
    call_node_json,
    code_view_json,
    place_json,
    symbols_json,
)
from askalong.wire.collections import CollectionJSON, collection_json
from askalong.wire.doctor import DoctorJSON, FindingJSON, RepairJSON, doctor_json, finding_json
from askalong.wire.documents import (
    BlockJSON,
    Box,
    ChunkJSON,
    ChunkSpan,
    DocumentJSON,
    SpanJSON,
    block_json,
    chunk_json,
    document_json,
    span_json,
)
from askalong.wire.jobs import JobJSON, job_json
from askalong.wire.search import HitJSON, SearchJSON, hit_json, search_json
from askalong.wire.threads import (
    ThreadJSON,
    ThreadSummaryJSON,
    TurnJSON,
    thread_json,
    thread_summary_json,
    turn_json,
)

__all__ = [
    "AnchorJSON",
    "AnswerJSON",
    "BlockJSON",
    "BlockTokensJSON",
    "Box",
    "CallJSON",
    "CallNodeJSON",
    "ChatJSON",
    "ChatPartJSON",
    "ChatSourceJSON",
    "ChatTimingsJSON",
    "ChunkJSON",
    "ChunkSpan",
    "ClaimJSON",
    "CodeViewJSON",
    "CollectionJSON",
    "DoctorJSON",
    "DocumentJSON",
    "FindingJSON",
    "HitJSON",
    "JobJSON",
    "MembershipJSON",
    "OrgJSON",
    "PassageJSON",
    "PlaceJSON",
    "PlacedAnchorJSON",
    "QuoteJSON",
    "RepairJSON",
    "SearchJSON",
    "SpanJSON",
    "SymbolJSON",
    "ThreadJSON",
    "ThreadSummaryJSON",
    "TimingsJSON",
    "TokenJSON",
    "ToolStepJSON",
    "TurnJSON",
    "UserJSON",
    "anchor_from_json",
    "anchor_json",
    "answer_from_json",
    "answer_json",
    "block_json",
    "call_json",
    "call_node_json",
    "chat_json",
    "chat_part_json",
    "chat_source_json",
    "chunk_json",
    "claim_json",
    "code_view_json",
    "collection_json",
    "doctor_json",
    "document_json",
    "finding_json",
    "hit_json",
    "job_json",
    "membership_json",
    "org_json",
    "passage_json",
    "place_json",
    "placed_anchor_json",
    "quote_json",
    "search_json",
    "span_json",
    "symbols_json",
    "thread_json",
    "thread_summary_json",
    "timings_json",
    "token_json",
    "tool_step_json",
    "turn_json",
    "user_json",
]
