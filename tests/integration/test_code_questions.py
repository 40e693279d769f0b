"""Questions over code answered from code (issues 27, 32): the standard library's asyncio
locks added as a repository, asked through ``askalong ask`` with the real store, keyword
index and tree-sitter. Developer wording ("function", "defined", "mutual exclusion") is
never a reason to refuse; "what calls X" / "where is X defined" are answered from the
call graph, anchored or not, in English and Chinese, each line quoted exactly."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cli_json import run_json
from code_samples import copy_stdlib

from askalong.asking.code_answers import MAX_LINES
from askalong.config import Settings

LOCKS = "asyncio/locks.py"


@pytest.fixture
def repo(settings: Settings, tmp_path: Path) -> Path:
    folder = copy_stdlib(tmp_path / "repo", LOCKS, "asyncio/mixins.py")
    run_json("add", "--no-embed", str(folder))
    return folder


def line_of(folder: Path, text: str, name: str = LOCKS) -> int:
    rows = (folder / name).read_text(encoding="utf-8").splitlines()
    return next(i for i, row in enumerate(rows, 1) if text in row)


def added(tmp_path: Path, name: str, source: str) -> Path:
    """A one-file repository ``name`` holding ``source``, added with the CLI."""
    folder = tmp_path / name.rsplit(".", 1)[0]
    folder.mkdir()
    (folder / name).write_text(source, encoding="utf-8")
    run_json("add", "--no-embed", str(folder))
    return folder


def answered_over(tmp_path: Path, name: str, source: str, question: str) -> dict[str, Any]:
    """``question`` asked of a one-file repository ``name`` holding ``source``, answered."""
    added(tmp_path, name, source)
    answer = run_json("ask", question)
    assert answer["status"] == "answered", answer
    return answer


def quoted(answer: dict[str, Any]) -> list[str]:
    return [q["text"].strip() for q in answer["quotes"]]


@pytest.mark.parametrize(
    "question",
    ["How does this guarantee mutual exclusion?", "Why is this here?", "这里为什么要等待？"],
)
def test_an_anchored_question_is_answered_with_the_selected_lines(
    repo: Path, question: str
) -> None:
    line = line_of(repo, "await fut")
    answer = run_json("ask", "--at", f"{LOCKS}:{line}", question)
    assert answer["status"] == "answered", answer
    # its definition's line, the line governing it, then it
    assert quoted(answer)[:3] == ["async def acquire(self):", "try:", "await fut"]
    assert all(q["verdict"] == "supported" for q in answer["quotes"])


def test_where_is_this_function_defined_quotes_its_definition_line(repo: Path) -> None:
    line = line_of(repo, "await fut")
    answer = run_json("ask", "--at", f"{LOCKS}:{line}", "Where is this function defined?")
    assert answer["status"] == "answered"
    assert quoted(answer) == ["async def acquire(self):"]


@pytest.mark.parametrize(
    "question",
    ["What calls _wake_up_first?", "谁调用了_wake_up_first", "_wake_up_first在哪里被调用？"],
)
def test_what_calls_x_is_answered_from_the_call_graph_without_an_anchor(
    repo: Path, question: str
) -> None:
    answer = run_json("ask", question)
    assert answer["status"] == "answered", answer
    assert quoted(answer) == ["self._wake_up_first()", "self._wake_up_first()"]
    sections = [tuple(q["section_path"]) for q in answer["quotes"]]
    assert sections == [("Lock", "acquire"), ("Lock", "release")]
    for quote in answer["quotes"]:  # line-exact: the quote is one whole line of the file
        source = (repo / LOCKS).read_text(encoding="utf-8").splitlines()
        assert quote["text"] in source


def test_what_calls_x_writes_each_call_line_in_the_answer(
    settings: Settings, tmp_path: Path
) -> None:
    answer = answered_over(tmp_path, "cli.py", CALLER_SOURCE, "who calls run_command")
    assert "ret = run_command(commandline, as_dict)" in answer["answer"]  # its arguments too
    assert "run  cli.py:6" in answer["answer"]


CALLER_SOURCE = """def run_command(command, env):
    return 0


def run(commandline, as_dict):
    ret = run_command(commandline, as_dict)
    return ret
"""


@pytest.mark.parametrize("question", ["Where is Lock.acquire defined?", "Lock.acquire在哪里定义？"])
def test_where_is_x_defined_finds_it_through_the_symbols(repo: Path, question: str) -> None:
    answer = run_json("ask", question)
    assert answer["status"] == "answered"
    assert quoted(answer) == ["async def acquire(self):"]
    assert answer["quotes"][0]["section_path"] == ["Lock", "acquire"]


def test_a_named_identifier_the_code_lacks_is_still_refused(repo: Path) -> None:
    line = line_of(repo, "await fut")
    answer = run_json("ask", "--at", f"{LOCKS}:{line}", "Why does this call _no_such_helper?")
    assert answer["status"] == "not_covered"
    assert "_no_such_helper" in answer["explanation"]


def test_where_is_x_used_lists_the_lines_naming_it_besides_calls(repo: Path) -> None:
    answer = run_json("ask", "Where is _ContextManagerMixin used?")
    assert answer["status"] == "answered"
    assert any(q.startswith("class Lock(_ContextManagerMixin") for q in quoted(answer))


def test_a_question_at_top_level_statements_is_answered_from_their_lines(repo: Path) -> None:
    line = line_of(repo, "__all__ = (")
    answer = run_json("ask", "--at", f"{LOCKS}:{line}", "What does this export?")
    assert answer["status"] == "answered"
    assert quoted(answer)[0].startswith("__all__ = (")


def test_a_plain_word_naming_a_definition_of_a_code_only_base_is_its_subject(
    repo: Path,
) -> None:
    answer = run_json("ask", "How does locked report the state?")
    assert answer["status"] == "answered"
    assert answer["answer"].startswith("From the code of Lock.locked")


def test_a_definition_below_its_comment_quotes_the_definition_line(
    settings: Settings, tmp_path: Path
) -> None:
    folder = tmp_path / "gorepo"
    folder.mkdir()
    lines = ["package p", "", *[f"// line {i} of the comment" for i in range(15)]]
    source = "\n".join([*lines, "func Helper(x int) int {", "\treturn x + 1", "}", ""])
    (folder / "p.go").write_text(source, encoding="utf-8")
    run_json("add", "--no-embed", str(folder))
    answer = run_json("ask", "Where is Helper defined?")
    assert quoted(answer) == ["func Helper(x int) int {"]


RETRY = """package retry

type BackOff interface{ NextBackOff() int }

/*
WithMaxRetries creates a wrapper around another BackOff, which will
return Stop if NextBackOff() has been called too many times
*/
func WithMaxRetries(b BackOff, max uint64) BackOff {
\treturn b
}
"""


@pytest.mark.parametrize(
    "question",
    ["WithMaxRetries 的代码", "WithMaxRetries是做什么的？", "What does WithMaxRetries do?"],
)
def test_lines_are_picked_past_a_comment_opener_and_a_name_ends_where_chinese_begins(
    settings: Settings, tmp_path: Path, question: str
) -> None:
    added(tmp_path, "retry.go", RETRY)
    answer = run_json("ask", question)
    assert answer["status"] == "answered", answer
    lines = quoted(answer)  # a short definition whole, its definition line first
    assert lines[0] == "func WithMaxRetries(b BackOff, max uint64) BackOff {"
    assert "return b" in lines and "/*" not in lines


ENCODER = '''def make_encoder(indent):
    """Build an encoder."""

    def encode_list(items):
        return ",".join(items)

    separator = "," if indent is None else ",\\n"
    return encode_list, separator
'''


@pytest.fixture
def encoder(settings: Settings, tmp_path: Path) -> Path:
    """``enc.py`` (a function with a function nested in it) added as a repository."""
    return added(tmp_path, "enc.py", ENCODER)


def test_a_function_split_around_a_nested_one_is_read_whole(encoder: Path) -> None:
    answer = run_json("ask", "How does make_encoder choose the separator?")
    assert answer["status"] == "answered", answer
    assert 'separator = "," if indent is None else ",\\n"' in quoted(answer)  # after the nested def


def test_asked_after_a_nested_definition_this_function_is_defined_at_its_first_line(
    encoder: Path,
) -> None:
    answer = run_json("ask", "--at", "enc.py:7", "Where is this function defined?")
    assert answer["status"] == "answered", answer
    assert quoted(answer) == ["def make_encoder(indent):"]


def test_a_question_in_plain_words_asked_of_source_files_is_answered_from_their_lines(
    repo: Path,
) -> None:
    """No identifier, no word the code holds ("waiting", "queue" in prose): asked of the
    source files it is still answered from their lines, never refused for prose words."""
    listed = run_json("docs")
    documents = listed["documents"] if isinstance(listed, dict) else listed
    ids = [d["id"] for d in documents]
    asked = [arg for i in ids for arg in ("--doc", i)]
    answer = run_json("ask", *asked, "Who gets woken first when the holder lets go?")
    assert answer["status"] == "answered", answer
    assert answer["answer"].startswith("From the code")
    source = (repo / LOCKS).read_text(encoding="utf-8") + (repo / "asyncio/mixins.py").read_text(
        encoding="utf-8"
    )
    assert all(q["text"] in source for q in answer["quotes"])


def test_a_question_of_the_whole_library_that_finds_only_code_is_answered_from_its_lines(
    repo: Path,
) -> None:
    """Asked of no document in particular, the evidence all code blocks: the code's own
    lines answer, never a refusal for prose words the code does not hold."""
    answer = run_json("ask", "Who gets woken first when the holder lets go?")
    assert answer["status"] == "answered", answer
    assert answer["answer"].startswith("From the code")
    source = "".join((repo / n).read_text(encoding="utf-8") for n in (LOCKS, "asyncio/mixins.py"))
    assert all(q["text"] in source for q in answer["quotes"])


BACKOFF = """package backoff

import "time"

const (
\tDefaultInitialInterval = 500 * time.Millisecond
\tDefaultMaxInterval     = 60 * time.Second
)

// ExponentialBackOff increases the interval after each failed try.
type ExponentialBackOff struct {
\tInitialInterval time.Duration
\tMaxInterval     time.Duration
\tcurrentInterval time.Duration
}

// Reset the interval back to the initial one.
func (b *ExponentialBackOff) Reset() {
\tb.currentInterval = b.InitialInterval
}

// Peek returns the next interval without advancing it.
func (b *ExponentialBackOff) Peek() time.Duration {
\treturn b.currentInterval
}
"""


@pytest.fixture
def backoff(settings: Settings, tmp_path: Path) -> list[str]:
    """``backoff.go`` added as a repository: the ``--doc`` arguments asking of it."""
    added(tmp_path, "backoff.go", BACKOFF)
    return every_doc()


def every_doc() -> list[str]:
    """The ``--doc`` arguments asking of every document added."""
    listed = run_json("docs")
    documents = listed["documents"] if isinstance(listed, dict) else listed
    return [arg for d in documents for arg in ("--doc", d["id"])]


def test_a_value_set_outside_the_named_definition_is_quoted(backoff: list[str]) -> None:
    """The default lives in a constant, not in the type the question names: the blocks
    holding the question's words best come with the subject."""
    answer = run_json(
        "ask", *backoff, "What is the default initial interval of ExponentialBackOff?"
    )
    assert answer["status"] == "answered", answer
    assert "500 * time.Millisecond" in answer["answer"]


def test_a_question_in_readers_words_names_the_function_whose_comment_holds_them(
    backoff: list[str],
) -> None:
    answer = run_json("ask", *backoff, "Which call gives the next interval without advancing?")
    assert answer["answer"].startswith("From the code of ExponentialBackOff.Peek"), answer


def test_a_type_no_line_of_which_holds_the_questions_words_is_told_by_its_outline(
    backoff: list[str],
) -> None:
    """A Chinese question over English code shares no word with it: the type named is told
    by its definition, doc comment and its methods' first lines."""
    answer = run_json("ask", *backoff, "ExponentialBackOff 是怎么工作的？")
    assert answer["status"] == "answered", answer
    assert "func (b *ExponentialBackOff) Reset() {" in quoted(answer)
    # words held only outside it ("default"): its outline still comes with those lines
    answer = run_json("ask", *backoff, "Which default does ExponentialBackOff start from?")
    assert "func (b *ExponentialBackOff) Reset() {" in quoted(answer)
    assert "DefaultInitialInterval = 500 * time.Millisecond" in quoted(answer)
    assert len(quoted(answer)) <= MAX_LINES  # read at a glance


def test_a_question_about_what_the_code_lacks_is_refused(backoff: list[str]) -> None:
    answer = run_json("ask", *backoff, "Does it persist to disk between runs?")
    assert answer["status"] == "not_covered", answer


SLUG = """import re

DUPLICATE_DASH_PATTERN = re.compile(r'-{2,}')
QUOTE_PATTERN = re.compile(r"[']+")


def slugify(text):
    text = QUOTE_PATTERN.sub('-', text)
    # remove redundant dashes
    text = DUPLICATE_DASH_PATTERN.sub('-', text)
    return text
"""


def test_explaining_a_line_quotes_the_comment_over_it_and_what_it_names(
    settings: Settings, tmp_path: Path
) -> None:
    added(tmp_path, "slug.py", SLUG)
    answer = run_json("ask", "--at", "slug.py:10", "--intent", "explain")
    assert answer["status"] == "answered", answer
    lines = quoted(answer)
    assert "# remove redundant dashes" in lines
    assert "DUPLICATE_DASH_PATTERN = re.compile(r'-{2,}')" in lines


KEYS = """package lru

// Keys returns a slice of the keys in the cache, from oldest to newest.
func (c *LRU) Keys() []interface{} {
\tkeys := make([]interface{}, len(c.items))
\ti := 0
\tfor ent := c.evictList.Back(); ent != nil; ent = ent.Prev() {
\t\tkeys[i] = ent.Value.(*entry).key
\t\ti++
\t}
\treturn keys
}

const (
\tDefaultRatio = 0.25
)

func (c *LRU) Ratio() float64 {
\treturn c.ratio
}
"""


def test_a_long_definition_is_told_by_its_doc_comment_and_a_value_by_its_literal(
    settings: Settings, tmp_path: Path
) -> None:
    added(tmp_path, "lru.go", KEYS)
    answer = run_json("ask", "In what order does Keys give back the keys?")
    assert "from oldest to newest" in answer["answer"], answer
    answer = run_json("ask", "What is the default Ratio?")
    assert "DefaultRatio = 0.25" in answer["answer"], answer


TEXT_TOOLS = '''import unicodedata


def smart_truncate(string, max_length=0, save_order=False):
    """Truncate a string.

    :param save_order (bool): if True then word order of output string is like input string
    """
    words = string.split()
    if save_order:
        words = words[:max_length]
    else:
        words = sorted(words)[:max_length]
    return " ".join(words)


def normalize(text, unicode_output=False):
    """Normalize text before it is cut into words."""
    if unicode_output:
        return unicodedata.normalize("NFKC", text)
    return unicodedata.normalize("NFKD", text)


def kept(char):
    """Whether a character is allowed: allowed characters are kept, when allowed."""
    return char.isalnum()
'''


@pytest.fixture
def text_tools(settings: Settings, tmp_path: Path) -> list[str]:
    """``tools.py`` added as a repository: the ``--doc`` arguments asking of it."""
    added(tmp_path, "tools.py", TEXT_TOOLS)
    return every_doc()


def test_a_named_parameter_leads_to_the_function_taking_it(text_tools: list[str]) -> None:
    answer = run_json("ask", *text_tools, "What does save_order change when truncating?")
    assert answer["answer"].startswith("From the code of smart_truncate"), answer


def test_a_follow_up_naming_nothing_is_about_what_its_thread_asked(text_tools: list[str]) -> None:
    first = run_json("ask", *text_tools, "Which normalization is applied to unicode output?")
    assert first["answer"].startswith("From the code of normalize"), first
    thread = ["--thread", first["thread_id"]]
    answer = run_json("ask", *text_tools, *thread, "And when it isn't allowed?")
    assert answer["answer"].startswith("From the code of normalize"), answer


RED_GO = """package color

// Red is a convenient helper function to print with red foreground. A
// newline is appended to format by default.
func Red(format string, a ...interface{}) { colorPrint(format, a...) }

func colorPrint(format string, a ...interface{}) {
\tformat += "\\n"
}
"""


def test_a_doc_comment_sentence_wrapped_over_two_lines_is_answered_whole(
    settings: Settings, tmp_path: Path
) -> None:
    answer = answered_over(tmp_path, "color.go", RED_GO, "How does Red print its text?")
    assert "A newline is appended to format by default." in answer["answer"], answer["answer"]


LOADER_PY = '''def load_values(
    path,
    verbose: bool = False,
    override: bool = False,
):
    """Load the file's values into the environment."""
    for key, value in read(path):
        set_value(key, value, override)


def find_file(start):
    frame = start
    while frame.name == start.name or not frame.exists(
        frame.name
    ):
        assert frame.parent is not None
        frame = frame.parent
    return frame
'''


def test_a_default_asked_of_a_function_quotes_its_signature_whole(
    settings: Settings, tmp_path: Path
) -> None:
    answer = answered_over(
        tmp_path,
        "loader.py",
        LOADER_PY,
        "Does load_values replace a variable already set by default?",
    )
    assert "override: bool = False" in answer["answer"], answer["answer"]


def test_explaining_a_statement_over_lines_quotes_it_whole_and_the_body_after(
    settings: Settings, tmp_path: Path
) -> None:
    folder = added(tmp_path, "loader.py", LOADER_PY)
    line = line_of(folder, "while frame.name", "loader.py")
    answer = run_json("ask", "--at", f"loader.py:{line}", "What does this loop do?")
    assert answer["status"] == "answered", answer
    assert "frame = frame.parent" in quoted(answer), answer["answer"]


SEQUENCE_GO = """package color

// sequence returns a formatted SGR sequence to be plugged into an escape
// an example output might be: "1;36" -> bold cyan
func (c *Color) sequence() string {
\tformat := make([]string, len(c.params))
\tfor i, v := range c.params {
\t\tformat[i] = strconv.Itoa(int(v))
\t}
\treturn strings.Join(format, ";")
}

type Color struct {
\tparams []int
}
"""


def test_a_function_of_few_code_lines_is_quoted_whole_however_long_its_doc(
    settings: Settings, tmp_path: Path
) -> None:
    answer = answered_over(
        tmp_path, "color.go", SEQUENCE_GO, "How is the sequence built out of the attributes?"
    )
    assert 'return strings.Join(format, ";")' in quoted(answer), answer["answer"]


RATIO_GO = """package lru

const (
\t// Default2QRecentRatio is the ratio of the 2Q cache dedicated
\t// to recently added entries that have only been accessed once.
\tDefault2QRecentRatio = 0.25

\t// Default2QGhostEntries is the default ratio of ghost
\t// entries kept to track entries recently evicted
\tDefault2QGhostEntries = 0.50
)

// entries counts the entries of a cache.
func entries(size int) int {
\treturn size
}
"""


def test_a_comment_picked_brings_the_code_it_stands_above(
    settings: Settings, tmp_path: Path
) -> None:
    answer = answered_over(
        tmp_path,
        "twoqueue.go",
        RATIO_GO,
        "What ratio of the 2Q cache is dedicated to recently added entries?",
    )
    assert "Default2QRecentRatio = 0.25" in quoted(answer), answer["answer"]


NOT_MODIFIED_GO = """package fetch

// Get fetches url, answering from the cache when the server says nothing changed.
func (c *Client) Get(url string) (*Response, error) {
\treq := c.newRequest(url)
\tif etag, ok := c.cache.ETag(url); ok {
\t\treq.Header.Set("If-None-Match", etag)
\t}
\tresp, err := c.http.Do(req)
\tif err != nil {
\t\treturn nil, err
\t}
\tif resp.StatusCode == 304 {
\t\t// Not modified: the copy kept is still good, so it
\t\t// is refreshed and handed back in place of the empty body.
\t\treturn c.cache.Refresh(url, resp), nil
\t}
\tc.cache.Store(url, resp)
\treturn resp, nil
}
"""


def test_a_block_opener_picked_brings_the_code_it_runs_past_the_comment_over_it(
    settings: Settings, tmp_path: Path
) -> None:
    question = "What does Get do when the server answers 304?"
    rows = quoted(answered_over(tmp_path, "fetch.go", NOT_MODIFIED_GO, question))
    # what the block does, right under its test: the comment's why is not the answer
    opener = rows.index("if resp.StatusCode == 304 {")
    assert rows[opener + 1] == "return c.cache.Refresh(url, resp), nil", rows
