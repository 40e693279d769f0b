"""Whether the person's own message asks to rate an answer (pure): the one condition under
which the agent is offered, and may run, a tool that writes (``submit_feedback``).

Only the message the person typed is read: never a tool's result, a passage or the model's
reply, so text planted in a document cannot make the agent write. A message rates an
answer when it names feedback outright ("thumbs down", "反馈", "差评"), or speaks of the
answer ("your answer", "that reply", "回答") in words that judge it ("wrong", "too long",
"不对"). A miss costs little: the thumbs in the chat and the feedback API always work.
"""

from __future__ import annotations

# Words that ask to give feedback whatever else the message says.
FEEDBACK_WORDS = (
    "feedback",
    "thumbs",
    "rate this",
    "rate the answer",
    "反馈",
    "差评",
    "好评",
    "点踩",
    "点赞",
)
# Words that name the answer being judged, and the words that judge it.
ANSWER_WORDS = ("answer", "reply", "response", "you said", "回答", "答案", "你说")
JUDGING_WORDS = (
    "wrong",
    "incorrect",
    "inaccurate",
    "mistake",
    "not right",
    "unhelpful",
    "not helpful",
    "useless",
    "missed",
    "missing",
    "too long",
    "too short",
    "too vague",
    "bad",
    "poor",
    "great",
    "good",
    "helpful",
    "不对",
    "错",
    "不准确",
    "没用",
    "没有帮助",
    "太长",
    "太短",
    "不好",
    "很好",
    "有帮助",
    "遗漏",
)


def asks_to_rate(message: str) -> bool:
    """Whether ``message`` (the person's own, as typed) asks to give feedback on an answer."""
    lowered = message.lower()
    if any(word in lowered for word in FEEDBACK_WORDS):
        return True
    names_answer = any(word in lowered for word in ANSWER_WORDS)
    return names_answer and any(word in lowered for word in JUDGING_WORDS)
