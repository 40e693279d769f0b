// The outline sidebar: the document's sections, always at hand beside the text, collapsed
// or open (remembered in localStorage), with the section being read marked while scrolling.
// A click shows the section's heading (highlighted, scrolled into view). A code view
// passes its symbols as `entries` and a `row` that wraps each entry's button (symbols.js).
// The entries are one Tab stop (the section being read), walked with the arrow keys, Home
// and End, so Tab reaches the page without passing every heading first.

import { el, shorten } from "../lib/dom.js";
import { SHOWN_EVENT } from "./highlight.js";
import { onScrollFrame, readingLine } from "./position.js";

const $ = (selector) => document.querySelector(selector);
const MAX_ENTRIES = 400;
const STORED = "askalong.outline"; // "open" | "closed"
// Narrower than this, the sidebar starts closed: the page keeps 720+ px beside the panel.
const WIDE_ENOUGH = 1380;

export class Outline {
  constructor(scroller, root, structure, { highlight, signal, entries = null, row = null }) {
    this.scroller = scroller;
    this.root = root;
    this.blocks = new Map(structure.blocks.map((b) => [b.id, b]));
    this.order = new Map(structure.blocks.map((b, i) => [b.id, i]));
    this.shown = null; // a highlight scrolled to, while the view stays where it put it
    this.entries = (entries ?? structure.outline).slice(0, MAX_ENTRIES);
    this.list = $("#outline");
    this.toggleButton = $("#toggle-outline");
    this.current = -1;
    const empty = !this.entries.length;
    this.toggleButton.hidden = empty;
    $("#outline-sidebar").hidden = empty;
    if (empty) return;
    this.items = this.entries.map((entry) => this.item(entry, highlight));
    const rows = row ? this.items.map((item, i) => row(this.entries[i], item)) : this.items;
    this.list.replaceChildren(...rows);
    this.rove(0);
    this.setOpen(this.storedOpen());
    const options = { signal };
    this.list.addEventListener("keydown", (event) => this.walk(event), options);
    this.toggleButton.addEventListener("click", () => this.setOpen(!this.isOpen(), true), options);
    onScrollFrame(scroller, () => this.markCurrent(), signal);
    const onShown = (event) => {
      this.shown = event.detail;
      this.markCurrent();
    };
    scroller.addEventListener(SHOWN_EVENT, onShown, options);
    requestAnimationFrame(() => this.markCurrent());
  }

  item(entry, highlight) {
    return el(
      "button",
      {
        class: `outline-item level-${Math.min(entry.level, 4)}`,
        type: "button",
        dataset: { block: entry.block_id },
        onclick: () => highlight(entry.block_id, 0, Number.MAX_SAFE_INTEGER),
      },
      el("span", {}, shorten(entry.text, 80)),
      entry.page ? el("span", { class: "muted" }, String(entry.page)) : null,
    );
  }

  // Entry `index` is the list's one Tab stop.
  rove(index) {
    this.items.forEach((item, i) => {
      item.tabIndex = i === index ? 0 : -1;
    });
  }

  walk(event) {
    const at = this.items.indexOf(document.activeElement);
    if (at < 0) return;
    const last = this.items.length - 1;
    const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: last }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    const next = Math.min(Math.max(to, 0), last);
    this.rove(next);
    this.items[next].focus();
  }

  storedOpen() {
    const stored = localStorage.getItem(STORED);
    return stored ? stored === "open" : window.innerWidth >= WIDE_ENOUGH;
  }

  isOpen() {
    return !document.body.classList.contains("outline-closed");
  }

  setOpen(open, remember = false) {
    document.body.classList.toggle("outline-closed", !open);
    this.toggleButton.setAttribute("aria-expanded", String(open));
    if (remember) localStorage.setItem(STORED, open ? "open" : "closed");
  }

  // Where each entry's section starts, in client coordinates: its heading's line on its
  // page (a PDF page is placed before its text layer is built), or its heading's element.
  tops() {
    const pages = new Map();
    const pageRect = (number) => {
      if (!pages.has(number)) {
        const page = this.root.querySelector(`.page[data-page="${number}"]`);
        const scale = page && Number(page.style.getPropertyValue("--scale"));
        pages.set(number, page && [page.getBoundingClientRect(), scale || 1]);
      }
      return pages.get(number);
    };
    return this.entries.map((entry) => {
      const block = this.blocks.get(entry.block_id);
      const onPage = block?.page && pageRect(block.page);
      if (onPage) {
        const [rect, scale] = onPage;
        return rect.top + (block.boxes?.[0]?.[1] ?? 0) * scale;
      }
      const node = this.root.querySelector(`[data-block="${CSS.escape(entry.block_id)}"]`);
      return node ? node.getBoundingClientRect().top : Number.POSITIVE_INFINITY;
    });
  }

  // The section of a highlight just scrolled to (a quote in a two-column page's right
  // column lies beside the left column's later headings), while the view stays put; else
  // the section the reading line is in.
  markCurrent() {
    const index = this.shownSection() ?? this.sectionAtLine();
    this.mark(index);
  }

  // The last heading, in reading order, at or above the reading line (a scan, not a
  // search: in two columns the right column's headings start higher up).
  sectionAtLine() {
    const line = readingLine(this.scroller);
    return this.tops().findLastIndex((top) => top <= line);
  }

  // The section holding the highlight scrolled to, or null once the view has moved.
  shownSection() {
    const at = this.shown && this.order.get(this.shown.blockId);
    if (at == null || Math.abs(this.scroller.scrollTop - this.shown.scrollTop) > 1) {
      this.shown = null;
      return null;
    }
    const index = this.entries.findLastIndex((entry) => this.order.get(entry.block_id) <= at);
    return index >= 0 ? index : null;
  }

  mark(index) {
    if (index === this.current) return;
    this.items[this.current]?.classList.remove("current");
    this.items[this.current]?.removeAttribute("aria-current");
    this.current = index;
    const item = this.items[index];
    if (!item) return;
    if (!this.list.contains(document.activeElement)) this.rove(index);
    item.classList.add("current");
    item.setAttribute("aria-current", "location");
    if (this.isOpen()) item.scrollIntoView({ block: "nearest" });
  }

  destroy() {
    this.list.replaceChildren();
    document.body.classList.remove("outline-closed");
  }
}
