"""Code questions read for the call graph and answered from the code (issue 32 item 4):
"which functions use X" asks for X's callers, a Lua or Rust qualified name is an
identifier, the calls the graph resolves nowhere are what a function calls when it
reaches no function of the repository, a question naming the definition it is answered
from is not refused for another name and reads that definition, a selected doc comment
brings the code it documents, an open call its statement, a camel-case name its one-word
spelling."""

from __future__ import annotations

from askalong.asking.call_paths import call_tree_draft, tree_checked
from askalong.asking.code_answers import lines_draft
from askalong.asking.code_evidence import whole_unit
from askalong.asking.code_lines import joined_terms, line_terms
from askalong.context.call_path import tree_units
from askalong.context.call_tree import call_tree
from askalong.context.code import code_anchor_unit
from askalong.context.code_graph import Repository
from askalong.context.code_places import Place, SourceFile
from askalong.parse.code.parser import parse
from askalong.question.code_asks import named_identifiers, read_code_question
from askalong.question.reading import read_question

SETS = """
from helpers import merge


def union(a, b):
    joined = merge(a, b)
    return sorted(joined)


def intersection(a, b):
    return union(a, b)
"""

STREAM = """
import os


class StreamWrapper:
    def isatty(self):
        stream = self.wrapped
        if 'PYCHARM_HOSTED' in os.environ:
            return True
        return stream.isatty()
"""


def _place(source: str, qualname: tuple[str, ...]) -> tuple[Repository, Place]:
    blocks = parse(source.encode(), source="sets.py").blocks
    repository = Repository([SourceFile("sets", "sets.py", blocks)])
    place = repository.definition(qualname, repository.files[0])
    assert place is not None
    return repository, place


def test_which_functions_use_a_name_asks_for_its_callers() -> None:
    for text in ("which functions use _just", "Which function uses merge_with?"):
        question = read_code_question(text)
        assert (question.ask, question.name) in (("callers", "_just"), ("callers", "merge_with"))
    # a verb after the subject's own words is no caller question
    assert read_code_question("which executor does Emitter use by default").ask == "about"


def test_lua_and_rust_qualified_names_are_identifiers() -> None:
    assert named_identifiers("does Map:get go through __index") == ("Map.get", "__index")
    question = read_code_question("what does Duration::from_secs do")
    assert (question.qualifier, question.name) == ("Duration", "from_secs")
    # prose colons and clock times name nothing
    assert named_identifiers("Note: this runs at 12:30") == ()


def test_the_call_tree_quotes_calls_no_function_of_the_repository_defines() -> None:
    repository, place = _place(SETS, ("union",))
    tree = call_tree(repository, place)
    assert tree.children == ()  # ``merge`` and ``sorted`` are defined elsewhere
    draft = call_tree_draft(tree, tree_units(tree, whole_unit(place)), "en", 3)
    assert [q.text for q in draft.quotes[1:]] == ["joined = merge(a, b)", "return sorted(joined)"]
    claims, quotes = tree_checked(draft)
    assert len(claims) == len(quotes) == 3
    assert claims[1].text.endswith("joined = merge(a, b) [2]")


def test_a_tree_reaching_the_repository_is_the_tree_alone() -> None:
    repository, place = _place(SETS, ("intersection",))
    tree = call_tree(repository, place)
    assert [".".join(c.place.qualname) for c in tree.children] == ["union"]
    assert tree.outside == ()  # ``union``'s own ``merge`` and ``sorted`` are not listed


def test_a_question_naming_its_definition_is_answered_whatever_else_it_names() -> None:
    _, place = _place(STREAM, ("StreamWrapper", "isatty"))
    units = [whole_unit(place)]
    named = read_question("how does StreamWrapper.isatty treat PyCharm")
    draft = lines_draft(named, units, name="StreamWrapper.isatty", anchored=False)
    assert draft.status == "answered"
    assert "PYCHARM_HOSTED" in draft.answer
    # a name the code lacks, the definition not named: refused, the name told
    other = read_question("does StreamWrapper support TrueColor")
    refused = lines_draft(other, units, name="StreamWrapper.isatty", anchored=False)
    assert refused.status == "not_covered"
    assert "TrueColor" in (refused.explanation or "")


PARAMS = """
def convert(text):
    # a cursor move has a count
    count = text.count(";")
    return count


def extract_params(command, paramstring):
    params = tuple(int(p) for p in paramstring.split(";") if p)
    if len(params) == 0:
        if command in "JKm":
            params = (0,)
        elif command in "ABCD":
            params = (1,)
    return params
"""


def test_a_named_definition_none_of_whose_lines_hold_the_words_is_read_from_the_top() -> None:
    repository, place = _place(PARAMS, ("extract_params",))
    other = repository.definition(("convert",), repository.files[0])
    assert other is not None
    units = [whole_unit(place), whole_unit(other)]
    question = read_question("a cursor move with no number: what count does extract_params use?")
    draft = lines_draft(question, units, name="extract_params", anchored=False)
    answer = draft.answer.split("\n")
    assert answer[1].strip().startswith("def extract_params(")  # its own code first
    assert any("params = (1,)" in line for line in answer)


SIGNER = '''
def sign(value):
    """Signs the given string and also attaches time information.

    The time information is the signing time, so that a signed string
    can expire: unsign checks it against the maximum age asked for.
    """
    timestamp = encode(now())
    return value + sep + timestamp


def unsign(value):
    """Unsigns the given string, checking the time information it attaches."""
    return value.rsplit(sep, 1)
'''


def test_a_selected_doc_comment_is_answered_with_the_code_it_documents() -> None:
    repository, place = _place(SIGNER, ("sign",))
    other = repository.definition(("unsign",), repository.files[0])
    assert other is not None
    doc = "Signs the given string and also attaches time information."
    start = place.block.text.index(doc)
    anchor = code_anchor_unit(place, start, start + len(doc))
    question = read_question("Give an example of this.")
    units = [anchor, whole_unit(other)]
    draft = lines_draft(question, units, name="", anchored=True)
    assert "return value + sep + timestamp" in draft.answer
    assert draft.answer.index("timestamp = encode(now())") < draft.answer.index("def unsign(")


STORAGE = """
def open_storage(path, access_mode="r+", encoding=None):
    if access_mode not in ("r", "r+"):
        warnings.warn(
            "Using an access_mode other than r or r+ "
            "can cause data loss or corruption"
        )
    handle = open(path, access_mode, encoding=encoding)
    handle.seek(0, 2)
    size = handle.tell()
    handle.seek(0)
    return handle, size
"""


def test_a_picked_line_leaving_a_call_open_brings_the_rest_of_the_call() -> None:
    _, place = _place(STORAGE, ("open_storage",))
    question = read_question("which access modes make open_storage print a warning?")
    draft = lines_draft(question, [whole_unit(place)], name="open_storage", anchored=False)
    assert "can cause data loss or corruption" in draft.answer


def test_a_camel_case_name_meets_the_code_writing_it_in_capitals() -> None:
    assert joined_terms("how does it treat PyCharm?") == {"pycharm"}
    assert "pycharm" in line_terms("if 'PYCHARM_HOSTED' in os.environ:")
    _, place = _place(LONG_STREAM, ("StreamWrapper", "isatty"))
    question = read_question("how does StreamWrapper.isatty treat PyCharm")
    draft = lines_draft(question, [whole_unit(place)], name="StreamWrapper.isatty", anchored=False)
    assert "if 'PYCHARM_HOSTED' in os.environ:" in draft.answer


LONG_STREAM = """
import os
import sys


class StreamWrapper:
    def isatty(self):
        stream = self.wrapped
        if stream is None:
            return False
        if stream.closed:
            return False
        mode = stream.mode
        name = stream.name
        encoding = stream.encoding
        log(mode, name, encoding)
        try:
            stream_isatty = stream.isatty
        except AttributeError:
            return False
        if stream is sys.__stdout__ or stream is sys.__stderr__:
            if 'PYCHARM_HOSTED' in os.environ:
                return True
        return stream_isatty()
"""


def test_a_code_answer_is_headed_in_the_question_s_script() -> None:
    """A question written in Traditional characters reads 「…的程式碼：」 above the lines,
    a Simplified one 「…的代码：」 as before (``code_headings.HEADINGS``)."""
    _, place = _place(STREAM, ("StreamWrapper", "isatty"))
    units = [whole_unit(place)]
    for asked, heading in (
        ("StreamWrapper.isatty 如何處理 PyCharm？", "StreamWrapper.isatty 的程式碼："),
        ("StreamWrapper.isatty 如何处理 PyCharm？", "StreamWrapper.isatty 的代码："),
    ):
        question = read_question(asked)
        draft = lines_draft(question, units, name="StreamWrapper.isatty", anchored=False)
        assert draft.status == "answered" and draft.answer.startswith(heading), draft.answer
