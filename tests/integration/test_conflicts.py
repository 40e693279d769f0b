"""The contradiction scan end to end on real manual text with the bundled embedder: two
versions of a PostgreSQL manual entry with changed defaults are a pair (found when the
second is added, with both spans and the changed tokens); an unchanged copy and a
paraphrase keeping the values are not; deleting a side removes its pairs. The same in
server mode, the vectors in PostgreSQL."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from manual_versions import entries_html, paraphrased, with_defaults_changed
from model_caches import seeded

from askalong.cli import main
from askalong.config import Settings
from conftest import settings_for


def run_json(*args: str) -> Any:
    result = CliRunner().invoke(main, [*args, "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture
def versions(tmp_path: Path, evaldata: Path) -> dict[str, Path]:
    texts = {
        "v15": entries_html(evaldata),
        "changed": with_defaults_changed(evaldata),
        # The same entries in another file (another document, the same chunks).
        "copy": entries_html(evaldata).replace("<dl>", "<p>A mirror of the page.</p><dl>"),
        "paraphrase": paraphrased(evaldata),
    }
    paths = {}
    for name, text in texts.items():
        paths[name] = tmp_path / f"{name}.html"
        paths[name].write_text(text, encoding="utf-8")
    return paths


@pytest.fixture(params=["embedded", "server"])
def local_vectors(
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
    model_caches: Path,
) -> Settings:
    """The bundled embedder, the vectors in the home's files or (server mode) in PostgreSQL."""
    monkeypatch.setenv("ASKALONG_EMBEDDER", "local")
    seeded(settings.home, model_caches)
    if request.param == "embedded":
        return settings
    server = settings_for("postgres", settings, request)
    monkeypatch.setenv("ASKALONG_DATABASE_URL", server.database_url or "")
    return server


def _ids(added: Any) -> dict[str, str]:
    return {Path(r["source"]).stem: r["document"]["id"] for r in added["results"]}


def _pairs(found: Any) -> dict[frozenset[str], list[Any]]:
    pairs: dict[frozenset[str], list[Any]] = {}
    for pair in found["conflicts"]:
        pairs.setdefault(frozenset(s["document_id"] for s in pair["sides"]), []).append(pair)
    return pairs


def _tokens(pairs: list[Any], document_id: str) -> set[str]:
    return {
        t for p in pairs for s in p["sides"] if s["document_id"] == document_id for t in s["tokens"]
    }


@pytest.mark.slow  # the bundled embedder on four documents, per backend: about a minute on 2 cores
def test_changed_defaults_are_found_copies_are_not_and_removal_clears(
    local_vectors: Settings, versions: dict[str, Path]
) -> None:
    ids = _ids(run_json("add", *(str(p) for p in versions.values())))
    found = run_json("conflicts")
    assert found["scan"]["documents"] == 0  # each was scanned when its vectors were made
    pairs = _pairs(found)
    assert frozenset((ids["v15"], ids["copy"])) not in pairs
    assert frozenset((ids["v15"], ids["paraphrase"])) not in pairs
    assert frozenset((ids["copy"], ids["paraphrase"])) not in pairs
    changed = pairs[frozenset((ids["v15"], ids["changed"]))]
    assert {"on", "64"} <= _tokens(changed, ids["v15"])
    assert {"off", "128"} <= _tokens(changed, ids["changed"])
    kinds = {p["kind"] for p in changed}
    assert kinds == {"setting", "number"}
    texts = [s["text"] for p in changed for s in p["sides"] if s["document_id"] == ids["changed"]]
    assert any("The default is off" in t for t in texts)
    for pair in changed:
        assert pair["cosine"] >= 0.9 and pair["dice"] >= 0.8
        assert all(s["span"] is not None for s in pair["sides"])
    # Every document saying "on" conflicts with the one saying "off", and only with it.
    assert all(ids["changed"] in key for key in pairs)

    assert run_json("conflicts", "--doc", ids["copy"])["conflicts"]
    run_json("rm", ids["changed"])
    assert run_json("conflicts")["conflicts"] == []
