"""`askalong eval retrieval` on a real sample of XQuAD (English and Chinese)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from askalong.cli import main
from askalong.config import Settings


def _sample(evaldata: Path, language: str, folder: Path) -> Path:
    data = json.loads((evaldata / f"qa/xquad/xquad.{language}.json").read_text("utf-8"))
    data["data"] = data["data"][:6]
    path = folder / f"xquad-sample.{language}.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def test_keyword_retrieval_on_real_questions(
    settings: Settings, evaldata: Path, tmp_path: Path
) -> None:
    paths = [str(_sample(evaldata, lang, tmp_path)) for lang in ("en", "zh")]
    result = CliRunner().invoke(main, ["eval", "retrieval", *paths, "--mode", "keyword", "--json"])
    assert result.exit_code == 0, result.output
    reports = json.loads(result.stdout)["reports"]
    assert [(r["dataset"], r["mode"]) for r in reports] == [
        ("xquad-sample.en", "keyword"),
        ("xquad-sample.zh", "keyword"),
    ]
    for report in reports:
        assert report["queries"] > 100
        assert report["recall1"] >= 0.85
        assert report["recall5"] >= report["recall1"]
    # The second run reuses the indexed collection.
    again = CliRunner().invoke(main, ["eval", "retrieval", paths[0], "--mode", "keyword"])
    assert "| xquad-sample.en | keyword |" in again.stdout


def test_unknown_layout_is_a_clean_error(settings: Settings, tmp_path: Path) -> None:
    odd = tmp_path / "odd.json"
    odd.write_text('{"rows": []}')
    result = CliRunner().invoke(main, ["eval", "retrieval", str(odd)])
    assert result.exit_code == 1
    assert "odd.json" in result.stderr and "Traceback" not in result.output


def test_answer_quality_on_real_questions(
    settings: Settings, evaldata: Path, tmp_path: Path
) -> None:
    paths = [str(_sample(evaldata, lang, tmp_path)) for lang in ("en", "zh")]
    result = CliRunner().invoke(main, ["eval", "qa", *paths, "--limit", "40", "--json"])
    assert result.exit_code == 0, result.output
    reports = json.loads(result.stdout)["reports"]
    assert [r["dataset"] for r in reports] == ["xquad-sample.en", "xquad-sample.zh"]
    for report in reports:
        assert report["questions"] == 40
        assert report["verbatim"] == 1.0
        assert report["evidence_hit"] >= 0.85
        assert report["unanswerable_not_covered"] >= 0.8


def test_squad_answer_metrics() -> None:
    from askalong.evaluate.qa import exact_match, f1_score

    assert exact_match("The Denver Broncos!", "denver broncos") == 1.0
    assert f1_score("Denver Broncos won", "the Denver Broncos") == 0.8
    assert f1_score("北京大学", "北京") == 2 * (2 / 4) * 1.0 / (2 / 4 + 1.0)
    assert f1_score("nothing", "else") == 0.0


def test_paragraph_chunking_makes_one_chunk_per_paragraph(
    settings: Settings, evaldata: Path, tmp_path: Path
) -> None:
    from askalong.evaluate.datasets import load_dataset
    from askalong.evaluate.harness import corpus_settings, evaluate_corpus

    corpus = load_dataset(_sample(evaldata, "en", tmp_path))
    by_chunking = {
        chunking: evaluate_corpus(settings, corpus, modes=("keyword",), chunking=chunking)
        for chunking in ("default", "paragraph")
    }
    paragraph, default = by_chunking["paragraph"], by_chunking["default"]
    # Six articles of 4-7 paragraphs: one chunk each, versus merged 512-unit chunks.
    assert paragraph.chunks == corpus.paragraph_count
    assert paragraph.paragraphs_per_chunk == 1.0
    assert default.paragraphs_per_chunk > 1.3
    assert default.chunks < paragraph.chunks
    # Finding the one paragraph is harder than finding a chunk that holds it.
    [strict], [merged] = paragraph.reports, default.reports
    assert strict.recall1 is not None and merged.recall1 is not None
    assert strict.recall1 < merged.recall1
    homes = {corpus_settings(settings, corpus, c).home for c in ("default", "paragraph")}
    assert len(homes) == 2 and all(home.is_dir() for home in homes)
