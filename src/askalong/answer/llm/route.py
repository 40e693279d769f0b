"""Model routing: which of the two configured chat models answers a question.

The light model is quick and cheap, the strong one reasons better. Only one kind of
question is easy enough for the light model: *Explain* on a short selection, with no
cross-section references and no long thread behind it. Everything else, and everything
when no light model is configured, goes to the strong model. ``decide_route`` also says
why, so the route taken can be recorded with its reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from askalong.answer.base import DraftRequest

Route = Literal["light", "strong"]

DEEP_FOLLOW_UP = 2  # earlier turns from which a follow-up counts as deep


@dataclass(frozen=True)
class RouteDecision:
    route: Route
    reason: str


def decide_route(request: DraftRequest, *, has_light: bool = True) -> RouteDecision:
    """The route for ``request`` and the reason for it (the first rule that applies)."""
    if not has_light:
        return RouteDecision("strong", "no light model is configured")
    strong = _strong_reason(request)
    if strong is not None:
        return RouteDecision("strong", strong)
    if request.intent == "explain" and _has_selection(request):
        return RouteDecision("light", "Explain on a short selection")
    return RouteDecision("strong", "the default route")


def _strong_reason(request: DraftRequest) -> str | None:
    if request.intent == "compare":
        return "Compare"
    if request.cross_section:
        return "cross-section references"
    if request.long_selection:
        return "a long selection"
    if len(request.history) >= DEEP_FOLLOW_UP:
        return f"a follow-up after {len(request.history)} turns"
    return None


def _has_selection(request: DraftRequest) -> bool:
    """Whether the question is about a selected passage (the anchor comes first)."""
    return bool(request.units) and request.units[0].origin == "anchor"
