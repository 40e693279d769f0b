// The document's threads, newest first as the server lists them; clicking one opens it.

import * as api from "../lib/api.js";
import { el, shorten } from "../lib/dom.js";
import { t, tn } from "../lib/i18n.js";
import { whereOf } from "./where.js";

export class ThreadsView {
  constructor(root, { docId, blocks, onOpen }) {
    this.root = root;
    this.docId = docId;
    this.blocks = blocks;
    this.onOpen = onOpen;
  }

  async load() {
    this.root.replaceChildren(muted(t("threads.loading")));
    try {
      const threads = await api.listThreads(this.docId);
      const items = threads.map((t) => this.item(t));
      this.root.replaceChildren(...(items.length ? items : [muted(t("threads.none"))]));
    } catch (error) {
      this.root.replaceChildren(muted(error.message));
    }
  }

  item(thread) {
    const anchor = thread.anchor;
    const where = anchor ? whereOf(anchor.block_id, this.blocks, anchor.page) : "";
    const quoted = anchor?.selected_text ? `“${shorten(anchor.selected_text, 70)}”` : "";
    const turns = tn("threads.turns", thread.turns);
    const meta = [where, turns, thread.updated.slice(0, 16).replace("T", " ")]
      .filter(Boolean)
      .join(" · ");
    const open = () => this.onOpen(thread.id);
    return el(
      "button",
      { class: "thread-item", type: "button", dataset: { id: thread.id }, onclick: open },
      el("span", { class: "thread-title" }, shorten(thread.title, 90)),
      quoted && el("span", { class: "thread-anchor" }, quoted),
      el("span", { class: "thread-meta" }, meta),
    );
  }
}

function muted(text) {
  return el("p", { class: "muted pad" }, text);
}
