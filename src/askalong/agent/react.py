"""The agent with a language model: a ReAct loop over OpenAI-compatible tool calling.

Each round the model replies, its reply read as a stream (calls accumulated by ``index``,
``providers``); round 1 is forced to ``search_knowledge`` (``tool_choice``; a model that
ignores it gets the question searched for it, so every answer stands on a search). The
reply's calls are run (``acting``) and answered by ``tool_call_id``; a reply without calls
is the answer. A round is not started past a limit (``agent/agent_limits``: rounds, tool
calls, time, a third repeated call); then one final turn without tools, told which limit
was hit, answers from what was found. Tool steps stream as the offline path's events.
"""

from __future__ import annotations

import json
import time
from collections.abc import Generator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from askalong.agent.acting import POOL_WORKERS, Acted, Acting
from askalong.agent.agent_limits import AgentLimits, Budget, LimitName, final_instruction
from askalong.agent.agent_prompts import MAX_QUERY_CHARS, offered_specs, opening_messages
from askalong.agent.stream_events import ChatEvent, ToolCalled, ToolDone
from askalong.agent.tools import KnowledgeTools
from askalong.answer.guidance import guidance_section
from askalong.providers.chat import ChatMessage, ChatModel, ChatReply, Sampling, ToolCall
from askalong.values.chat_answers import ToolStep

FORCED = "search_knowledge"
FORCED_CALL_ID = "askalong_search_1"  # the search made for a model that made none
ROUND_SAMPLING = Sampling(temperature=0.2)


@dataclass(frozen=True)
class ModelRun:
    """The loop's outcome: the final reply's text, the rounds it took (the final turn
    included), the limits hit, the tool steps, the model's own seconds and the tools' (each
    round's calls from the first started to the last finished: parallel ones overlap)."""

    text: str
    model: str
    rounds: int
    limits_hit: tuple[LimitName, ...]
    steps: tuple[ToolStep, ...]
    model_seconds: float
    tool_seconds: float = 0.0


def run_model(
    model: ChatModel,
    tools: KnowledgeTools,
    question: str,
    history: tuple[tuple[str, str], ...],
    limits: AgentLimits,
    guidance: tuple[str, ...] = (),
) -> Generator[ChatEvent, None, ModelRun]:
    """The loop for ``question`` (after the conversation's ``history``; ``guidance``: the
    asker's preferences about form), its tool steps as events; the return value is the
    final reply."""
    preferences = guidance_section(guidance, tools.fence)
    messages = opening_messages(question, history, preferences)
    loop = _Loop(model, tools, limits, messages, question)
    pool = ThreadPoolExecutor(max_workers=POOL_WORKERS, thread_name_prefix="askalong-tools")
    try:
        return (yield from loop.run(Acting(tools, loop.budget, pool)))
    finally:
        pool.shutdown(wait=False, cancel_futures=True)  # a late search is not waited for


class _Loop:
    def __init__(
        self,
        model: ChatModel,
        tools: KnowledgeTools,
        limits: AgentLimits,
        messages: list[ChatMessage],
        question: str,
    ) -> None:
        self.model = model
        self.tools = tools
        self.limits = limits
        self.budget = Budget(limits)
        self.messages = messages
        self.question = question
        self.steps: list[ToolStep] = []
        self.model_seconds = 0.0
        self.tool_seconds = 0.0

    def run(self, acting: Acting) -> Generator[ChatEvent, None, ModelRun]:
        limit: LimitName | None = None
        while (limit := self.budget.blocking()) is None:
            started = time.monotonic()
            reply = self._reply(self._sampling())
            calls = reply.tool_calls or self._forced_calls()
            if not calls:  # the model answered
                self.budget.round_done(time.monotonic() - started)
                return self._run(reply, ())
            self.messages.append(ChatMessage("assistant", reply.text, tool_calls=calls))
            acted = yield from self._acted(acting, calls)
            self.messages.extend(_answers(acted))
            self.budget.round_done(time.monotonic() - started)
            if any(a.stops for a in acted):
                limit = "repeats"
                break
        self.messages.append(ChatMessage("user", final_instruction(limit, self.limits)))
        return self._run(self._reply(ROUND_SAMPLING), (limit,))

    def _sampling(self) -> Sampling:
        choice = FORCED if self.budget.rounds == 0 else "auto"
        tools = offered_specs(self.tools.scope.may_write)
        return Sampling(temperature=0.2, tools=tools, tool_choice=choice)

    def _reply(self, sampling: Sampling) -> ChatReply:
        reply = self.model.complete_streamed(self.messages, sampling)
        self.model_seconds += reply.seconds
        return reply

    def _forced_calls(self) -> tuple[ToolCall, ...]:
        """Round 1 without a call: the question searched on the model's behalf."""
        if self.budget.rounds > 0:
            return ()
        arguments = json.dumps({"query": self.question[:MAX_QUERY_CHARS]}, ensure_ascii=False)
        return (ToolCall(FORCED_CALL_ID, FORCED, arguments),)

    def _acted(
        self, acting: Acting, calls: Sequence[ToolCall]
    ) -> Generator[ChatEvent, None, list[Acted]]:
        parsed = [(c.id, c.name, _arguments(c)) for c in calls]
        for _, name, arguments in parsed:
            shown = arguments if isinstance(arguments, dict) else {}
            yield ToolCalled(name, {k: v for k, v in shown.items() if isinstance(v, str | int)})
        started = time.monotonic()
        acted = acting.run(parsed)
        self.tool_seconds += time.monotonic() - started
        for outcome in acted:
            if outcome.step is not None:
                self.steps.append(outcome.step)
                yield ToolDone(outcome.step)
        return acted

    def _run(self, reply: ChatReply, limits_hit: tuple[LimitName, ...]) -> ModelRun:
        rounds = self.budget.rounds + (1 if limits_hit else 0)  # the final turn is a round too
        steps = tuple(self.steps)
        return ModelRun(
            reply.text,
            reply.model,
            rounds,
            limits_hit,
            steps,
            self.model_seconds,
            self.tool_seconds,
        )


def _answers(acted: Sequence[Acted]) -> list[ChatMessage]:
    """One tool message per call, naming its ``tool_call_id``."""
    return [ChatMessage("tool", a.content, tool_call_id=a.call_id) for a in acted]


def _arguments(call: ToolCall) -> dict[str, object] | str:
    """The call's arguments, or the error reading them (the model is told it)."""
    try:
        return call.parsed()
    except ValueError as exc:
        return f"{call.name}: the arguments are not a JSON object ({exc})"
