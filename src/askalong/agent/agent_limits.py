"""The agent's limits on one question (pure): model rounds, tool calls and seconds.

``Budget`` keeps the count: a round is not started once the rounds or the tool calls are
used up, or when the time left cannot fit one (estimated by the longest round so far, a
round being a model reply and its tools); any limit ends the loop with one final turn
without tools whose instruction names the limit (``final_instruction``), so the person
always gets an answer from what was found.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from askalong.settings import Settings

LimitName = Literal["rounds", "tool_calls", "time", "repeats"]


@dataclass(frozen=True)
class AgentLimits:
    rounds: int = 4
    tool_calls: int = 8
    seconds: float = 120.0
    judge_seconds: float = 20.0

    @classmethod
    def of(cls, settings: Settings) -> AgentLimits:
        return cls(
            settings.agent_rounds,
            settings.agent_tool_calls,
            settings.agent_seconds,
            settings.agent_judge_seconds,
        )


class Budget:
    """One question's rounds, calls and clock (``clock``: seconds, monotonic)."""

    def __init__(self, limits: AgentLimits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self._clock = clock
        self._started = clock()
        self._rounds: list[float] = []
        self.calls = 0

    @property
    def rounds(self) -> int:
        return len(self._rounds)

    def remaining(self) -> float:
        return self.limits.seconds - (self._clock() - self._started)

    def round_done(self, seconds: float) -> None:
        self._rounds.append(seconds)

    def estimate(self) -> float:
        """A round's expected seconds: the longest so far (none yet: nothing known)."""
        return max(self._rounds, default=0.0)

    def blocking(self) -> LimitName | None:
        """The limit that keeps the next round from starting, if any."""
        if self.rounds >= self.limits.rounds:
            return "rounds"
        if self.calls >= self.limits.tool_calls:
            return "tool_calls"
        if self.remaining() <= 0 or self.remaining() < self.estimate():
            return "time"
        return None

    def take_call(self) -> bool:
        """One more tool call, if the limit allows it."""
        if self.calls >= self.limits.tool_calls:
            return False
        self.calls += 1
        return True


def final_instruction(limit: LimitName, limits: AgentLimits) -> str:
    """The last turn's instruction: which limit was hit, and to answer without tools."""
    reached = {
        "rounds": f"The limit of {limits.rounds} model rounds is reached.",
        "tool_calls": f"The limit of {limits.tool_calls} tool calls is reached.",
        "time": f"The time limit of {limits.seconds:g} seconds is nearly reached.",
        "repeats": "The same tool call was made three times.",
    }[limit]
    return (
        f"{reached} No more tools can be called. Answer now from the passages found so far, "
        "citing them as before, and say plainly what they do not cover."
    )
