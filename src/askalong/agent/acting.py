"""The acting step of the ReAct loop: one model reply's tool calls run, each answered by a
tool message with its own ``tool_call_id`` (cancelled and failed ones too).

A call is first sorted: arguments that are not a JSON object or not the tool's fail; a
repeat of an earlier call (same name, same canonical arguments) is answered from the first
result, and the third ends the loop (``agent/tool_calls.RepeatGuard``); a call beyond the
tool-call limit, or after the time is up, is cancelled. The read-only calls' work (the
retrieval, the counts) runs in parallel in a bounded pool; then, in call order, each call
is finished: its passages numbered (so the numbers never depend on which search finished
first), a summary written, feedback stored (the one call that writes, so never in the pool).
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import cast

from askalong.agent.agent_limits import Budget
from askalong.agent.tool_calls import RepeatGuard, canonical
from askalong.agent.tools import (
    READ_ONLY,
    TOOL_ARGUMENTS,
    TOP_K_DEFAULT,
    KnowledgeTools,
    Retrieved,
    ToolOutput,
    checked_arguments,
    checked_top_k,
)
from askalong.errors import InputError
from askalong.values.chat_answers import ToolName, ToolStep

POOL_WORKERS = 4  # parallel tool calls of one answer


@dataclass(frozen=True)
class Acted:
    """A call's outcome: the tool message's text, its step (a call of a known tool), and
    whether it ends the loop (a third repeat)."""

    call_id: str
    content: str
    step: ToolStep | None = None
    stops: bool = False


@dataclass
class _Call:
    id: str
    name: str
    arguments: dict[str, object]
    key: str = ""
    outcome: Acted | None = None  # known before running (failed, cancelled, a repeat)
    repeat_of: str = ""
    prepared: Future[object] | None = field(default=None, repr=False)


class Acting:
    """The calls of one answer: its repeat guard and first results, its pool."""

    def __init__(self, tools: KnowledgeTools, budget: Budget, pool: ThreadPoolExecutor) -> None:
        self.tools = tools
        self.budget = budget
        self.pool = pool
        self.guard = RepeatGuard()
        self.first: dict[str, str] = {}  # canonical call -> its first result's text

    def run(self, calls: Sequence[tuple[str, str, dict[str, object] | str]]) -> list[Acted]:
        """``calls``: (id, name, arguments parsed, or the error parsing them gave)."""
        sorted_ = [self._sorted(*call) for call in calls]
        for call in sorted_:
            if call.outcome is None and not call.repeat_of and call.name in READ_ONLY:
                call.prepared = self.pool.submit(self._prepare, call)
        waiting = [c.prepared for c in sorted_ if c.prepared is not None]
        wait(waiting, timeout=max(self.budget.remaining(), 0.0))
        return [self._finished(call) for call in sorted_]

    def _sorted(self, call_id: str, name: str, arguments: dict[str, object] | str) -> _Call:
        if isinstance(arguments, str):
            return _Call(call_id, name, {}, outcome=_failed(call_id, name, {}, arguments))
        call = _Call(call_id, name, arguments, canonical(name, arguments))
        try:
            checked_arguments(name, arguments)
        except InputError as exc:
            call.outcome = _failed(call_id, name, arguments, str(exc))
            return call
        seen = self.guard.seen(name, arguments)
        if seen == "stop":
            text = "this call was made three times already: no more tools are called"
            call.outcome = Acted(call_id, text, _step(name, arguments, "repeated"), stops=True)
        elif seen == "repeat":
            call.repeat_of = call.key
        elif self.budget.remaining() <= 0:
            call.outcome = _cancelled(call_id, name, arguments, "the time limit was reached")
        elif not self.budget.take_call():
            limit = self.budget.limits.tool_calls
            reason = f"the limit of {limit} tool calls was reached"
            call.outcome = _cancelled(call_id, name, arguments, reason)
        return call

    def _prepare(self, call: _Call) -> object:
        """The part of a read-only call that may run beside others: nothing is numbered."""
        args = call.arguments
        if call.name == "search_knowledge":
            return self.tools.retrieve(args.get("query"), args.get("top_k", TOP_K_DEFAULT))
        if call.name == "generate_summary":
            return self.tools.retrieve(args.get("topic"), TOP_K_DEFAULT)
        return self.tools.knowledge_stats()

    def _finished(self, call: _Call) -> Acted:
        if call.outcome is not None:
            return call.outcome
        if call.repeat_of:
            text = self.first.get(call.repeat_of, "the first identical call gave no result")
            return Acted(call.id, text, _step(call.name, call.arguments, "repeated: first result"))
        if call.prepared is not None and not call.prepared.done():
            call.prepared.cancel()
            return _cancelled(call.id, call.name, call.arguments, "the time limit was reached")
        try:
            output = self._output(call)
        except Exception as exc:  # a failing tool is reported to the model, not raised
            return _failed(call.id, call.name, call.arguments, f"{type(exc).__name__}: {exc}")
        self.first.setdefault(call.key, output.content)
        return Acted(call.id, output.content, output.step)

    def _output(self, call: _Call) -> ToolOutput:
        prepared = call.prepared.result() if call.prepared is not None else None
        if call.name == "search_knowledge":
            assert isinstance(prepared, Retrieved)
            top_k = checked_top_k(call.arguments.get("top_k", TOP_K_DEFAULT))
            return self.tools.numbered(prepared, top_k)
        if call.name == "generate_summary":
            assert isinstance(prepared, Retrieved)
            return self.tools.summarised(prepared)
        if isinstance(prepared, ToolOutput):
            return prepared
        return self.tools.call(call.name, call.arguments)


def _step(name: str, arguments: dict[str, object], summary: str, error: str = "") -> ToolStep:
    shown = {k: v for k, v in arguments.items() if isinstance(v, str | int)}
    return ToolStep(cast(ToolName, name), shown, summary, error=error)  # a known tool's


def _failed(call_id: str, name: str, arguments: dict[str, object], error: str) -> Acted:
    step = _step(name, arguments, "failed", error) if name in TOOL_ARGUMENTS else None
    return Acted(call_id, f"error: {error}", step)


def _cancelled(call_id: str, name: str, arguments: dict[str, object], reason: str) -> Acted:
    return Acted(call_id, f"cancelled: {reason}", _step(name, arguments, "cancelled", reason))
