"""The model path's chat answer: the loop's final reply (``react``) checked after generation
(``agent/reply_checks``) and put in the same ``ChatAnswer`` the offline path gives, with
the rounds, the limits hit and what the checks removed or could not do in its notes.

A reply none of whose sentences holds against its sources is shown as not covered, as
``ask`` shows such a draft (only a model can obey a document); an answer from
``knowledge_stats`` alone cites nothing and stands.
"""

from __future__ import annotations

from askalong.agent.agent_limits import AgentLimits, LimitName
from askalong.agent.citation_scores import BACKING, citation_scores
from askalong.agent.react import ModelRun
from askalong.agent.reply_checks import CheckedAnswer, checked_answer
from askalong.agent.source_registry import SourceRegistry
from askalong.answer.base import NOT_COVERED
from askalong.asking.asker import UNSUPPORTED_DRAFT, Asker
from askalong.question.reading import QuestionReading
from askalong.types import AnswerStatus
from askalong.values.chat_answers import ChatAnswer, ChatPart, ChatTimings

LIMIT_NOTES = {
    "rounds": "stopped at the limit of {rounds} model rounds: answered from what was found",
    "tool_calls": "stopped at the limit of {tool_calls} tool calls: answered from what was found",
    "time": "stopped near the time limit of {seconds:g} s: answered from what was found",
    "repeats": "stopped after the same tool call came three times: answered from what was found",
}
INVENTED_NOTE = (
    "citation numbers no source has were removed ({numbers}); their sentences are marked"
)
JUDGE_SILENT = "the judge gave no verdict in time; the offline checks stand"


def model_chat_answer(
    asker: Asker,
    asked: QuestionReading,
    run: ModelRun,
    registry: SourceRegistry,
    limits: AgentLimits,
) -> ChatAnswer:
    question = asked.text
    checked = checked_answer(
        run.text,
        registry.sources,
        asked,
        embedder=asker.embedder,
        judge=asker.judge,
        judge_seconds=limits.judge_seconds,
    )
    verdicts = {s.number: s.verdict for s in checked.sources}
    answered = _stands(checked, run)
    text = checked.text.strip() if answered else NOT_COVERED[asked.wording]
    status: AnswerStatus = "answered" if answered else "not_covered"
    numbers = tuple(s.number for s in checked.sources)
    notes = _notes(checked, run.limits_hit, limits) + (() if answered else (UNSUPPORTED_DRAFT,))
    return ChatAnswer(
        status=status,
        question=question,
        answer=text,
        parts=(ChatPart(question, status, text, numbers if answered else ()),),
        sources=checked.sources if answered else (),
        claims=checked.claims,
        steps=run.steps,
        scores=citation_scores(checked.claims, verdicts),
        mode="model",
        model=run.model,
        limits_hit=run.limits_hit,
        rounds=run.rounds,
        notes=notes,
        timings=ChatTimings(search_ms=run.tool_seconds * 1000, answer_ms=run.model_seconds * 1000),
    )


def _stands(checked: CheckedAnswer, run: ModelRun) -> bool:
    if any(c.verdict in BACKING for c in checked.claims):
        return True
    counted = any(s.name == "knowledge_stats" and not s.error for s in run.steps)
    cites = any(c.quote_numbers for c in checked.claims)
    return counted and not cites and bool(checked.text.strip())


def _notes(
    checked: CheckedAnswer, hit: tuple[LimitName, ...], limits: AgentLimits
) -> tuple[str, ...]:
    notes = [
        LIMIT_NOTES[name].format(
            rounds=limits.rounds, tool_calls=limits.tool_calls, seconds=limits.seconds
        )
        for name in hit
    ]
    if checked.removed:
        notes.append(INVENTED_NOTE.format(numbers=", ".join(map(str, checked.removed))))
    if checked.judge_pairs and not checked.judged:
        notes.append(JUDGE_SILENT)
    return tuple(notes)
