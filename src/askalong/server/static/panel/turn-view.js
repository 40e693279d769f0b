// One question and its answer, filled in as the events arrive: the answer text grows as
// its pieces come, then "Checking quotes…" until the verdicts are in; `done` carries the
// stored answer, which replaces what was streamed (it is the checked version of it), and
// under it the paragraph it sits in with the answer marked (passage-view.js) and the
// thumbs that rate it (feedback.js).

import { el } from "../lib/dom.js";
import { writtenFromCode } from "../lib/from-code.js";
import { t, tn } from "../lib/i18n.js";
import { intentLabel, shownQuestion } from "../lib/intents.js";
import { conflictNotices } from "./conflicts.js";
import { feedbackBar } from "./feedback.js";
import { passageView } from "./passage-view.js";
import { claimList, quoteCard, showVerdict } from "./quotes-view.js";
import { chipContent } from "./where.js";

// What a turn does with each event of the stream (lib/contract.js EVENT_NAMES); `thread`
// is the thread state's (thread-state.js), not the turn's.
export const TURN_EVENTS = Object.freeze({
  retrieval: (turn, data) => turn.retrieved(data),
  answer_delta: (turn, data) => turn.write(data.text),
  quote: (turn, data) => turn.quoted(data),
  verdict: (turn, data) => turn.setVerdict(data.number, data.verdict),
  explanation: (turn, data) => turn.explanation.replaceChildren(...turn.withCitations(data.text)),
  done: (turn, data) => turn.showAnswer(data.answer),
  error: (turn, data) => turn.fail(data),
});

// The server's anchor_set_aside (routes/ask.py), said in the turn.
const SET_ASIDE = Object.freeze({
  unrelated: "turn.unrelated",
  other_section: "turn.other_section",
});

export class Turn {
  constructor({ question, intent, anchor, blocks, onQuote, onAnchor, whole }) {
    this.blocks = blocks;
    this.onQuote = onQuote;
    this.quotes = new Map();
    this.status = el(
      "div",
      { class: "status" },
      el("span", { class: "spinner" }),
      t("turn.finding"),
    );
    this.scope = el("div", { class: "answer-scope", hidden: true });
    this.answer = el("div", { class: "answer-text" });
    this.passage = el("div", { class: "passage" });
    this.quoteList = el("div", { class: "quotes" });
    this.explanation = el("div", { class: "explanation" });
    this.checks = el("div", { class: "checks" });
    this.feedback = el("div", { class: "feedback" });
    const chip = el(
      "button",
      {
        class: "anchor-chip small",
        type: "button",
        onclick: onAnchor,
        title: t("turn.where_asked"),
      },
      ...chipContent(anchor, blocks, whole),
    );
    this.el = el(
      "article",
      { class: "turn" },
      chip,
      el("div", { class: "question" }, asked(question, intent)),
      el(
        "div",
        { class: "answer" },
        this.status,
        this.scope,
        this.answer,
        this.passage,
        this.quoteList,
        this.explanation,
        this.checks,
        this.feedback,
      ),
    );
  }

  on({ event, data }) {
    TURN_EVENTS[event]?.(this, data);
  }

  setStatus(text) {
    this.status.replaceChildren(el("span", { class: "spinner" }), text);
  }

  retrieved(data) {
    this.setStatus(passagesRead(data.passages?.length ?? 0));
    this.showScope(data.anchor_set_aside);
  }

  // A piece of the answer as it is written.
  write(text) {
    this.el.dataset.streaming = "";
    this.setStatus(t("turn.writing"));
    this.answer.append(text);
  }

  quoted(quote) {
    this.setStatus(t("turn.checking"));
    this.addQuote({ ...quote, verdict: "pending" });
  }

  // Why a question asked at a selection was answered from the whole document.
  showScope(setAside) {
    const known = Object.hasOwn(SET_ASIDE, setAside ?? "");
    this.scope.hidden = !known;
    this.scope.replaceChildren(known ? t(SET_ASIDE[setAside]) : "");
  }

  addQuote(quote) {
    const shown = quoteCard(quote, this.blocks, () => this.onQuote(quote));
    this.quotes.set(quote.number, shown);
    this.quoteList.append(shown.card);
    showVerdict(shown, quote.verdict);
  }

  setVerdict(number, verdict) {
    const shown = this.quotes.get(number);
    if (shown) showVerdict(shown, verdict);
  }

  // A whole answer: the end of a stream, a non-stream response, or a reopened thread.
  showAnswer(answer) {
    this.status.remove();
    this.quotes.clear();
    this.passage.replaceChildren();
    this.quoteList.replaceChildren();
    this.explanation.replaceChildren();
    this.checks.replaceChildren();
    delete this.el.dataset.streaming;
    this.el.dataset.status = answer.status;
    this.showScope(answer.anchor_set_aside);
    this.feedback.replaceChildren(feedbackBar(answer) ?? "");
    if (answer.status === "not_covered") return this.showNotCovered(answer);
    this.answer.replaceChildren(...this.withCitations(answer.answer ?? ""));
    this.answer.classList.toggle("from-code", writtenFromCode(answer)); // its lines are code
    const conflicts = conflictNotices(answer.conflicts, (n) => this.citation(n));
    if (conflicts) this.answer.append(conflicts);
    for (const quote of answer.quotes ?? []) this.addQuote(quote);
    const show = (number, span) => this.showPassage(number, span, answer.passage);
    this.passage.replaceChildren(passageView(answer.passage, this.blocks, show) ?? "");
    // An answer cut to its length goes on in the explanation, its "[2]" citations too.
    if (answer.explanation)
      this.explanation.replaceChildren(...this.withCitations(answer.explanation));
    if (answer.claims?.length)
      this.checks.replaceChildren(claimList(answer.claims, answer.quotes ?? []));
  }

  // "[2]" in the answer becomes a button that shows quote 2 in the document.
  withCitations(text) {
    return text
      .split(/\[(\d+)\]/)
      .map((part, i) => (i % 2 === 0 ? part : this.citation(Number(part))));
  }

  citation(number) {
    const show = () => this.showQuote(number);
    const title = t("turn.show_quote", { n: number });
    return el("button", { class: "cite", type: "button", title, onclick: show }, String(number));
  }

  showQuote(number) {
    const found = this.quotes.get(number);
    if (found) this.onQuote(found.quote);
  }

  // The passage's first marked quote in the document, else the passage's first block.
  showPassage(number, span, passage) {
    if (this.quotes.has(number)) return this.showQuote(number);
    if (span) this.onQuote({ ...span, document_id: passage.document_id });
  }

  showNotCovered(answer) {
    const searched = (answer.searched ?? []).map((s) => el("li", {}, s));
    const list = searched.length
      ? el(
          "div",
          { class: "searched" },
          el("span", { class: "muted" }, t("turn.searched")),
          el("ul", {}, searched),
        )
      : null;
    this.answer.replaceChildren(
      el(
        "div",
        { class: "notice info not-covered" },
        el("b", {}, answer.answer || t("turn.not_covered")),
        el("span", {}, t("turn.no_passage")),
        list,
      ),
    );
  }

  fail(error) {
    this.status.remove();
    const notice = el(
      "div",
      { class: "notice error" },
      el("b", {}, t("turn.failed")),
      el("span", {}, error.message),
    );
    this.answer.replaceChildren(notice);
  }
}

// The intent tag and the question as typed (a canned phrasing is left to the tag).
function asked(question, intent) {
  const label = intentLabel(intent);
  const shown = shownQuestion(question, intent);
  return [
    label && el("span", { class: "intent-tag" }, label.replace("…", "")),
    shown && el("span", {}, shown),
  ];
}

function passagesRead(count) {
  return tn("turn.read", count);
}
