// Highlighting a block span [start, end): rectangles over the exact characters, drawn
// in an overlay, then scrolled to the centre of the reader.
// PDF: horizontal extent measured on the text-layer span with a DOM Range, vertical
// extent from the line's box (the span); on a turned page the two swap. HTML: the
// Range's own client rectangles.

import { el } from "../lib/dom.js";
import { cpSlice, cpToUnits } from "../lib/offsets.js";

// Sent on the scroller when a highlight was scrolled into view: {blockId, scrollTop}.
export const SHOWN_EVENT = "askalong:shown";

export class Highlighter {
  constructor(scroller, view, blocks) {
    this.scroller = scroller;
    this.view = view;
    this.blocks = blocks;
    this.marks = [];
    this.text = "";
    this.last = null;
    this.resizing = new ResizeObserver(() => this.last && this.draw(...this.last));
    this.resizing.observe(scroller);
  }

  // Returns the highlighted text (equal to block.text[start:end] when it is all shown).
  highlight(blockId, start, end, { scroll = true } = {}) {
    const block = this.blocks.get(blockId);
    if (!block) throw new Error(`no block ${blockId}`);
    this.last = [block, start, end];
    this.draw(block, start, end);
    if (scroll && this.marks.length) {
      this.scrollTo(this.marks);
      // The outline marks the shown text's section, not the one the view's middle is in.
      const detail = { blockId, scrollTop: this.scroller.scrollTop };
      this.scroller.dispatchEvent(new CustomEvent(SHOWN_EVENT, { detail }));
    }
    return this.text;
  }

  draw(block, start, end) {
    this.clear();
    const pieces = [];
    let previousEnd = null;
    for (const seg of this.view.segments(block)) {
      const base = Number(seg.dataset.start);
      const from = Math.max(start, base);
      const to = Math.min(end, Number(seg.dataset.end));
      if (from >= to) continue;
      const range = document.createRange();
      const text = seg.firstChild.textContent;
      range.setStart(seg.firstChild, cpToUnits(text, from - base));
      range.setEnd(seg.firstChild, cpToUnits(text, to - base));
      // a code line's indentation is its own first segment: marked, it reads as a stray bar
      const indent = !seg.previousElementSibling && !range.toString().trim();
      if (!indent) this.mark(seg, range);
      pieces.push(
        previousEnd == null ? "" : cpSlice(block.text, previousEnd, from),
        range.toString(),
      );
      previousEnd = to;
    }
    this.text = pieces.join("");
  }

  mark(seg, range) {
    const host = this.view.overlayHost(seg);
    const origin = host.getBoundingClientRect();
    const line = seg.getBoundingClientRect();
    const isPdf = host.classList.contains("page");
    const turned = isPdf && Number(host.dataset.turn) % 180 !== 0;
    for (const rect of range.getClientRects()) {
      if (Math.min(rect.width, rect.height) < 0.5) continue;
      const [left, width] = turned ? [line.left, line.width] : [rect.left, rect.width];
      const [top, height] = isPdf && !turned ? [line.top, line.height] : [rect.top, rect.height];
      const mark = el("div", { class: "hl" });
      mark.style.left = `${left - origin.left - 1}px`;
      mark.style.top = `${top - origin.top - 1}px`;
      mark.style.width = `${width + 2}px`;
      mark.style.height = `${height + 2}px`;
      host.append(mark);
      this.marks.push(mark);
    }
  }

  scrollTo(marks) {
    const view = this.scroller.getBoundingClientRect();
    const top = Math.min(...marks.map((m) => m.getBoundingClientRect().top));
    const bottom = Math.max(...marks.map((m) => m.getBoundingClientRect().bottom));
    const target = this.scroller.scrollTop + (top + bottom) / 2 - view.top - view.height / 2;
    this.scroller.scrollTo({ top: Math.max(target, 0), behavior: "instant" });
    for (const mark of marks) mark.classList.add("pulse");
  }

  clear() {
    for (const mark of this.marks) mark.remove();
    this.marks = [];
    this.text = "";
  }

  destroy() {
    this.resizing.disconnect();
    this.last = null;
    this.clear();
  }
}
