// The side panel: the frame (tabs, the current thread's turns, the composer with its
// anchor chip, composer.js) that puts together the thread state (thread-state.js), the
// turns (turn-view.js) and the document's threads (threads-view.js).

import { el, icon } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { QUICK_INTENTS } from "../lib/intents.js";
import { Composer } from "./composer.js";
import { ThreadMenu } from "./thread-menu.js";
import { ThreadState, newThread } from "./thread-state.js";
import { ThreadsView } from "./threads-view.js";
import { Turn } from "./turn-view.js";

// What each quick intent does, for the empty panel's hints.
const HINTS = {
  explain: "panel.hint.explain",
  example: "panel.hint.example",
  compare: "panel.hint.compare",
};

export class Panel {
  // With `collection` ({id, name} of a collection, or {id: null, name, documents: [ids]}
  // for documents picked in the library) the panel asks those documents as one, and
  // `highlight` gets the quote's document id too.
  // `onThreadChange(thread)` runs when another thread is shown or the shown one gains a turn.
  /**
   * @param {HTMLElement} root
   * @param {{docId: string | null, blocks: Map<string, any>, highlight: Function,
   *   collection?: any, onThreadChange?: (thread: any) => void}} options
   */
  constructor(root, { docId, blocks, highlight, collection = null, onThreadChange = () => {} }) {
    this.root = root;
    this.blocks = blocks;
    this.highlight = highlight;
    this.collection = collection;
    this.onThreadChange = onThreadChange;
    this.whole = !collection
      ? t("scope.document")
      : collection.id
        ? t("scope.collection")
        : collection.name;
    this.state = new ThreadState(docId, collection?.id ?? null, collection?.documents ?? []);
    this.build();
    this.threads = new ThreadsView(this.list, { docId, blocks, onOpen: (id) => this.open(id) });
    if (collection) this.tabs.threads.hidden = true; // threads are listed per document
    this.showEmpty();
  }

  // The current thread, {id, anchor, turns}, or null.
  get thread() {
    return this.state.current;
  }

  build() {
    this.tabs = {
      thread: this.tab("thread", t("panel.answer"), true),
      threads: this.tab("threads", t("panel.threads"), false),
    };
    this.body = el("div", { class: "panel-body", "aria-live": "polite" });
    this.list = el("div", { class: "panel-body", hidden: true });
    this.composer = new Composer({
      blocks: this.blocks,
      whole: this.whole,
      named: !!this.collection && !this.collection.id,
      onSend: (question) => this.sendFollowUp(question),
      onDrop: () => this.dropAnchor(),
      onShow: (anchor) => this.highlightAnchor(anchor),
    });
    const tabs = el("div", { class: "tabs", role: "tablist" }, this.tabs.thread, this.tabs.threads);
    const fresh = el(
      "button",
      {
        class: "icon-button",
        type: "button",
        title: t("panel.new.title"),
        onclick: () => this.reset(),
      },
      t("panel.new"),
    );
    const header = el("header", { class: "panel-header" }, tabs, fresh);
    this.menu = new ThreadMenu({ onDeleted: () => this.afterDelete() });
    this.root.append(header, this.menu.el, this.body, this.list, this.composer.el);
  }

  tab(name, label, active) {
    const onclick = () => this.showTab(name);
    const props = { class: active ? "tab active" : "tab", type: "button", role: "tab", onclick };
    return el("button", { ...props, "aria-selected": String(active) }, label);
  }

  showTab(name) {
    for (const [key, tab] of Object.entries(this.tabs)) {
      tab.classList.toggle("active", key === name);
      tab.setAttribute("aria-selected", String(key === name));
    }
    this.body.hidden = name !== "thread";
    this.composer.el.hidden = name !== "thread";
    this.list.hidden = name !== "threads";
    this.menu.el.hidden = name !== "thread" || !this.thread?.id;
    if (name === "threads") this.threads.load();
  }

  showEmpty() {
    if (this.collection) return this.showCollectionEmpty();
    const hints = QUICK_INTENTS.filter((i) => HINTS[i.id]).map((i) =>
      el("li", {}, el("b", {}, i.label), ` — ${t(HINTS[i.id])}`),
    );
    this.body.replaceChildren(
      el(
        "div",
        { class: "empty" },
        el("div", { class: "empty-icon" }, icon("ask", 28)),
        el("h2", {}, t("panel.empty.title")),
        el("p", {}, t("panel.empty.select")),
        el("p", {}, t("panel.empty.whole")),
        el("ul", { class: "hints" }, hints),
        el("p", { class: "muted" }, t("panel.empty.quotes")),
      ),
    );
  }

  showCollectionEmpty() {
    const all = this.collection.id ? "panel.collection.all" : "panel.picked.all";
    this.body.replaceChildren(
      el(
        "div",
        { class: "empty" },
        el("div", { class: "empty-icon" }, icon("ask", 28)),
        el("h2", {}, t("panel.collection.title", { name: this.collection.name })),
        el("p", {}, t(all)),
        el("p", { class: "muted" }, t("panel.collection.quotes")),
      ),
    );
  }

  reset() {
    this.state.reset();
    this.renderChip();
    this.showTab("thread");
    this.showEmpty();
    this.changed();
  }

  // The thread bar and whoever follows the shown thread (the URL: reader/url-state.js).
  changed() {
    this.menu.show(this.thread);
    this.onThreadChange(this.thread);
  }

  afterDelete() {
    this.reset();
    if (!this.list.hidden) this.threads.load();
  }

  // Sends a question again that a reload interrupted (panel/pending.js), on its thread.
  async resend({ question, intent, anchor, thread_id }) {
    const opened = thread_id ? await this.open(thread_id).catch(() => null) : null;
    if (!opened) {
      this.state.replace(newThread(anchor)); // its thread is gone: the question starts one
      this.body.replaceChildren();
    } else if (anchor) {
      this.state.current = Object.freeze({ ...this.state.current, anchor });
    }
    this.showTab("thread");
    return this.ask(question, intent, 1);
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
    this.composer.flash();
  }

  // The next question asks the whole document; the thread goes on.
  dropAnchor() {
    this.state.dropAnchor();
    this.renderChip();
  }

  // A question from the composer: a follow-up, or with no thread one over the whole
  // document (or the page's documents).
  sendFollowUp(question) {
    if (!this.thread) {
      this.state.startWhole();
      this.body.replaceChildren();
    }
    this.ask(question, null);
  }

  renderChip() {
    this.composer.show(this.thread?.anchor ?? null, this.thread != null);
  }

  highlightAnchor(anchor) {
    if (!anchor?.block_id) return;
    this.highlight(anchor.block_id, anchor.start, anchor.end);
  }

  async ask(question, intent, attempt = 0) {
    const turn = this.turn({ question, intent, anchor: this.thread.anchor });
    turn.el.scrollIntoView({ block: "nearest" });
    this.renderChip();
    const before = this.thread;
    try {
      for await (const event of this.state.ask(question, intent, attempt)) turn.on(event);
    } catch (error) {
      turn.fail(error);
    }
    if (this.thread !== before && this.thread?.id) this.changed();
  }

  async open(threadId) {
    const turns = await this.state.open(threadId);
    this.body.replaceChildren();
    for (const stored of turns) this.turn(stored).showAnswer(stored.answer);
    this.showTab("thread");
    this.renderChip();
    this.body.lastElementChild?.scrollIntoView({ block: "start" });
    this.changed();
    return turns;
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
