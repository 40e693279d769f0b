"""The asker's own feedback as guidance about the form of later answers.

The latest ``GUIDANCE_ENTRIES`` records with a stated reason, newest first, each only the
asker's and only what the asker gave by hand (the thumbs, the API, the CLI): a record the
agent's ``submit_feedback`` stored is the model's words, which a planted passage could have
steered, so it is triaged but never reaches a prompt; a thumbs-down without a reason
stays in the store and out of prompts. When two speak to the same aspect of form (length,
detail, language), the newer one wins: the older is left out, so a model never sees both
"shorter" and "longer". The text goes into the system prompt below the evidence rules
(``askalong.answer.guidance`` renders it)."""

from __future__ import annotations

from askalong.store.feedback import FeedbackStore
from askalong.types import Access
from askalong.values.feedback import Feedback, FeedbackFilter

GUIDANCE_ENTRIES = 5
# An aspect of form and the words that speak to it (English stems as typed, Chinese).
ASPECTS: dict[str, tuple[str, ...]] = {
    "length": (
        "short",
        "long",
        "brief",
        "concise",
        "verbose",
        "length",
        "简短",
        "太长",
        "更短",
        "长一点",
        "简洁",
        "啰嗦",
    ),
    "detail": ("detail", "example", "step", "elaborat", "shallow", "详细", "细节", "例子", "步骤"),
    "language": ("english", "chinese", "language", "中文", "英文", "语言"),
}


def aspects(reason: str) -> frozenset[str]:
    lowered = reason.lower()
    return frozenset(a for a, cues in ASPECTS.items() if any(c in lowered for c in cues))


def guidance_entries(store: FeedbackStore, user: str) -> tuple[str, ...]:
    """The asker's reasons to show the model, newest first (see the module)."""
    mine = Access(user=user)  # never ``everything``: another asker's feedback stays out
    found = store.list_feedback(
        mine, FeedbackFilter(with_reason=True, by_hand=True, limit=GUIDANCE_ENTRIES)
    )
    return newest_wins(found)


def newest_wins(records: list[Feedback]) -> tuple[str, ...]:
    """Reasons newest first, without an older one whose aspects a newer one already set."""
    kept: list[str] = []
    taken: set[str] = set()
    for record in records:
        said = aspects(record.reason)
        if said and said <= taken:
            continue
        taken |= said
        kept.append(record.reason)
    return tuple(kept)
