// The side panel: the current thread (turns with their anchor chips, streamed answers,
// quote cards with verdict badges), the follow-up composer, and the document's threads.

import * as api from "../lib/api.js";
import { el, icon, shorten } from "../lib/dom.js";
import { INTENTS } from "../reader/askbox.js";

// The four verdicts of the answer JSON; "pending" until a quote's verdict arrives.
const VERDICTS = {
  supported: { label: "Supported", tone: "good", note: "The quote supports the answer." },
  weak: { label: "Weak support", tone: "warn", note: "The quote supports the answer only in part." },
  suspicious: { label: "Suspicious", tone: "bad", note: "The quote may not say what the answer claims." },
  unverified: { label: "Not checked", tone: "muted", note: "No sentence of the answer cites this quote directly." },
  pending: { label: "Checking…", tone: "muted", note: "Checking the quote against the answer…" },
};

// An intent alone is phrased as one of these questions: the intent tag already says it.
const CANNED = new Set([
  "Explain this.", "Give an example of this.", "How does this differ from related ideas?",
  "解释这段内容。", "举例说明这段内容。", "这与相关概念有什么不同？",
]);

export class Panel {
  constructor(root, { docId, blocks, highlight }) {
    this.root = root;
    this.docId = docId;
    this.blocks = blocks;
    this.highlight = highlight;
    this.thread = null; // {id, anchor, turns}
    this.build();
    this.showEmpty();
  }

  build() {
    this.tabs = {
      thread: el("button", { class: "tab active", type: "button", onclick: () => this.showTab("thread") }, "Answer"),
      threads: el("button", { class: "tab", type: "button", onclick: () => this.showTab("threads") }, "Threads"),
    };
    this.body = el("div", { class: "panel-body", "aria-live": "polite" });
    this.list = el("div", { class: "panel-body", hidden: true });
    this.chip = el("button", { class: "anchor-chip", type: "button" });
    this.input = el("textarea", { class: "composer-input", rows: 1, placeholder: "Ask a follow-up…", "aria-label": "Follow-up question" });
    this.input.addEventListener("keydown", (e) => this.onComposerKey(e));
    const send = el("button", { class: "composer-send", type: "button", "aria-label": "Send", onclick: () => this.sendFollowUp() }, icon("send", 16));
    this.composer = el("div", { class: "composer", hidden: true }, el("div", { class: "composer-anchor" }, el("span", { class: "composer-label" }, "Anchored at"), this.chip), el("div", { class: "composer-row" }, this.input, send));
    const header = el("header", { class: "panel-header" }, el("div", { class: "tabs", role: "tablist" }, this.tabs.thread, this.tabs.threads), el("button", { class: "icon-button", type: "button", title: "New thread", onclick: () => this.reset() }, "New"));
    this.root.append(header, this.body, this.list, this.composer);
  }

  showTab(name) {
    for (const [key, tab] of Object.entries(this.tabs)) tab.classList.toggle("active", key === name);
    this.body.hidden = name !== "thread";
    this.composer.hidden = name !== "thread" || !this.thread;
    this.list.hidden = name !== "threads";
    if (name === "threads") this.loadThreads();
  }

  showEmpty() {
    this.body.replaceChildren(el("div", { class: "empty" },
      el("div", { class: "empty-icon" }, icon("ask", 28)),
      el("h2", {}, "Ask about what you read"),
      el("p", {}, "Select a passage, then click the small Ask button beside it."),
      el("ul", { class: "hints" },
        el("li", {}, el("b", {}, "Explain"), " — what the passage means, in plain words"),
        el("li", {}, el("b", {}, "Example"), " — a concrete case from the document"),
        el("li", {}, el("b", {}, "Compare with…"), " — how it differs from related ideas")),
      el("p", { class: "muted" }, "Every answer quotes the document; click a quote to jump to it.")));
  }

  reset() {
    this.thread = null;
    this.composer.hidden = true;
    this.showTab("thread");
    this.showEmpty();
  }

  // A question from the ask box starts a new thread anchored at the selection.
  start({ selection, question, intent }) {
    this.thread = { id: null, anchor: anchorOf(selection), turns: 0 };
    this.body.replaceChildren();
    this.showTab("thread");
    this.ask(question, intent);
  }

  reanchor(selection) {
    if (!this.thread) return;
    this.thread.anchor = anchorOf(selection);
    this.renderChip();
    this.chip.classList.remove("flash");
    void this.chip.offsetWidth; // restart the animation
    this.chip.classList.add("flash");
  }

  onComposerKey(event) {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      this.sendFollowUp();
    }
  }

  sendFollowUp() {
    const question = this.input.value.trim();
    if (!question || !this.thread) return;
    this.input.value = "";
    this.ask(question, null);
  }

  renderChip() {
    this.chip.replaceChildren(...chipContent(this.thread.anchor, this.blocks));
    this.chip.onclick = () => this.highlightAnchor(this.thread.anchor);
  }

  highlightAnchor(anchor) {
    if (!anchor?.block_id) return;
    this.highlight(anchor.block_id, anchor.start, anchor.end);
  }

  async ask(question, intent) {
    const anchor = this.thread.anchor;
    const turn = new Turn({ question, intent, anchor, blocks: this.blocks, onQuote: (q) => this.highlight(q.block_id, q.start, q.end), onAnchor: () => this.highlightAnchor(anchor) });
    this.body.append(turn.el);
    turn.el.scrollIntoView({ block: "nearest" });
    this.composer.hidden = false;
    this.renderChip();
    const body = { document_id: this.docId, question, intent, anchor: wireAnchor(anchor), thread_id: this.thread.id };
    try {
      for await (const event of api.ask(body)) {
        if (event.event === "thread") this.thread.id = event.data.thread_id;
        if (event.event === "done") this.thread.id = event.data.answer.thread_id ?? this.thread.id;
        turn.on(event);
      }
    } catch (error) {
      turn.fail(error);
    }
    this.thread.turns += 1;
  }

  async loadThreads() {
    this.list.replaceChildren(el("p", { class: "muted pad" }, "Loading threads…"));
    try {
      const threads = await api.listThreads(this.docId);
      this.list.replaceChildren(...(threads.length ? threads.map((t) => this.threadItem(t)) : [el("p", { class: "muted pad" }, "No threads yet for this document.")]));
    } catch (error) {
      this.list.replaceChildren(el("p", { class: "muted pad" }, error.message));
    }
  }

  threadItem(thread) {
    const where = thread.anchor ? whereOf(thread.anchor.block_id, this.blocks, thread.anchor.page) : "";
    const quoted = thread.anchor?.selected_text ? `“${shorten(thread.anchor.selected_text, 70)}”` : "";
    return el("button", { class: "thread-item", type: "button", dataset: { id: thread.id }, onclick: () => this.open(thread.id) },
      el("span", { class: "thread-title" }, shorten(thread.title, 90)),
      quoted && el("span", { class: "thread-anchor" }, quoted),
      el("span", { class: "thread-meta" }, [where, `${thread.turns} turn${thread.turns === 1 ? "" : "s"}`, thread.updated.slice(0, 16).replace("T", " ")].filter(Boolean).join(" · ")));
  }

  async open(threadId) {
    const thread = await api.getThread(threadId);
    const turns = thread.turns;
    this.thread = { id: thread.id, anchor: turns.length ? turns[turns.length - 1].anchor : null, turns: turns.length };
    this.body.replaceChildren();
    for (const stored of turns) {
      const turn = new Turn({ question: stored.question, intent: stored.intent, anchor: stored.anchor, blocks: this.blocks, onQuote: (q) => this.highlight(q.block_id, q.start, q.end), onAnchor: () => this.highlightAnchor(stored.anchor) });
      turn.showAnswer(stored.answer);
      this.body.append(turn.el);
    }
    this.showTab("thread");
    this.renderChip();
    this.body.lastElementChild?.scrollIntoView({ block: "start" });
  }
}

function anchorOf(selection) {
  return { block_id: selection.block_id, start: selection.start, end: selection.end, selected_text: selection.text };
}

function wireAnchor(anchor) {
  if (!anchor) return null;
  return { block_id: anchor.block_id, start: anchor.start, end: anchor.end, selected_text: anchor.selected_text };
}

function whereOf(blockId, blocks, page) {
  const block = blocks.get(blockId);
  const parts = [];
  const p = page ?? block?.page;
  if (p) parts.push(`p. ${p}`);
  const section = block?.section_path?.[block.section_path.length - 1];
  if (section) parts.push(shorten(section, 40));
  return parts.join(" · ");
}

function chipContent(anchor, blocks) {
  if (!anchor) return [icon("doc", 14), el("span", { class: "chip-where" }, "whole document")];
  const where = whereOf(anchor.block_id, blocks);
  return [icon("anchor", 14), el("span", { class: "chip-where" }, where || "selection"), el("span", { class: "chip-text" }, `“${shorten(anchor.selected_text ?? "", 48)}”`)];
}

// One question and its answer, filled in as the events arrive; `done` carries the stored
// answer, which replaces what was streamed (it is the checked version of it).
class Turn {
  constructor({ question, intent, anchor, blocks, onQuote, onAnchor }) {
    this.blocks = blocks;
    this.onQuote = onQuote;
    this.quotes = new Map();
    const label = INTENTS.find((i) => i.id === intent)?.label;
    const shown = question && !(label && CANNED.has(question)) ? question : null;
    const asked = [label && el("span", { class: "intent-tag" }, label.replace("…", "")), shown && el("span", {}, shown)];
    this.status = el("div", { class: "status" }, el("span", { class: "spinner" }), "Finding the passages…");
    this.answer = el("div", { class: "answer-text" });
    this.quoteList = el("div", { class: "quotes" });
    this.explanation = el("div", { class: "explanation" });
    this.checks = el("div", { class: "checks" });
    this.el = el("article", { class: "turn" },
      el("button", { class: "anchor-chip small", type: "button", onclick: onAnchor, title: "Show where this was asked" }, ...chipContent(anchor, blocks)),
      el("div", { class: "question" }, asked),
      el("div", { class: "answer" }, this.status, this.answer, this.quoteList, this.explanation, this.checks));
  }

  on({ event, data }) {
    const handlers = {
      retrieval: () => this.setStatus(passagesRead(data.passages?.length ?? 0)),
      answer_delta: () => this.answer.append(data.text),
      quote: () => this.addQuote({ ...data, verdict: "pending" }),
      verdict: () => this.setVerdict(data.number, data.verdict),
      explanation: () => this.explanation.replaceChildren(data.text),
      done: () => this.showAnswer(data.answer),
      error: () => this.fail(data),
    };
    handlers[event]?.();
  }

  setStatus(text) {
    this.status.replaceChildren(el("span", { class: "spinner" }), text);
  }

  addQuote(quote) {
    const badge = el("span", { class: "badge" });
    const card = el("button", { class: "quote-card", type: "button", dataset: { number: quote.number }, onclick: () => this.onQuote(quote) },
      el("span", { class: "quote-number" }, String(quote.number)),
      el("blockquote", {}, quote.text),
      el("div", { class: "quote-meta" }, el("span", {}, whereOf(quote.block_id, this.blocks, quote.page)), badge));
    this.quotes.set(quote.number, { card, badge, quote });
    this.quoteList.append(card);
    this.setVerdict(quote.number, quote.verdict);
  }

  setVerdict(number, verdict) {
    const quote = this.quotes.get(number);
    if (!quote) return;
    const info = VERDICTS[verdict] ?? VERDICTS.pending;
    quote.card.dataset.verdict = verdict in VERDICTS ? verdict : "pending";
    quote.badge.className = `badge ${info.tone}`;
    quote.badge.replaceChildren(info.label);
    quote.card.title = info.note;
  }

  // A whole answer: the end of a stream, a non-stream response, or a reopened thread.
  showAnswer(answer) {
    this.status.remove();
    this.quotes.clear();
    this.quoteList.replaceChildren();
    this.explanation.replaceChildren();
    this.checks.replaceChildren();
    this.el.dataset.status = answer.status;
    if (answer.status === "not_covered") return this.showNotCovered(answer);
    this.answer.replaceChildren(...this.withCitations(answer.answer ?? ""));
    for (const quote of answer.quotes ?? []) this.addQuote(quote);
    if (answer.explanation) this.explanation.replaceChildren(answer.explanation);
    if (answer.claims?.length) this.checks.replaceChildren(claimList(answer.claims));
  }

  // "[2]" in the answer becomes a button that shows quote 2 in the document.
  withCitations(text) {
    const parts = text.split(/\[(\d+)\]/);
    return parts.map((part, i) => {
      if (i % 2 === 0) return part;
      const number = Number(part);
      return el("button", { class: "cite", type: "button", title: `Show quote ${number}`, onclick: () => this.showQuote(number) }, String(number));
    });
  }

  showQuote(number) {
    const found = this.quotes.get(number);
    if (found) this.onQuote(found.quote);
  }

  showNotCovered(answer) {
    const searched = (answer.searched ?? []).map((s) => el("li", {}, s));
    this.answer.replaceChildren(el("div", { class: "notice info not-covered" },
      el("b", {}, answer.answer || "The document does not cover this."),
      el("span", {}, "No passage answers this question, so there is nothing to quote."),
      searched.length ? el("div", { class: "searched" }, el("span", { class: "muted" }, "Searched:"), el("ul", {}, searched)) : null));
  }

  fail(error) {
    this.status.remove();
    this.answer.replaceChildren(el("div", { class: "notice error" }, el("b", {}, "Could not answer"), el("span", {}, error.message)));
  }
}

function passagesRead(count) {
  return `Read ${count} passage${count === 1 ? "" : "s"}; answering…`;
}

// How each sentence of the answer was checked (collapsed; open when one is doubtful).
function claimList(claims) {
  const doubtful = claims.some((c) => c.verdict === "weak" || c.verdict === "suspicious");
  const items = claims.map((claim) => {
    const info = VERDICTS[claim.verdict] ?? VERDICTS.unverified;
    return el("li", { class: "claim", dataset: { verdict: claim.verdict } },
      el("span", { class: `badge ${info.tone}` }, info.label),
      el("span", { class: "claim-text" }, claim.text),
      claim.reasons?.length ? el("span", { class: "claim-reasons" }, claim.reasons.join("; ")) : null);
  });
  return el("details", { class: "claims", open: doubtful }, el("summary", {}, `How the answer was checked (${claims.length})`), el("ul", {}, items));
}
