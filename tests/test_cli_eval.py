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
