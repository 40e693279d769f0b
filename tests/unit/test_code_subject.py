"""Code questions in a reader's words (issue 32, item 4): which definition a question
naming no identifier is about (BM25 over the repository's blocks, identifier parts as
words), which lines of it answer, and how little of the question a repository lacking the
feature holds; small repositories parsed with the real parser."""

from __future__ import annotations

from askalong.asking.code_finding import code_finding
from askalong.asking.code_lines import CodeLine, line_terms, ranked
from askalong.asking.code_subject import (
    COVERAGE_FLOOR,
    all_places,
    best_subject,
    file_names,
    in_files,
    named_in_words,
)
from askalong.context.code_graph import Repository
from askalong.context.code_places import SourceFile
from askalong.parse.code.parser import parse
from askalong.question.code_asks import read_code_question
from askalong.types import BlockSpan

CACHE_GO = """package lru

// Cache is a thread-safe fixed size LRU cache.
type Cache struct {
\tsize      int
\tevictList []string
}

// Peek returns the key's value without updating the "recently used"-ness of the key.
func (c *Cache) Peek(key string) (value string, ok bool) {
\treturn lookup(key)
}

// Get looks up a key's value and marks it as recently used.
func (c *Cache) Get(key string) (value string, ok bool) {
\tc.touch(key)
\treturn lookup(key)
}

// Purge is used to completely clear the cache.
func (c *Cache) Purge() {
\tc.evictList = nil
}

// LFUCache evicts the entry least frequently used.
type LFUCache struct {
\tcounts map[string]int
}
"""

BASE_PY = """
class Cache:
    def __setitem__(self, key, value):
        while self.full():
            self.popitem()


class LRUCache(Cache):
    def popitem(self):
        return None
"""


def repository(name: str, text: str) -> Repository:
    blocks = parse(text.encode(), source=name).blocks
    return Repository([SourceFile(name, name, blocks)])


def subject_of(repo: Repository, question: str) -> str:
    found = best_subject(all_places(repo), question)
    assert found is not None, question
    return ".".join(found.place.qualname)


def test_a_question_in_readers_words_finds_the_function_whose_comment_holds_them() -> None:
    repo = repository("cache.go", CACHE_GO)
    question = "Which call reads a value without making it count as recently used?"
    assert subject_of(repo, question) == "Cache.Peek"
    assert subject_of(repo, "How do I clear the whole cache?") == "Cache.Purge"


def test_a_name_written_as_words_is_the_subject() -> None:
    words, joined = named_in_words("And which one does the LFU cache throw out?")
    assert "lfucache" in joined and "cache" in words
    repo = repository("cache.go", CACHE_GO)
    assert subject_of(repo, "Which one does the LFU cache throw out?") == "LFUCache"


def test_a_question_about_what_the_code_lacks_is_covered_too_little_to_answer() -> None:
    repo = repository("cache.go", CACHE_GO)
    lacking = best_subject(all_places(repo), "Does it persist to disk between runs?")
    assert lacking is None or lacking.coverage < COVERAGE_FLOOR
    held = best_subject(all_places(repo), "How do I clear the whole cache?")
    assert held is not None and held.coverage >= COVERAGE_FLOOR


RAINBOW_RB = """def Rainbow(string)
  Rainbow.global.wrap(string.to_s)
end
"""
PRESENTER_RB = (
    "".join(
        f"def {name}\n  wrap_with_sgr({code})\nend\n\n"
        for code, name in enumerate(["reset", "bright", "faint", "italic", "underline", "blink"])
    )
    + "def uncolor(string)\n  string.gsub(/\\e\\[[\\d;]+m/, '')\nend\n"
)


def test_the_repositorys_own_name_in_a_question_covers_nothing() -> None:
    sources = {"rainbow/global.rb": RAINBOW_RB, "rainbow/presenter.rb": PRESENTER_RB}
    files = [SourceFile(n, n, parse(t.encode(), source=n).blocks) for n, t in sources.items()]
    places = all_places(Repository(files))
    lacking = best_subject(places, "how do I use rainbow to print a progress bar")
    assert lacking is None or lacking.coverage < COVERAGE_FLOOR
    held = best_subject(places, "how does rainbow uncolor a string?")
    assert held is not None and held.coverage >= COVERAGE_FLOOR


def test_identifier_parts_are_words_and_a_rare_term_outweighs_a_common_one() -> None:
    assert {"lru", "cach", "evict", "list"} <= line_terms("LRUCache evictList")
    texts = ["cache = {}", "cache.get(k)", "cache.put(k)", "key = typedkey if typed else k"]
    lines = [CodeLine(0, BlockSpan("b", i, i + 1), text) for i, text in enumerate(texts)]
    best = ranked(lines, line_terms("Which cache key does it use when typed?"))
    assert best[0][1].text == texts[3]


def test_what_calls_a_method_the_graph_resolves_nowhere_is_answered_by_its_lines() -> None:
    """``self.popitem()`` in ``Cache`` calls the subclass's method at run time: the call
    graph resolves it to no definition, yet the line naming it answers "what calls"."""
    repo = repository("cache.py", BASE_PY)
    question = read_code_question("Which methods call popitem?")
    assert question.ask == "callers"
    finding = code_finding(repo, question, None)
    assert finding is not None
    assert [".".join(p.qualname) for _, p in finding.callers] == ["Cache.__setitem__"]


RFC_RS = """/// Parse an RFC 3339 timestamp.
pub fn parse_rfc3339(s: &str) -> Result<u64, Error> {
    if year < 1970 {
        return Err(Error::OutOfRange);
    }
    Ok(seconds(s))
}

#[cfg(test)]
mod test {
    #[test]
    fn smoke_tests() {
        // timestamps just before and after 1970
        assert!(parse_rfc3339("1970-01-01T00:00:00Z").is_ok());
        assert!(parse_rfc3339("1969-12-31T23:59:59Z").is_err());
    }
}
"""


def test_a_test_holding_the_questions_words_gives_way_to_the_code_it_tests() -> None:
    repo = repository("lib.rs", RFC_RS)
    assert subject_of(repo, "Where are timestamps before 1970 rejected?") == "parse_rfc3339"
    assert subject_of(repo, "Which test checks timestamps before 1970?").startswith("test")


def test_a_file_the_question_names_holds_its_subject() -> None:
    cache = repository("cache.py", "def cached(maxsize):\n    '''Keep results.'''\n")
    func = repository("func.py", "def fifo_cache(maxsize=128):\n    return cached(maxsize)\n")
    places = all_places(Repository([*cache.files, *func.files]))
    named = in_files(places, ("func.py",))
    assert [p.file.source for p in named] == ["func.py"]
    assert in_files(places, ("other.py",)) == places  # a name no file has narrows nothing


def test_a_file_name_is_where_to_look_not_an_identifier_to_find() -> None:
    read = read_code_question("How many results do the func.py decorators keep by default?")
    assert file_names(read.identifiers) == ("func.py",)
    assert file_names(read_code_question("Why is self.m reset?").identifiers) == ()
    assert file_names(read_code_question("Where does Lock.acquire wait?").identifiers) == ()


# One long function writing the asked name once, in its place; two short ones holding its
# words apart (``old``, ``flow``, ``git_config``): read word by word, a short one is
# the subject (BM25 divides the long one's matches by its other lines).
SETTINGS_PY = (
    "def load_settings(git_dir):\n"
    '    """Loads the settings."""\n'
    + "".join(f"    setting_{n} = read_setting('setting{n}')\n" for n in range(24))
    + "    flow_config = git_dir + '/flow_config'\n"
    "    if exists(flow_config):  # move the settings of an old .git/flow_config\n"
    "        migrate(flow_config)\n\n\n"
    "def rename_sections(old, new):\n"
    "    old_name = f'flow.{old}'\n"
    "    git_config('--rename-section', old_name, f'flow.{new}')\n\n\n"
    "def remove_old(name):\n"
    "    git_config('--unset', f'flow.{name}.old')\n"
)


def test_an_identifier_the_question_writes_finds_the_long_function_holding_it() -> None:
    repo = repository("flow.py", SETTINGS_PY)
    question = "I have an old .git/flow_config, what happens to it?"
    assert subject_of(repo, question) == "load_settings"
    # the same words written apart are words: a short function holding them is asked
    assert subject_of(repo, "what happens to an old config flow?") != "load_settings"
