"""A code question in a reader's own words brings the function it means beside the one
its words choose (issue 32, item 4): with the bundled embedder's vectors, each block's
closeness in meaning (``asking/code_closeness.py``) is fused with BM25's shared words, and
the block the two rank first comes first after the subject. Siblings of one file share the
question's words ("namespace"); "turned off" is ``disable``'s doing, "switch … on"
``enable``'s. Embedded vectors and, in server mode, PostgreSQL's; without vectors the words
alone order them, as before."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_json import run_json
from model_caches import seeded

from askalong.asking.code_closeness import block_closeness
from askalong.asking.code_reading import repository_asked
from askalong.asking.code_subject import all_places, best_subject
from askalong.config import Settings
from askalong.library import opened_library
from askalong.types import Access
from conftest import settings_for

LOCAL = Access.local()
# Three siblings of one setup function (the shape of the ``debug`` package's common.js),
# each documented, each holding the word "namespace".
COMMON_JS = """function setup(env) {
\tcreateDebug.enable = enable;
\tcreateDebug.disable = disable;
\tcreateDebug.selectColor = selectColor;

\t/**
\t* Selects a color for a debug namespace
\t* @param {String} namespace The namespace string for the debug instance to be colored
\t* @return {Number|String} An ANSI color code for the given namespace
\t*/
\tfunction selectColor(namespace) {
\t\tlet hash = 0;
\t\tfor (let i = 0; i < namespace.length; i++) {
\t\t\thash = ((hash << 5) - hash) + namespace.charCodeAt(i);
\t\t\thash |= 0;
\t\t}
\t\treturn createDebug.colors[Math.abs(hash) % createDebug.colors.length];
\t}

\t/**
\t* Enables a debug mode by namespaces. This can include modes
\t* separated by a colon and wildcards.
\t*
\t* @param {String} namespaces
\t*/
\tfunction enable(namespaces) {
\t\tcreateDebug.save(namespaces);
\t\tcreateDebug.namespaces = namespaces;
\t\tcreateDebug.names = [];
\t\tconst split = namespaces.trim().split(',');
\t\tfor (const ns of split) {
\t\t\tif (ns[0] === '-') {
\t\t\t\tcreateDebug.skips.push(ns.slice(1));
\t\t\t} else {
\t\t\t\tcreateDebug.names.push(ns);
\t\t\t}
\t\t}
\t}

\t/**
\t* Disable debug output.
\t*
\t* @return {String} namespaces
\t*/
\tfunction disable() {
\t\tconst namespaces = [...createDebug.names, ...createDebug.skips.map(n => '-' + n)].join(',');
\t\tcreateDebug.enable('');
\t\treturn namespaces;
\t}

\treturn createDebug;
}

module.exports = setup;
"""
# The question, the definition its words choose, and the one it means.
ASKED = {
    "how are namespaces listed when debugging is turned off?": ("setup.enable", "setup.disable"),
    "can I switch namespaces on from code rather than through the env var?": (
        "setup.selectColor",
        "setup.enable",
    ),
}


def chosen(folder: Path) -> dict[str, tuple[str, str]]:
    """Each question's subject and first next best block, with the blocks' closeness
    read from the library's vectors (None without them)."""
    run_json("add", str(folder))
    found = {}
    with opened_library() as library:
        documents = library.store.list_documents(LOCAL)
        places = all_places(repository_asked(library.store, documents, LOCAL, []))
        for question in ASKED:
            routes = library.searcher.routes
            closeness = block_closeness(library.store, routes, LOCAL, places, question)
            subject = best_subject(places, question, closeness)
            assert subject is not None, question
            names = [".".join(p.qualname) for p in (subject.place, *subject.next_best)]
            found[question] = (names[0], names[1])
    return found


def repository(tmp_path: Path) -> Path:
    folder = tmp_path / "debug"
    (folder / "src").mkdir(parents=True)
    (folder / "package.json").write_text('{"name": "debug"}\n', encoding="utf-8")
    (folder / "src" / "common.js").write_text(COMMON_JS, encoding="utf-8")
    return folder


@pytest.mark.parametrize("mode", ["embedded", "server"])
def test_the_function_meant_comes_next_to_the_one_the_words_choose(
    mode: str,
    settings: Settings,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
    model_caches: Path,
) -> None:
    monkeypatch.setenv("ASKALONG_EMBEDDER", "local")
    seeded(settings.home, model_caches)
    if mode == "server":
        server = settings_for("postgres", settings, request)
        monkeypatch.setenv("ASKALONG_DATABASE_URL", server.database_url or "")
    assert chosen(repository(tmp_path)) == ASKED


def test_without_vectors_the_words_alone_order_the_blocks(
    settings: Settings, tmp_path: Path
) -> None:
    found = chosen(repository(tmp_path))
    assert {q: subject for q, (subject, _) in found.items()} == {
        q: subject for q, (subject, _) in ASKED.items()
    }
    assert all(found[q][1] != meant for q, (_, meant) in ASKED.items())
