"""The stable JSON forms of AskAlong's public values: what `--json` prints, what the HTTP
API returns and what stored threads keep. Fields are added, never renamed or removed
(documented in the README, "JSON output" and "Doctor").

Each form is declared once, as a ``TypedDict`` in the module of its family, next to the one
function that builds it: mypy checks that the function writes exactly the declared keys,
and the HTTP response schemas (``server/schemas.py``, ``/openapi.json``) are the same
classes, read by pydantic (which, on Python 3.11, reads ``typing_extensions.TypedDict``
only). The families: ``documents`` (documents, blocks, chunks, block spans),
``collections``, ``search`` (hits), ``anchors``, ``answers`` (quotes, claims, passages),
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
    RankedHitJSON,
    TimingsJSON,
    answer_from_json,
    answer_json,
    claim_json,
    passage_json,
    quote_json,
    ranked_hit_json,
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
from askalong.wire.feedback import (
    CitationJSON,
    FeedbackJSON,
    JudgedJSON,
    RankedChunkJSON,
    TriageJSON,
    feedback_json,
    judged_from_json,
    judged_json,
    triage_from_json,
    triage_json,
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
    "Box",
    "ChatJSON",
    "ChatPartJSON",
    "ChatSourceJSON",
    "ChatTimingsJSON",
    "ChunkJSON",
    "ChunkSpan",
    "CitationJSON",
    "ClaimJSON",
    "CollectionJSON",
    "DoctorJSON",
    "DocumentJSON",
    "FeedbackJSON",
    "FindingJSON",
    "HitJSON",
    "JobJSON",
    "JudgedJSON",
    "MembershipJSON",
    "OrgJSON",
    "PassageJSON",
    "PlacedAnchorJSON",
    "QuoteJSON",
    "RankedChunkJSON",
    "RankedHitJSON",
    "RepairJSON",
    "SearchJSON",
    "SpanJSON",
    "ThreadJSON",
    "ThreadSummaryJSON",
    "TimingsJSON",
    "TokenJSON",
    "ToolStepJSON",
    "TriageJSON",
    "TurnJSON",
    "UserJSON",
    "anchor_from_json",
    "anchor_json",
    "answer_from_json",
    "answer_json",
    "block_json",
    "chat_json",
    "chat_part_json",
    "chat_source_json",
    "chunk_json",
    "claim_json",
    "collection_json",
    "doctor_json",
    "document_json",
    "feedback_json",
    "finding_json",
    "hit_json",
    "job_json",
    "judged_from_json",
    "judged_json",
    "membership_json",
    "org_json",
    "passage_json",
    "placed_anchor_json",
    "quote_json",
    "ranked_hit_json",
    "search_json",
    "span_json",
    "thread_json",
    "thread_summary_json",
    "timings_json",
    "token_json",
    "tool_step_json",
    "triage_from_json",
    "triage_json",
    "turn_json",
    "user_json",
]
