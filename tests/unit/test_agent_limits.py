"""The agent's limits on one question (pure, a clock of our own): rounds, tool calls, and
a round not started when the time left cannot fit the longest round so far."""

from __future__ import annotations

from askalong.agent.agent_limits import AgentLimits, Budget, final_instruction


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_rounds_and_the_tool_calls_are_counted() -> None:
    budget = Budget(AgentLimits(rounds=2, tool_calls=3), Clock())
    assert budget.blocking() is None
    assert [budget.take_call() for _ in range(4)] == [True, True, True, False]
    assert budget.blocking() == "tool_calls"
    budget = Budget(AgentLimits(rounds=2), Clock())
    budget.round_done(1.0)
    budget.round_done(1.0)
    assert budget.blocking() == "rounds"


def test_a_round_is_not_started_when_the_time_left_cannot_fit_one() -> None:
    clock = Clock()
    budget = Budget(AgentLimits(seconds=10.0), clock)
    clock.now += 4.0
    budget.round_done(4.0)  # the longest round so far: 4 s; 6 s left
    assert budget.blocking() is None
    clock.now += 2.5
    budget.round_done(2.5)  # 3.5 s left: less than the longest round
    assert budget.remaining() == 3.5
    assert budget.blocking() == "time"


def test_the_final_instruction_names_the_limit_and_forbids_tools() -> None:
    limits = AgentLimits(rounds=4, tool_calls=8, seconds=120.0)
    assert final_instruction("rounds", limits).startswith("The limit of 4 model rounds")
    assert "8 tool calls" in final_instruction("tool_calls", limits)
    assert "120 seconds" in final_instruction("time", limits)
    assert "three times" in final_instruction("repeats", limits)
    assert all("No more tools" in final_instruction(n, limits) for n in ("rounds", "time"))
