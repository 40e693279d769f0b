"""The KB evaluation's model judge over the real wire: ``judged_runs`` with a model
configured (whichever answerer answered: the offline answers are judged too) asks the
scripted chat-completions server once per item (the instructions as the system message,
the item fenced as data), puts each verdict in the item's score, and compares the
verdicts with hand labels of the same answers; without a model nothing is asked."""

from __future__ import annotations

from pathlib import Path

from chat_server import Reply, ScriptedChatServer

from askalong.config import load_settings
from askalong.evaluate.kb_items import GoldEvidence, KbItem
from askalong.evaluate.kb_judge import HandLabel, judged_runs
from askalong.evaluate.kb_metrics import Outcome, score_item
from askalong.evaluate.kb_report import report_json, summarise, to_markdown
from askalong.evaluate.kb_run import ItemRun

PORT = KbItem(
    "sf-port",
    "Which port does the server listen on?",
    "single_fact",
    "answer",
    gold_evidence=(GoldEvidence("manuals/a.html", "The default is 5432"),),
)
HIDDEN = KbItem("pv-bob", "What does the private paper claim?", "private", "refuse", asker="bob")
NOWHERE = KbItem("na-moon", "How far is the moon?", "no_answer", "refuse")


def _run(item: KbItem, answer: str, refused: bool) -> ItemRun:
    outcome = Outcome(item.id, refused, answer, ())
    return ItemRun(item, outcome, score_item(item, outcome, {}))


RUNS = [
    _run(PORT, "The server listens on port 5432 [1].", False),
    _run(HIDDEN, "The knowledge base you can see does not say.", True),
    _run(NOWHERE, "The moon is 384,400 km away [1].", False),
]
LABELS = {
    r.item.id: HandLabel(r.item.id, label, reason, r.outcome.answer)
    for r, label, reason in zip(
        RUNS,
        (True, True, False),
        ("states 5432", "declines", "answers what no document holds"),
        strict=True,
    )
}


def test_each_item_is_judged_over_the_wire(tmp_path: Path) -> None:
    with ScriptedChatServer() as server:
        server.script(
            Reply.json({"correct": True, "reason": "states the port"}),
            Reply.fenced({"correct": True, "reason": "declines"}),
            Reply.json({"correct": True, "reason": "plausible"}),  # the judge is wrong here
        )
        settings = load_settings(
            home=tmp_path / "home",
            embedder="none",
            llm_base_url=server.url,
            llm_model="scripted-model",
        )
        runs, agreed = judged_runs(settings, RUNS, LABELS)
        bodies = [r.body for r in server.chat_requests]
    assert len(bodies) == 3
    system, user = bodies[0]["messages"]
    assert system["role"] == "system" and "never instructions" in system["content"]
    assert "The default is 5432" in user["content"] and "port 5432 [1]" in user["content"]
    assert "should decline" in bodies[1]["messages"][0]["content"]
    assert [r.score.judge for r in runs] == [1.0, 1.0, 1.0]
    assert agreed is not None and agreed.labelled == 3
    assert agreed.agreement == 2 / 3 and agreed.kappa == 0.0  # judge always says yes
    rows = {r.category: r for r in summarise([r.score for r in runs])}
    assert rows["all"].judge == 1.0
    table = to_markdown(list(rows.values()), agreed)
    assert "agreement with the 3 hand-labelled items 0.667, Cohen's kappa 0.000" in table
    report = report_json(list(rows.values()), [r.score for r in runs], agreed)
    assert report["judge"] == {"labelled": 3, "agreement": 2 / 3, "kappa": 0.0}


def test_an_unreadable_reply_is_no_verdict(tmp_path: Path) -> None:
    with ScriptedChatServer() as server:
        server.script(Reply.text("Looks fine to me."), Reply.malformed(), Reply.json({}))
        settings = load_settings(
            home=tmp_path / "home",
            embedder="none",
            llm_base_url=server.url,
            llm_model="scripted-model",
        )
        runs, agreed = judged_runs(settings, RUNS, LABELS)
    assert [r.score.judge for r in runs] == [None, None, None]
    assert agreed is not None and agreed.labelled == 0


def test_offline_nothing_is_asked(tmp_path: Path) -> None:
    settings = load_settings(home=tmp_path / "home", embedder="none")
    runs, agreed = judged_runs(settings, RUNS, LABELS)
    assert agreed is None and [r.score.judge for r in runs] == [None, None, None]
    assert "not measured" in to_markdown(summarise([r.score for r in runs]), agreed)
