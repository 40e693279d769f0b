"""Answers visibly stream (issue 13 item 7), in real Chromium against a real server: the
answer text grows piece by piece as the events arrive, a "Checking quotes…" state shows
before the verdicts, and the badges and "how the answer was checked" are plain words,
never the checks' internal terms."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from e2e.asking import Asking, ask_box_at
from e2e.reader import wait_for_answer

LABELS = {"Supported", "Partly supported", "Doubtful", "Not checked"}
INTERNAL = ("drifted", "cited source", "claim", "cites no source", "the judge")

# Records, as the panel changes, each piece appended to an answer while it streams and
# each status shown; a stored answer replacing the text is not a piece.
WATCH = """() => {
  window.seen = { pieces: [], statuses: [] };
  new MutationObserver((records) => {
    for (const r of records) {
      const inside = r.target.closest?.(".answer-text");
      const appended = r.addedNodes.length === 1 && r.removedNodes.length === 0;
      if (inside && appended && r.addedNodes[0].nodeType === Node.TEXT_NODE)
        window.seen.pieces.push(r.addedNodes[0].textContent);
      const status = r.target.closest?.(".status");
      if (status) window.seen.statuses.push(status.textContent);
    }
  }).observe(document.querySelector("#panel"), { childList: true, subtree: true });
}"""


def test_the_answer_streams_then_its_quotes_are_checked_in_plain_words(
    asking_page: Page, asking: Asking
) -> None:
    ask_box_at(asking_page, asking, "We consider two sets of negative examples")
    asking_page.evaluate(WATCH)
    asking_page.locator(".askbox .chip", has_text="Explain").click()
    turn = wait_for_answer(asking_page)
    seen = asking_page.evaluate("window.seen")
    assert len(seen["pieces"]) >= 2, seen  # the text grew as the events came
    answer = turn.locator(".answer-text").text_content() or ""
    assert all(piece.strip("[]0123456789 ")[:20] in answer for piece in seen["pieces"])
    assert any("Checking quotes" in s for s in seen["statuses"])
    badges = set(turn.locator(".quote-card .badge").all_text_contents())
    assert badges and badges <= LABELS
    checks = turn.locator(".claims")
    checks.locator("summary").click()
    said = checks.locator(".claim-checks, .claim-reasons").all_text_contents()
    assert said and any("word-for-word in the document" in s or "no passage" in s for s in said)
    shown = (checks.text_content() or "") + " ".join(
        turn.locator(".quote-card").evaluate_all("(cards) => cards.map((c) => c.title)")
    )
    assert not any(word in shown for word in INTERNAL), shown
    expect(turn).not_to_have_attribute("data-streaming", "")


def test_every_server_reason_has_plain_words(asking_page: Page, asking: Asking) -> None:
    """The reasons verify/ writes (with their numbers and names) all map to a sentence of
    the one table in panel/verdicts.js; none comes back as the server wrote it."""
    asking_page.goto(asking.server.url + "/")
    asking_page.wait_for_selector("body.ready")
    reasons = [
        "cites no source",
        "source 3 does not exist",
        "42 not in the cited text",
        "the cited text covers 40% of the claim",
        "the cited source drifted",
        "the cited text does not mention what the question asks about (negatives)",
        "the judge found it unsupported by its source",
        "the cited text is an instruction planted in the document, not evidence",
        "repeats what an instruction planted in the document says (ignore, reply)",
    ]
    plain = asking_page.evaluate(
        "async (reasons) => { const m = await import('/panel/verdicts.js');"
        " return reasons.map(m.plainReason); }",
        reasons,
    )
    assert all(p != r for p, r in zip(plain, reasons, strict=True)), plain
    assert "“42”" in plain[2] and "40%" in plain[3] and "negatives" in plain[5]
