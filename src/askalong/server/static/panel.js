// The side panel: the current thread (turns with their anchor chips, streamed answers,
// quote cards with verdict badges), the follow-up composer, and the document's threads.

import * as api from "./api.js";
import { el, icon, shorten } from "./dom.js";
import { INTENTS } from "./askbox.js";

const VERDICTS = {
  supported: { label: "Supported", tone: "good" },
  weak: { label: "Weak support", tone: "warn" },
  unsupported: { label: "Not supported", tone: "bad" },
  not_found: { label: "Not in the text", tone: "bad" },
  pending: { label: "Checking…", tone: "muted" },
};

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
      const text = error.status === 501 ? "Threads will be listed here once answering is available." : error.message;
      this.list.replaceChildren(el("p", { class: "muted pad" }, text));
    }
  }

  threadItem(thread) {
    return el("button", { class: "thread-item", type: "button", onclick: () => this.open(thread.id) },
      el("span", { class: "thread-title" }, shorten(thread.title, 90)),
      el("span", { class: "thread-meta" }, `${thread.turns} turn${thread.turns === 1 ? "" : "s"} · ${thread.updated.slice(0, 10)}`));
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
    if (this.thread.anchor) this.renderChip();
  }
}

function anchorOf(selection) {
  return { block_id: selection.block_id, start: selection.start, end: selection.end, selected_text: selection.text };
}

function wireAnchor(anchor) {
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
  const where = whereOf(anchor.block_id, blocks);
  return [icon("anchor", 14), el("span", { class: "chip-where" }, where || "selection"), el("span", { class: "chip-text" }, `“${shorten(anchor.selected_text ?? "", 48)}”`)];
}

// One question and its answer, filled in as the events arrive.
class Turn {
  constructor({ question, intent, anchor, blocks, onQuote, onAnchor }) {
    this.blocks = blocks;
    this.onQuote = onQuote;
    this.quotes = new Map();
    const label = INTENTS.find((i) => i.id === intent)?.label;
    const asked = [label && el("span", { class: "intent-tag" }, label.replace("…", "")), question && el("span", {}, question)];
    this.status = el("div", { class: "status" }, el("span", { class: "spinner" }), "Finding the passages…");
    this.answer = el("div", { class: "answer-text" });
    this.quoteList = el("div", { class: "quotes" });
    this.explanation = el("div", { class: "explanation" });
    this.el = el("article", { class: "turn" },
      el("button", { class: "anchor-chip small", type: "button", onclick: onAnchor, title: "Show where this was asked" }, ...chipContent(anchor, blocks)),
      el("div", { class: "question" }, asked),
      el("div", { class: "answer" }, this.status, this.answer, this.quoteList, this.explanation));
  }

  on({ event, data }) {
    const handlers = {
      retrieval: () => this.setStatus(`Read ${data.hits?.length ?? 0} passage${data.hits?.length === 1 ? "" : "s"}; answering…`),
      answer_delta: () => this.answer.append(data.text),
      quote: () => this.addQuote(data),
      verdict: () => this.setVerdict(data.index, data.verdict, data.note),
      explanation: () => this.explanation.append(data.text),
      done: () => this.finish(data),
      error: () => this.fail(data),
    };
    handlers[event]?.();
  }

  setStatus(text) {
    this.status.replaceChildren(el("span", { class: "spinner" }), text);
  }

  addQuote(quote) {
    const badge = el("span", { class: "badge" });
    const card = el("button", { class: "quote-card", type: "button", dataset: { index: quote.index }, onclick: () => this.onQuote(quote) },
      el("blockquote", {}, quote.text),
      el("div", { class: "quote-meta" }, el("span", {}, whereOf(quote.block_id, this.blocks, quote.page)), badge));
    this.quotes.set(quote.index, { card, badge });
    this.quoteList.append(card);
    this.setVerdict(quote.index, quote.verdict ?? "pending", quote.note);
  }

  setVerdict(index, verdict, note) {
    const quote = this.quotes.get(index);
    if (!quote) return;
    const info = VERDICTS[verdict] ?? VERDICTS.pending;
    quote.card.dataset.verdict = verdict;
    quote.badge.className = `badge ${info.tone}`;
    quote.badge.replaceChildren(info.label);
    quote.card.title = note || info.label;
  }

  finish(data) {
    this.status.remove();
    const answer = data.answer;
    if (answer && !this.answer.textContent && !this.quotes.size) this.showAnswer(answer);
  }

  // A whole answer (non-stream response or a reopened thread).
  showAnswer(answer) {
    this.status.remove();
    this.answer.replaceChildren(answer.answer ?? "");
    for (const quote of answer.quotes ?? []) this.addQuote(quote);
    if (answer.explanation) this.explanation.replaceChildren(answer.explanation);
  }

  fail(error) {
    this.status.remove();
    const unavailable = error.status === 501;
    const title = unavailable ? "Answering is not available yet" : "Could not answer";
    const detail = unavailable ? "The reader, selection and quotes work; the answering engine is not switched on in this build." : error.message;
    this.answer.replaceChildren(el("div", { class: `notice ${unavailable ? "info" : "error"}` }, el("b", {}, title), el("span", {}, detail)));
  }
}
