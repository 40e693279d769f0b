"""Code lines chosen by meaning too (issue 32, ``asking/code_meaning.py``): a question in a
reader's words over a function too long to quote whole, whose answering line holds none
of them, is answered with that line when the bundled embedder (its reader encoder) is on,
and by BM25's order alone, without it, in lexical mode (``ASKALONG_EMBEDDER=none``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_json import run_json
from model_caches import seeded

from askalong.config import Settings

SOURCE = '''class Cache:
    """A cache of values under keys, at most maxsize of them."""

    def put(self, key, value):
        """Put a value in the cache under key."""
        if key in self.data:
            self.data[key] = value
            return
        self.data[key] = value
        self.currsize += 1
        while self.currsize > self.maxsize:
            self.popitem()

    def get(self, key, default=None):
        """The value in the cache under key, else default."""
        return self.data.get(key, default)
'''
QUESTION = "When a Cache holds too many items, how does it make room?"
ANSWER = "self.popitem()"


def asked(tmp_path: Path) -> list[str]:
    folder = tmp_path / "cache"
    folder.mkdir()
    (folder / "cache.py").write_text(SOURCE, encoding="utf-8")
    run_json("add", "--no-embed", str(folder))
    answer = run_json("ask", QUESTION)
    assert answer["status"] == "answered", answer
    return [q["text"].strip() for q in answer["quotes"]]


@pytest.mark.slow  # the reader encoder loads (~4 CPU s)
def test_the_line_that_answers_in_other_words_is_quoted_with_the_reader(
    settings: Settings, tmp_path: Path, model_caches: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seeded(settings.home, model_caches)
    monkeypatch.setenv("ASKALONG_EMBEDDER", "local")
    assert ANSWER in asked(tmp_path)


def test_without_an_embedder_the_lines_are_the_words_alone(
    settings: Settings, tmp_path: Path
) -> None:
    # the same question in lexical mode: no line of ``Cache`` holds its words but the
    # class's name, so the answer is the class's outline, without the answering line
    # (the reader's order is what brings it)
    assert ANSWER not in asked(tmp_path)
