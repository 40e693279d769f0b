"""What a question asks of code (``question/code_asks``), in one place: what it asks of the
graph (callers, usage, callees, definition), what it names, and its call-path questions
(answered from the call tree)."""

from __future__ import annotations

import pytest

from askalong.question.code_asks import CodeQuestion, named_identifiers, read_code_question

READ = [
    ("What calls _wake_up_first?", CodeQuestion("callers", "_wake_up_first")),
    ("Who calls Lock.acquire()?", CodeQuestion("callers", "acquire", "Lock")),
    ("Where is submit used?", CodeQuestion("usage", "submit")),
    (
        "What does ThreadPoolExecutor.submit call?",
        CodeQuestion("callees", "submit", "ThreadPoolExecutor"),
    ),
    ("Where is Semaphore defined?", CodeQuestion("definition", "Semaphore")),
    (
        "Where is Text::Diff::diff defined?",  # Perl's (and Rust's) ``::``
        CodeQuestion("definition", "diff", "Text.Diff"),
    ),
    ("what calls Map:get", CodeQuestion("callers", "get", "Map")),  # Lua's ``:``
    ("What calls _range: anything?", CodeQuestion("callers", "_range")),
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
    read = read_code_question(text)
    assert (read.ask, read.name, read.qualifier) == (
        expected.ask,
        expected.name,
        expected.qualifier,
    )


def test_named_identifiers_by_shape_not_prose_words() -> None:
    text = "Why does `Go` call notifyWaiters and os.path.join() but not the function here?"
    assert named_identifiers(text) == ("Go", "notifyWaiters", "os.path.join")
    assert read_code_question(text).identifiers == ("Go", "notifyWaiters", "os.path.join")


def test_a_plain_word_naming_a_definition() -> None:
    asked = read_code_question("how does parse reject a long version?")
    assert asked.defined_word({"parse", "version"}) == "parse"
    assert read_code_question("What does this function return?").defined_word({"function"}) == ""


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
    assert read_code_question(text).ask == "callees"


@pytest.mark.parametrize("text", OTHERS)
def test_other_questions(text: str) -> None:
    assert read_code_question(text).ask != "callees"
