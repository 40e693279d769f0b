"""Reading a code question, in one place: what it asks of the graph and what it names."""

from __future__ import annotations

import pytest

from askalong.context.code_question import CodeQuestion, named_identifiers, read_code_question

READ = [
    ("What calls _wake_up_first?", CodeQuestion("callers", "_wake_up_first")),
    ("Who calls Lock.acquire()?", CodeQuestion("callers", "acquire", "Lock")),
    ("Where is submit used?", CodeQuestion("usage", "submit")),
    (
        "What does ThreadPoolExecutor.submit call?",
        CodeQuestion("callees", "submit", "ThreadPoolExecutor"),
    ),
    ("Where is Semaphore defined?", CodeQuestion("definition", "Semaphore")),
    ("谁调用了acquire", CodeQuestion("callers", "acquire")),
    ("acquire在哪里被调用？", CodeQuestion("callers", "acquire")),
    ("release调用了什么？", CodeQuestion("callees", "release")),
    ("Weighted在哪里定义？", CodeQuestion("definition", "Weighted")),
    ("哪里定义了Acquire", CodeQuestion("definition", "Acquire")),
    ("What calls this?", CodeQuestion("callers")),
    ("Where is this function defined?", CodeQuestion("definition")),
    ("这个函数在哪里被调用？", CodeQuestion("callers")),
    ("How does this guarantee mutual exclusion?", CodeQuestion("about")),
    ("Why does _release_waiters loop?", CodeQuestion("about", "_release_waiters")),
]


@pytest.mark.parametrize(("text", "expected"), READ)
def test_read_code_question(text: str, expected: CodeQuestion) -> None:
    assert read_code_question(text) == expected


def test_named_identifiers_by_shape_not_prose_words() -> None:
    text = "Why does `Go` call notifyWaiters and os.path.join() but not the function here?"
    assert named_identifiers(text) == ("Go", "notifyWaiters", "os.path.join")
