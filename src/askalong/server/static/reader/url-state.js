// The reader's place in its address, so a reload or Back/Forward comes back to it:
// `reader.html?doc=<id>#b=<block>&o=<px>&p=<page>&z=<zoom>&t=<thread>&turn=<n>&h=<block>&hs=<start>&he=<end>`
// (or `&h=<block>&hl=<line>`).
//
// The scroll position is the block at the top of the view and how far (CSS px) the view's
// top is past that block's top: a block id survives a narrower window or a re-render where
// a pixel offset would not (`p`, its page, is for people reading the address). Scrolling
// replaces the history entry; showing another thread, or a new turn, pushes one, so Back
// returns to the thread before. `turn` is the turn being read in the panel (the last one
// when a thread is opened or grows). `z` is the zoom (zoom.js toHash: "fit-page", or a
// scale such as 1.5), left out at the document's default; it is applied before the scroll.
// `h`, `hs`, `he` are a span to highlight (a block and code-point offsets [start, end)): a
// link from elsewhere (the chat page's citation chips) opens the reader at a cited span;
// the highlight scrolls to it unless the address also has a scroll position (`b`). `h` with
// `hl` is a source line of a code block instead (go to definition from another file,
// symbols.js), shown at its definition line (codeview.js definitionLine).

import { boxesOn } from "./box-pages.js";
import { definitionLine, lineSpan } from "./codeview.js";

const SCROLL_SETTLE_MS = 150;

export function readHash(hash = location.hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const number = (key) => (params.has(key) ? Number(params.get(key)) : null);
  return {
    block: params.get("b"),
    offset: number("o") ?? 0,
    page: number("p"),
    zoom: params.get("z"),
    thread: params.get("t"),
    turn: number("turn"),
    span: spanOf(params),
    line: lineOf(params),
  };
}

function lineOf(params) {
  const line = Number(params.get("hl"));
  return params.get("h") && Number.isInteger(line) && line > 0
    ? { block: params.get("h"), line }
    : null;
}

function spanOf(params) {
  const [start, end] = [Number(params.get("hs")), Number(params.get("he"))];
  const valid = params.get("h") && Number.isInteger(start) && Number.isInteger(end) && start < end;
  return valid ? { block: params.get("h"), start, end } : null;
}

/**
 * @typedef {object} ReaderAddress
 * @property {string} [block] @property {number} [offset] @property {number} [page]
 * @property {string} [zoom] @property {string} [thread] @property {number} [turn]
 * @property {{block: string, start: number, end: number}} [span]
 * @property {{block: string, line: number}} [line]
 */

/** @param {ReaderAddress} address */
export function hashOf({ block, offset, page, zoom, thread, turn, span, line }) {
  const params = new URLSearchParams();
  if (block) params.set("b", block);
  if (block && offset) params.set("o", String(Math.round(offset)));
  if (page) params.set("p", String(page));
  if (zoom) params.set("z", zoom);
  if (thread) params.set("t", thread);
  if (thread && turn != null) params.set("turn", String(turn));
  if (span) {
    params.set("h", span.block);
    params.set("hs", String(span.start));
    params.set("he", String(span.end));
  } else if (line) {
    params.set("h", line.block);
    params.set("hl", String(line.line));
  }
  const text = params.toString();
  return text ? `#${text}` : "";
}

export class UrlState {
  constructor({ scroller, root, structure, panel, highlight = null }) {
    this.scroller = scroller;
    this.highlight = highlight; // (blockId, start, end, {scroll}): the address's span
    this.root = root;
    this.panel = panel;
    this.blocks = new Map(structure.blocks.map((block) => [block.id, block]));
    this.byPage = Map.groupBy(
      structure.blocks.filter((block) => block.page && block.boxes?.length),
      (block) => block.page,
    );
    this.pages = structure.pages ?? [];
    this.isPdf = structure.document.format === "pdf";
    this.state = readHash();
    this.restoring = false;
    this.restores = Promise.resolve(); // the restore under way (restore)
    this.timer = null;
    this.zoom = null; // follow(zoom): the reader's Zoom, once it exists
    this.listening = new AbortController();
    const options = { signal: this.listening.signal, passive: true };
    scroller.addEventListener("scroll", () => this.onScroll(), options);
    panel.body.addEventListener("scroll", () => this.onScroll(), options);
    addEventListener("popstate", () => this.restore(), { signal: this.listening.signal });
  }

  // The zoom the address keeps (zoom.js); a zoom changed is written like a scroll.
  follow(zoom) {
    this.zoom = zoom;
  }

  // Follows the panel's thread (Panel's onThreadChange).
  threadChanged(thread) {
    if (this.restoring) return;
    const next = { thread: thread?.id ?? null, turn: thread?.id ? thread.turns - 1 : null };
    if (next.thread === this.state.thread && next.turn === this.state.turn) return;
    clearTimeout(this.timer); // a scroll not yet written goes into the entry pushed
    this.state = { ...this.state, ...this.topBlock(), ...next };
    history.pushState(null, "", hashOf(this.state) || location.pathname + location.search);
  }

  // Back to the place in the address: its thread and turn, then its scroll position. One
  // at a time, each reading the address when it starts: two quick Back presses end on the
  // second's thread, never on whichever thread's fetch came back last.
  restore() {
    const run = this.restores.then(() => this.restoreNow());
    this.restores = run.catch(() => {});
    return run;
  }

  async restoreNow() {
    clearTimeout(this.timer); // a scroll of the entry left must not be written over this one
    const address = location.hash;
    const wanted = readHash(address);
    this.restoring = true;
    try {
      if (wanted.thread !== (this.panel.thread?.id ?? null)) await this.showThread(wanted.thread);
      // Moved on meanwhile (the next restore is queued): writing now would put this place
      // over the entry the address has moved to.
      if (location.hash !== address) return;
      this.scrollPanelTo(wanted.turn);
      // Laid out at once at the zoom wanted (its images follow), so the block is measured there.
      if (this.zoom && wanted.zoom !== this.zoom.toHash()) this.zoom.fromHash(wanted.zoom);
      this.scrollTo(wanted);
      this.showSpan(wanted);
    } finally {
      this.restoring = false;
    }
    this.state = { ...wanted, thread: this.panel.thread?.id ?? null };
    this.write();
  }

  // The address's span (or line) highlighted, scrolled to when no block says where to be.
  showSpan({ span, line, block }) {
    const shown = span ?? (line && this.lineSpan(line));
    if (!shown || !this.highlight || !this.blocks.has(shown.block)) return;
    this.highlight(shown.block, shown.start, shown.end, { scroll: !block });
  }

  lineSpan({ block: id, line }) {
    const block = this.blocks.get(id);
    const span = block?.lines && lineSpan(block, definitionLine(block, line));
    return span ? { block: id, start: span[0], end: span[1] } : null;
  }

  async showThread(threadId) {
    if (!threadId) return this.panel.reset();
    try {
      await this.panel.open(threadId);
    } catch {
      this.panel.reset(); // deleted, or not this user's: the empty panel
    }
  }

  scrollPanelTo(turn) {
    const turns = this.panel.body.querySelectorAll(".turn");
    if (turn != null && turns[turn]) turns[turn].scrollIntoView({ block: "start" });
  }

  // Scrolls the document so that `block`'s top sits `offset` px above the view's top.
  scrollTo({ block, offset, page }) {
    const rect = block ? this.blockRect(block) : null;
    if (rect) {
      const top = this.scroller.getBoundingClientRect().top;
      this.scroller.scrollTop += rect.top - top + offset;
    } else if (page && this.isPdf) {
      this.root.querySelector(`.page[data-page="${page}"]`)?.scrollIntoView({ block: "start" });
    }
  }

  onScroll() {
    if (this.restoring) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.write(), SCROLL_SETTLE_MS);
  }

  // The current place, written over the current history entry.
  write() {
    const place = this.topBlock();
    const zoom = this.zoom ? this.zoom.toHash() : this.state.zoom;
    this.state = { ...this.state, ...place, zoom, turn: this.topTurn() ?? this.state.turn };
    const url = hashOf(this.state) || location.pathname + location.search;
    if (url !== location.hash) history.replaceState(null, "", url);
  }

  // The last turn starting above the middle of the panel: the one being read.
  topTurn() {
    if (!this.panel.thread?.id) return null;
    const box = this.panel.body.getBoundingClientRect();
    const middle = box.top + box.height / 2;
    const turns = [...this.panel.body.querySelectorAll(".turn")];
    const index = turns.findLastIndex((turn) => turn.getBoundingClientRect().top <= middle);
    return index < 0 ? null : index;
  }

  // {block, offset, page} of the block at the view's top (null block before any).
  topBlock() {
    const top = this.scroller.getBoundingClientRect().top;
    const found = this.isPdf ? this.pdfTopBlock(top) : this.flowTopBlock(top);
    if (!found) return { block: null, offset: 0, page: null };
    const { block, rect } = found;
    return { block: block.id, offset: top - rect.top, page: this.isPdf ? block.page : null };
  }

  // On the first page reaching below the view's top, the highest block whose bottom is
  // below it (columns side by side: the one starting highest); else a later page's.
  pdfTopBlock(top) {
    for (const pageEl of this.root.querySelectorAll(".page")) {
      if (pageEl.getBoundingClientRect().bottom <= top) continue;
      const onPage = (this.byPage.get(Number(pageEl.dataset.page)) ?? [])
        .map((block) => ({ block, rect: this.blockRect(block.id) }))
        .filter(({ rect }) => rect && rect.bottom > top);
      if (onPage.length)
        return onPage.reduce((best, next) => (next.rect.top < best.rect.top ? next : best));
    }
    return null;
  }

  // Flowing text: blocks are in reading order down the page, so the first one whose
  // bottom is below the view's top (found by bisection over the block elements).
  flowTopBlock(top) {
    const nodes = [...this.root.querySelectorAll("[data-block]")];
    let low = 0;
    let high = nodes.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (nodes[mid].getBoundingClientRect().bottom > top) high = mid;
      else low = mid + 1;
    }
    const node = nodes[low];
    if (!node) return null;
    const block = this.blocks.get(node.dataset.block);
    return block ? { block, rect: this.blockRect(block.id) } : null;
  }

  // A block's vertical extent in client coordinates: for a PDF from its boxes on its page
  // (placeholders are laid out at full size before their image arrives), for flowing text
  // from its elements.
  blockRect(blockId) {
    if (!this.isPdf) {
      const node = this.root.querySelector(`[data-block="${CSS.escape(blockId)}"]`);
      return node ? node.getBoundingClientRect() : null;
    }
    const block = this.blocks.get(blockId);
    const info = block && this.pages[block.page - 1];
    const pageEl = info && this.root.querySelector(`.page[data-page="${block.page}"]`);
    if (!pageEl || !block.boxes?.length) return null;
    const rect = pageEl.getBoundingClientRect();
    const scale = rect.height / info.height;
    const boxes = boxesOn(block, block.page); // its lines on its first page
    const tops = boxes.map((box) => box[1]);
    const bottoms = boxes.map((box) => box[3]);
    return {
      top: rect.top + Math.min(...tops) * scale,
      bottom: rect.top + Math.max(...bottoms) * scale,
    };
  }

  destroy() {
    clearTimeout(this.timer);
    this.listening.abort();
  }
}
