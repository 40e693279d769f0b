"""Model routing: the light model only for Explain on a short selection."""

from __future__ import annotations

from dataclasses import replace

import pytest

from askalong.answer.base import DraftRequest, HistoryTurn
from askalong.answer.llm.route import decide_route
from askalong.context.units import ContextUnit, Origin
from askalong.question.reading import read_question
from askalong.types import BlockSpan

SELECTED = "A quarterback is the player who directs the offence and usually throws the ball."


def request(intent: str = "explain", origin: Origin = "anchor", **changes: object) -> DraftRequest:
    spans = (BlockSpan("b1", 0, len(SELECTED)),)
    unit = ContextUnit("doc", (), SELECTED, spans, spans, ("Positions",), None, None, origin, None)
    base = DraftRequest(read_question("Explain this."), "explain", (unit,))
    return replace(base, intent=intent, **changes)  # type: ignore[arg-type]


TURN = HistoryTurn("What is a quarterback?", "The player who directs the offence.")


@pytest.mark.parametrize(
    ("built", "route", "reason"),
    [
        (request(), "light", "Explain on a short selection"),
        (request(history=(TURN,)), "light", "Explain on a short selection"),
        (request("compare"), "strong", "Compare"),
        (request(cross_section=True), "strong", "cross-section references"),
        (request(long_selection=True), "strong", "a long selection"),
        (request(history=(TURN, TURN)), "strong", "a follow-up after 2 turns"),
        (request("ask"), "strong", "the default route"),
        (request("example"), "strong", "the default route"),
        (request(origin="retrieved"), "strong", "the default route"),  # no selection
        (request(units=()), "strong", "the default route"),
    ],
)
def test_route_rules(built: DraftRequest, route: str, reason: str) -> None:
    decision = decide_route(built)
    assert (decision.route, decision.reason) == (route, reason)


def test_no_light_model_means_strong() -> None:
    assert decide_route(request(), has_light=False).route == "strong"
    assert decide_route(request(), has_light=False).reason == "no light model is configured"


def test_strong_reasons_outrank_explain() -> None:
    built = request(cross_section=True, long_selection=True, history=(TURN, TURN))
    assert decide_route(built).reason == "cross-section references"
