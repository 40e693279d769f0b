// The block cursor: a visible frame around one block (or a run of blocks, when extended
// with Shift) that the keyboard moves through the document. It offers the same selection
// a mouse drag over those blocks gives (selection.js describeSelection), so asking from
// it sends the same anchor.

import { describeSelection } from "./selection.js";
import { el } from "../lib/dom.js";

// Page furniture is not something to ask about: the cursor steps over it.
const SKIPPED_KINDS = new Set(["header", "footer"]);

export class BlockCursor {
  // `blocks`: the structure's blocks, in document order.
  constructor(scroller, root, view, blocks) {
    this.scroller = scroller;
    this.root = root;
    this.view = view;
    this.byId = new Map(blocks.map((b) => [b.id, b]));
    this.order = blocks.filter((b) => !SKIPPED_KINDS.has(b.kind) && b.text.trim());
    this.index = new Map(this.order.map((b, i) => [b.id, i]));
    this.anchor = null; // where the run started (an index into `order`)
    this.head = null; // where it ends now
    this.frames = [];
    this.resizing = new ResizeObserver(() => this.isActive && this.draw());
    this.resizing.observe(scroller);
    this.resizing.observe(root);
  }

  get isActive() {
    return this.head != null;
  }

  // One block on (delta +1) or back (-1); `extend` keeps the run's start where it was.
  move(delta, { extend = false } = {}) {
    if (!this.order.length) return;
    if (!this.isActive) {
      this.anchor = this.head = this.firstInView();
    } else {
      this.head = this.nextShown(this.head, delta);
      if (!extend) this.anchor = this.head;
    }
    this.draw();
    this.frames[this.head >= this.anchor ? this.frames.length - 1 : 0]?.scrollIntoView({
      block: "nearest",
    });
  }

  // The next block in `delta`'s direction that the view shows (a PDF block without line
  // boxes has nothing to frame), or `from` itself at either end.
  nextShown(from, delta) {
    for (let i = from + delta; i >= 0 && i < this.order.length; i += delta) {
      if (this.view.segments(this.order[i]).length) return i;
    }
    return from;
  }

  // The first block whose text starts inside the reader's viewport (else the first block).
  firstInView() {
    const view = this.scroller.getBoundingClientRect();
    for (const seg of this.root.querySelectorAll(".seg")) {
      const box = seg.getBoundingClientRect();
      const at = this.index.get(seg.dataset.block);
      if (at != null && box.height > 0 && box.top >= view.top && box.top < view.bottom) return at;
    }
    return this.nextShown(-1, 1);
  }

  // The cursor's blocks, first to last.
  selectedBlocks() {
    if (!this.isActive) return [];
    const [from, to] = [Math.min(this.anchor, this.head), Math.max(this.anchor, this.head)];
    return this.order.slice(from, to + 1);
  }

  // The selection these blocks make ({block_id, start, end, text, spans}), as if dragged
  // over from the first segment's start to the last one's end.
  selection() {
    const spans = this.selectedBlocks().flatMap((block) => {
      const segs = this.view.segments(block);
      if (!segs.length) return [];
      const start = Math.min(...segs.map((s) => Number(s.dataset.start)));
      const end = Math.max(...segs.map((s) => Number(s.dataset.end)));
      return [{ block_id: block.id, start, end }];
    });
    const blockText = (id) => this.byId.get(id)?.text ?? "";
    return describeSelection(spans, blockText);
  }

  // The frame's on-screen box (the last frame: the ask box opens beside it).
  rect() {
    return this.frames[this.frames.length - 1]?.getBoundingClientRect() ?? null;
  }

  // One frame per block and overlay host (a PDF block split over two pages gets two).
  draw() {
    this.removeFrames();
    for (const block of this.selectedBlocks()) {
      const byHost = new Map();
      for (const seg of this.view.segments(block)) {
        const host = this.view.overlayHost(seg);
        if (!byHost.has(host)) byHost.set(host, []);
        byHost.get(host).push(seg.getBoundingClientRect());
      }
      for (const [host, rects] of byHost) this.frame(host, rects, block.id);
    }
  }

  frame(host, rects, blockId) {
    const shown = rects.filter((r) => r.width > 0 && r.height > 0);
    if (!shown.length) return;
    const origin = host.getBoundingClientRect();
    const left = Math.min(...shown.map((r) => r.left));
    const top = Math.min(...shown.map((r) => r.top));
    const right = Math.max(...shown.map((r) => r.right));
    const bottom = Math.max(...shown.map((r) => r.bottom));
    const frame = el("div", { class: "block-cursor", dataset: { block: blockId } });
    frame.style.left = `${left - origin.left - 4}px`;
    frame.style.top = `${top - origin.top - 3}px`;
    frame.style.width = `${right - left + 8}px`;
    frame.style.height = `${bottom - top + 6}px`;
    host.append(frame);
    this.frames.push(frame);
  }

  removeFrames() {
    for (const frame of this.frames) frame.remove();
    this.frames = [];
  }

  clear() {
    this.anchor = this.head = null;
    this.removeFrames();
  }

  destroy() {
    this.resizing.disconnect();
    this.clear();
  }
}
