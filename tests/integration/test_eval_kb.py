"""`askalong eval kb` end to end on a small real sample (tests/data/kb_sample: three
PostgreSQL manual pages, a Chinese paper private to bob, a DuReader page shared with the
research org; ten items): the knowledge base built with its accounts, every item asked
as its asker, no leak, the HTML report written, the second run reusing the build."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from askalong.cli import main
from askalong.config import Settings

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "kb_sample"


def _run(evaldata: Path, *extra: str) -> dict:
    args = ["eval", "kb", str(SAMPLE / "items.jsonl"), "--evaldata", str(evaldata), *extra]
    result = CliRunner().invoke(main, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_sample_end_to_end(settings: Settings, evaldata: Path, tmp_path: Path) -> None:
    report = _run(evaldata, "--report", str(tmp_path / "report"))
    rows = {r["category"]: r for r in report["categories"]}
    assert rows["all"]["items"] == 10 and rows["all"]["errors"] == 0
    assert rows["all"]["leaks"] == 0
    assert rows["single_fact"]["recall"] >= 2 / 3  # the port, connections, uuid facts
    items = {i["item_id"]: i for i in report["items"]}
    assert not items["el-bob"]["refused"] and items["el-bob"]["recall"] == 1.0
    assert items["port"]["search_recall"] == 1.0  # the diagnostic: the search alone
    # the direct answer, apart from the chunks it cites, holds the gold or not
    assert rows["single_fact"]["answer_hit"] is not None and items["port"]["answer_hit"] in (0, 1)
    assert items["el-alice"]["answer_hit"] is None  # expected refusal: nothing to hold
    assert items["mat-alice"]["recall"] == 1.0  # the org's member sees the page
    for hidden in ("el-alice", "mat-bob"):
        assert items[hidden]["leaks"] == 0 and items[hidden]["recall"] is None
    assert report["judge"] is None and "not measured" in report["judge_note"]
    page = (tmp_path / "report" / "index.html").read_text("utf-8")
    assert "<td>single_fact</td>" in page and 'src="recall.png"' in page
    assert 'src="answer_hit.png"' in page
    assert (tmp_path / "report" / "mrr.png").read_bytes()[:4] == b"\x89PNG"
    # built once: a second run finds every document recorded
    homes = list((settings.home / "kb").iterdir())
    again = _run(evaldata, "--category", "no_answer")
    assert [r["category"] for r in again["categories"]] == ["no_answer", "all"]
    assert list((settings.home / "kb").iterdir()) == homes


def test_unknown_owner_is_a_clear_error(settings: Settings, evaldata: Path, tmp_path: Path) -> None:
    corpus = json.loads((SAMPLE / "corpus.json").read_text("utf-8"))
    corpus["documents"][0]["owner"] = "mallory"
    bad = tmp_path / "corpus.json"
    bad.write_text(json.dumps(corpus), encoding="utf-8")
    args = ["eval", "kb", str(SAMPLE / "items.jsonl"), "--corpus", str(bad)]
    result = CliRunner().invoke(main, [*args, "--evaldata", str(evaldata)])
    assert result.exit_code == 1
    assert "mallory" in result.stderr and "corpus.json" in result.stderr
    assert "Traceback" not in result.output
