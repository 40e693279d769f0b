// The side panel: the frame (tabs, the current thread's turns, the follow-up composer with
// its anchor chip) that puts together the thread state (thread-state.js), the turns
// (turn-view.js) and the document's threads (threads-view.js).

import { el, icon, sendOnEnter } from "../lib/dom.js";
import { QUICK_INTENTS } from "../lib/intents.js";
import { ThreadState } from "./thread-state.js";
import { ThreadsView } from "./threads-view.js";
import { Turn } from "./turn-view.js";
import { chipContent } from "./where.js";

// What each quick intent does, for the empty panel's hints.
const HINTS = {
  explain: "what the passage means, in plain words",
  example: "a concrete case from the document",
  compare: "how it differs from related ideas",
};

export class Panel {
  // With `collection` ({id, name}) the panel asks the collection's documents as one: the
  // composer is open from the start, and `highlight` gets the quote's document id too.
  constructor(root, { docId, blocks, highlight, collection = null }) {
    this.root = root;
    this.blocks = blocks;
    this.highlight = highlight;
    this.collection = collection;
    this.whole = collection ? "whole collection" : "whole document";
    this.state = new ThreadState(docId, collection?.id ?? null);
    this.build();
    this.threads = new ThreadsView(this.list, { docId, blocks, onOpen: (id) => this.open(id) });
    this.showEmpty();
    if (collection) this.openComposer();
  }

  // The composer shown with no thread yet: its first question starts one (collections).
  openComposer() {
    this.tabs.threads.hidden = true; // threads are listed per document
    this.composer.hidden = false;
    this.input.placeholder = `Ask ${this.collection.name}…`;
    this.input.setAttribute("aria-label", "Question about the collection");
    this.chip.replaceChildren(...chipContent(null, this.blocks, this.whole));
  }

  // The current thread, {id, anchor, turns}, or null.
  get thread() {
    return this.state.current;
  }

  build() {
    this.tabs = {
      thread: this.tab("thread", "Answer", true),
      threads: this.tab("threads", "Threads", false),
    };
    this.body = el("div", { class: "panel-body", "aria-live": "polite" });
    this.list = el("div", { class: "panel-body", hidden: true });
    this.composer = this.buildComposer();
    const tabs = el("div", { class: "tabs", role: "tablist" }, this.tabs.thread, this.tabs.threads);
    const fresh = el(
      "button",
      { class: "icon-button", type: "button", title: "New thread", onclick: () => this.reset() },
      "New",
    );
    const header = el("header", { class: "panel-header" }, tabs, fresh);
    this.root.append(header, this.body, this.list, this.composer);
  }

  tab(name, label, active) {
    const onclick = () => this.showTab(name);
    const props = { class: active ? "tab active" : "tab", type: "button", role: "tab", onclick };
    return el("button", { ...props, "aria-selected": String(active) }, label);
  }

  buildComposer() {
    this.chip = el("button", { class: "anchor-chip", type: "button" });
    this.input = el("textarea", {
      class: "composer-input",
      rows: 1,
      placeholder: "Ask a follow-up…",
      "aria-label": "Follow-up question",
      onkeydown: sendOnEnter(() => this.sendFollowUp()),
    });
    const send = el(
      "button",
      {
        class: "composer-send",
        type: "button",
        "aria-label": "Send",
        onclick: () => this.sendFollowUp(),
      },
      icon("send", 16),
    );
    const anchor = el(
      "div",
      { class: "composer-anchor" },
      el("span", { class: "composer-label" }, "Anchored at"),
      this.chip,
    );
    return el(
      "div",
      { class: "composer", hidden: true },
      anchor,
      el("div", { class: "composer-row" }, this.input, send),
    );
  }

  showTab(name) {
    for (const [key, tab] of Object.entries(this.tabs)) {
      tab.classList.toggle("active", key === name);
      tab.setAttribute("aria-selected", String(key === name));
    }
    this.body.hidden = name !== "thread";
    this.composer.hidden = name !== "thread" || (!this.thread && !this.collection);
    this.list.hidden = name !== "threads";
    if (name === "threads") this.threads.load();
  }

  showEmpty() {
    if (this.collection) return this.showCollectionEmpty();
    const hints = QUICK_INTENTS.filter((i) => HINTS[i.id]).map((i) =>
      el("li", {}, el("b", {}, i.label), ` — ${HINTS[i.id]}`),
    );
    this.body.replaceChildren(
      el(
        "div",
        { class: "empty" },
        el("div", { class: "empty-icon" }, icon("ask", 28)),
        el("h2", {}, "Ask about what you read"),
        el("p", {}, "Select a passage, then click the small Ask button beside it."),
        el("ul", { class: "hints" }, hints),
        el(
          "p",
          { class: "muted" },
          "Every answer quotes the document; click a quote to jump to it.",
        ),
      ),
    );
  }

  showCollectionEmpty() {
    this.body.replaceChildren(
      el(
        "div",
        { class: "empty" },
        el("div", { class: "empty-icon" }, icon("ask", 28)),
        el("h2", {}, `Ask ${this.collection.name}`),
        el("p", {}, "A question here is answered from all of the collection's documents."),
        el("p", { class: "muted" }, "Every answer quotes them; click a quote to open it."),
      ),
    );
  }

  reset() {
    this.state.reset();
    this.composer.hidden = !this.collection;
    this.showTab("thread");
    this.showEmpty();
  }

  // A question from the ask box starts a new thread anchored at the selection.
  start({ selection, question, intent }) {
    this.state.start(selection);
    this.body.replaceChildren();
    this.showTab("thread");
    return this.ask(question, intent);
  }

  reanchor(selection) {
    if (!this.state.reanchor(selection)) return;
    this.renderChip();
    this.chip.classList.remove("flash");
    void this.chip.offsetWidth; // restart the animation
    this.chip.classList.add("flash");
  }

  sendFollowUp() {
    const question = this.input.value.trim();
    if (!question || (!this.thread && !this.collection)) return;
    if (!this.thread) {
      this.state.startWhole();
      this.body.replaceChildren();
    }
    this.input.value = "";
    this.input.focus({ preventScroll: true }); // sent with the button: type the next one
    this.ask(question, null);
  }

  renderChip() {
    const anchor = this.thread.anchor;
    this.chip.replaceChildren(...chipContent(anchor, this.blocks, this.whole));
    this.chip.onclick = () => this.highlightAnchor(anchor);
  }

  highlightAnchor(anchor) {
    if (!anchor?.block_id) return;
    this.highlight(anchor.block_id, anchor.start, anchor.end);
  }

  async ask(question, intent) {
    const turn = this.turn({ question, intent, anchor: this.thread.anchor });
    turn.el.scrollIntoView({ block: "nearest" });
    this.composer.hidden = false;
    this.renderChip();
    try {
      for await (const event of this.state.ask(question, intent)) turn.on(event);
    } catch (error) {
      turn.fail(error);
    }
  }

  async open(threadId) {
    const turns = await this.state.open(threadId);
    this.body.replaceChildren();
    for (const stored of turns) this.turn(stored).showAnswer(stored.answer);
    this.showTab("thread");
    this.renderChip();
    this.body.lastElementChild?.scrollIntoView({ block: "start" });
  }

  // A new turn at the end of the thread; its quotes and anchor chip highlight in the document.
  turn({ question, intent, anchor }) {
    const onQuote = (q) => this.highlight(q.block_id, q.start, q.end, q.document_id);
    const turn = new Turn({
      question,
      intent,
      anchor,
      blocks: this.blocks,
      onQuote,
      onAnchor: () => this.highlightAnchor(anchor),
      whole: this.whole,
    });
    this.body.append(turn.el);
    return turn;
  }

  destroy() {
    this.state.reset();
    this.root.replaceChildren();
  }
}
