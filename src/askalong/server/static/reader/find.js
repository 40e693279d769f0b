// The reader's two searches, labelled apart in the UI: exact find ("Find in document":
// every occurrence of the words typed, case-insensitive and NFKC-folded, counted "2 / 7",
// Enter / Shift+Enter for the next / previous, each one painted in the text through the
// CSS Custom Highlight API) and search by meaning (the server's passage search, a list of
// passages to jump to).

import * as api from "../lib/api.js";
import { el, shorten } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { cpToUnits } from "../lib/offsets.js";
import { findAll, MAX_HITS } from "./findmatch.js";
import { scrollToMiddle } from "./position.js";

const $ = (selector) => document.querySelector(selector);
const TYPING_PAUSE = 150; // ms after the last key before a long document is searched
export const HIT_NAMES = { all: "askalong-find", current: "askalong-find-current" };

export class Find {
  /**
   * @param {HTMLElement} scroller @param {HTMLElement} root @param {any} view @param {any} structure
   * @param {{pageNow?: () => number, signal?: AbortSignal}} [options]
   */
  constructor(scroller, root, view, structure, { pageNow = () => 1, signal } = {}) {
    this.scroller = scroller;
    this.root = root;
    this.view = view;
    this.blocks = structure.blocks;
    this.byId = new Map(structure.blocks.map((b) => [b.id, b]));
    this.pageNow = pageNow;
    this.folded = new Map();
    this.query = "";
    this.hits = [];
    this.index = -1;
    this.input = $("#find");
    this.count = $("#find-count");
    this.listen(signal);
    // A PDF page's text layer is built as it nears the view: its hits are painted then.
    this.watcher = new MutationObserver((records) => {
      if (
        this.hits.length &&
        records.some(
          (r) => r.target instanceof Element && r.target.classList.contains("text-layer"),
        )
      )
        this.paint();
    });
    this.watcher.observe(root, { childList: true, subtree: true });
  }

  listen(signal) {
    const options = { signal };
    let timer = 0;
    this.input.addEventListener(
      "input",
      () => {
        clearTimeout(timer);
        timer = setTimeout(() => this.search(this.input.value), TYPING_PAUSE);
      },
      options,
    );
    this.input.addEventListener("keydown", (event) => this.onKey(event, timer), options);
    $("#find-next").addEventListener("click", () => this.move(1), options);
    $("#find-prev").addEventListener("click", () => this.move(-1), options);
    document.addEventListener(
      "keydown",
      (event) => {
        if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "f") {
          event.preventDefault(); // the browser's own find cannot see unbuilt PDF pages
          this.input.focus();
          this.input.select();
        }
      },
      options,
    );
  }

  onKey(event, timer) {
    if (event.key === "Escape") {
      this.input.value = "";
      this.search("");
      return;
    }
    if (event.key !== "Enter" || event.isComposing) return;
    event.preventDefault();
    clearTimeout(timer);
    if (this.input.value !== this.query) this.search(this.input.value);
    else this.move(event.shiftKey ? -1 : 1);
  }

  // Find every hit of `query` and show the first one at or after the page being read.
  search(query) {
    this.query = query;
    this.hits = findAll(this.blocks, query, this.folded);
    const page = this.pageNow();
    const ahead = this.hits.findIndex((hit) => (this.byId.get(hit.blockId).page ?? 1) >= page);
    this.index = this.hits.length ? Math.max(ahead, 0) : -1;
    this.paint();
    if (this.index >= 0) this.showCurrent();
    this.showCount();
    return this.hits.length;
  }

  move(direction) {
    if (!this.hits.length) return;
    this.index = (this.index + direction + this.hits.length) % this.hits.length;
    this.showCurrent();
    this.showCount();
  }

  showCount() {
    this.count.dataset.query = this.query; // which query the count is of
    const total = `${this.hits.length}${this.hits.length >= MAX_HITS ? "+" : ""}`;
    this.count.textContent = this.query.trim()
      ? this.hits.length
        ? `${this.index + 1} / ${total}`
        : t("find.none")
      : "";
  }

  // Paint every hit whose text is in the page now (unbuilt PDF pages are painted later).
  paint() {
    const shown = new Map();
    for (const seg of this.root.querySelectorAll(".seg")) {
      const id =
        seg.getAttribute("data-block") ?? seg.closest("[data-block]")?.getAttribute("data-block");
      if (!shown.has(id)) shown.set(id, []);
      shown.get(id).push(seg);
    }
    const ranges = this.hits.flatMap((hit) => spanRanges(shown.get(hit.blockId) ?? [], hit));
    CSS.highlights.set(HIT_NAMES.all, new Highlight(...ranges));
    if (this.index < 0) CSS.highlights.delete(HIT_NAMES.current);
  }

  // The current hit, marked apart and scrolled to the middle (its page built first).
  showCurrent() {
    const hit = this.hits[this.index];
    const ranges = spanRanges(this.view.segments(this.byId.get(hit.blockId)), hit);
    const current = new Highlight(...ranges);
    current.priority = 1;
    CSS.highlights.set(HIT_NAMES.current, current);
    const rects = ranges.flatMap((r) => [...r.getClientRects()]);
    if (!rects.length) return;
    const box = {
      top: Math.min(...rects.map((r) => r.top)),
      bottom: Math.max(...rects.map((r) => r.bottom)),
      left: Math.min(...rects.map((r) => r.left)),
      right: Math.max(...rects.map((r) => r.right)),
    };
    scrollToMiddle(this.scroller, box);
  }

  destroy() {
    this.watcher.disconnect();
    CSS.highlights.delete(HIT_NAMES.all);
    CSS.highlights.delete(HIT_NAMES.current);
  }
}

// DOM ranges over the part of [start, end) each segment holds.
function spanRanges(segs, { start, end }) {
  const ranges = [];
  for (const seg of segs) {
    const base = Number(seg.dataset.start);
    const from = Math.max(start, base);
    const to = Math.min(end, Number(seg.dataset.end));
    if (from >= to || !seg.firstChild) continue;
    const text = seg.firstChild.textContent;
    const range = new Range();
    range.setStart(seg.firstChild, cpToUnits(text, from - base));
    range.setEnd(seg.firstChild, cpToUnits(text, to - base));
    ranges.push(range);
  }
  return ranges;
}

// -- search by meaning (the server's passage search) -----------------------------------------

export function setUpSearch(docId, highlight, options) {
  const input = $("#search");
  const results = $("#results");
  const onKey = async (event) => {
    if (event.key === "Escape") results.hidden = true;
    if (event.key !== "Enter" || !input.value.trim()) return;
    results.hidden = false;
    results.replaceChildren(muted(t("common.searching")));
    try {
      const found = await api.search(input.value.trim(), docId);
      const hits = found.hits.map((hit) => searchHit(hit, highlight, results));
      results.replaceChildren(...(hits.length ? hits : [muted(t("reader.search.none"))]));
    } catch (error) {
      results.replaceChildren(muted(error.message));
    }
  };
  input.addEventListener("keydown", onKey, options);
}

function searchHit(hit, highlight, results) {
  const span = hit.spans[0];
  const where = [
    hit.page_start ? t("where.page", { page: hit.page_start }) : "",
    hit.section_path[hit.section_path.length - 1] ?? "",
  ]
    .filter(Boolean)
    .join(" · ");
  return el(
    "button",
    {
      class: "result",
      type: "button",
      onclick: () => {
        results.hidden = true;
        highlight(span.block_id, span.start, span.end);
      },
    },
    el("span", { class: "result-where" }, shorten(where, 70)),
    el("span", { class: "result-text" }, shorten(hit.text, 180)),
  );
}

function muted(text) {
  return el("p", { class: "muted pad" }, text);
}
