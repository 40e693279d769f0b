"""Which questions asked at code are call-path questions (answered from the call tree)."""

from __future__ import annotations

import pytest

from askalong.context.code_question import is_call_path_question

CALL_PATHS = [
    "Which paths does this trigger?",
    "which key paths does this trigger",
    "What does this call?",
    "What functions does it call?",
    "Show me the call tree",
    "what is the call chain from here?",
    "这段代码调用了哪些函数？",
    "会触发哪些路径？",
    "调用链是什么",
]
OTHERS = [
    "How does this guarantee mutual exclusion?",
    "Why is a lock taken here?",
    "What does this function return?",
    "Who calls this?",  # callers, not what it calls
    "这个函数返回什么？",
    "What is a callback?",
]


@pytest.mark.parametrize("text", CALL_PATHS)
def test_call_path_questions(text: str) -> None:
    assert is_call_path_question(text)


@pytest.mark.parametrize("text", OTHERS)
def test_other_questions(text: str) -> None:
    assert not is_call_path_question(text)
