// Selections: a DOM selection maps to block offsets through the segments' data
// attributes; a small floating button appears beside a selection (nothing pops up on
// selection alone) and opens the ask box when clicked. Copying from a PDF's text layer
// copies the parsed text of the selection (its spans are absolutely placed lines with
// nothing between them: the browser would glue "the" and "query" at a line end).

import { el, icon } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { cpSlice, unitsToCp } from "../lib/offsets.js";

// Blocks a drag passes over without meaning them: a footnote at the foot of the first
// column lies between it and the next in the DOM, as do captions, headers and footers.
const ASIDE_KINDS = new Set(["footnote", "caption", "header", "footer"]);

// The block spans a range covers, in document order: [{block_id, start, end}]. An aside
// block is left out unless the selection starts or ends in it.
export function rangeToSpans(range, root) {
  const spans = [];
  for (const seg of root.querySelectorAll(".seg")) {
    if (!range.intersectsNode(seg)) continue;
    const part = coveredPart(range, seg);
    if (!part) continue;
    const last = spans[spans.length - 1];
    if (last && last.block_id === part.block_id && part.start >= last.end) last.end = part.end;
    else spans.push({ ...part, kind: seg.dataset.kind ?? "" });
  }
  const inner = (i) => i > 0 && i < spans.length - 1;
  return spans
    .filter((span, i) => !(inner(i) && ASIDE_KINDS.has(span.kind)))
    .map(({ block_id, start, end }) => ({ block_id, start, end }));
}

function coveredPart(range, seg) {
  const text = seg.textContent;
  const node = seg.firstChild;
  let from = 0;
  let to = text.length;
  if (seg.contains(range.startContainer))
    from = range.startContainer === node ? range.startOffset : 0;
  if (seg.contains(range.endContainer)) {
    if (range.endContainer === node) to = range.endOffset;
    else if (range.endContainer === seg) to = range.endOffset === 0 ? 0 : text.length;
  }
  if (from >= to) return null;
  const base = Number(seg.dataset.start);
  return {
    block_id: seg.dataset.block,
    start: base + unitsToCp(text, from),
    end: base + unitsToCp(text, to),
  };
}

// {block_id, start, end, text, spans}: the first block's span is the anchor; the text
// is what was selected, from the parsed block text (not from the rendered layout).
export function describeSelection(spans, blockText) {
  if (!spans.length) return null;
  const text = spans.map((s) => cpSlice(blockText(s.block_id), s.start, s.end)).join("\n");
  const first = spans[0];
  return { block_id: first.block_id, start: first.start, end: first.end, text, spans };
}

export class SelectionWatcher {
  constructor(root, scroller, { blockText, onAsk, onReanchor, canReanchor }) {
    this.root = root;
    this.scroller = scroller;
    this.blockText = blockText;
    this.canReanchor = canReanchor;
    this.current = null;
    this.askButton = el(
      "button",
      { class: "fab-ask", type: "button", title: t("selection.ask.title") },
      icon("ask", 16),
      el("span", {}, t("selection.ask")),
    );
    this.reanchorButton = el(
      "button",
      { class: "fab-reanchor", type: "button", title: t("selection.reanchor.title") },
      icon("reanchor", 15),
      el("span", {}, t("selection.reanchor")),
    );
    this.fab = el(
      "div",
      { class: "fab", role: "toolbar", "aria-label": t("selection.actions"), hidden: true },
      this.askButton,
      this.reanchorButton,
    );
    document.body.append(this.fab);
    for (const button of [this.askButton, this.reanchorButton]) {
      button.addEventListener("mousedown", (e) => e.preventDefault()); // keep the selection
    }
    this.askButton.addEventListener(
      "click",
      () => this.current && onAsk(this.current, this.fab.getBoundingClientRect()),
    );
    this.reanchorButton.addEventListener("click", () => {
      if (this.current) onReanchor(this.current);
      this.hide();
    });
    this.listen();
  }

  // Document and scroller listeners go with the watcher: destroy() aborts them all at once.
  listen() {
    this.listening = new AbortController();
    const options = { signal: this.listening.signal };
    const later = () => setTimeout(() => this.check(), 0);
    document.addEventListener("mouseup", later, options);
    document.addEventListener("keyup", (e) => e.key !== "Escape" && later(), options);
    document.addEventListener("selectionchange", () => this.onSelectionChange(), options);
    document.addEventListener("copy", (event) => this.onCopy(event), options);
    this.scroller.addEventListener("scroll", () => this.place(), { ...options, passive: true });
  }

  check() {
    if (this.listening.signal.aborted) return; // a check queued just before destroy()
    const found = this.selected();
    if (!found) return this.hide();
    this.current = { range: found.range.cloneRange(), selection: found.described };
    this.reanchorButton.hidden = !this.canReanchor();
    this.fab.hidden = false;
    this.place();
  }

  // A PDF's text layer copies as the parsed text: words at line ends keep their space.
  onCopy(event) {
    const found = this.root.classList.contains("pdf-doc") && this.selected();
    if (!found) return;
    event.clipboardData.setData("text/plain", found.described.text);
    event.preventDefault();
  }

  // The document's selection as {range, described}, or null when none is in the document.
  selected() {
    const selection = getSelection();
    if (!selection.rangeCount || selection.isCollapsed) return null;
    const range = selection.getRangeAt(0);
    if (!this.root.contains(range.commonAncestorContainer) && !range.intersectsNode(this.root))
      return null;
    const described = describeSelection(rangeToSpans(range, this.root), this.blockText);
    return described ? { range, described } : null;
  }

  onSelectionChange() {
    const selection = getSelection();
    if (!this.fab.hidden && (!selection.rangeCount || selection.isCollapsed)) this.hide();
  }

  // Beside the end of the selection, kept inside the viewport.
  place() {
    if (this.fab.hidden || !this.current) return;
    const rects = [...this.current.range.getClientRects()].filter(
      (r) => r.width > 0 && r.height > 0,
    );
    const last = rects[rects.length - 1];
    if (!last) return this.hide();
    const box = this.fab.getBoundingClientRect();
    const left = Math.min(last.right + 8, innerWidth - box.width - 8);
    const top = Math.min(
      Math.max(last.top + last.height / 2 - box.height / 2, 8),
      innerHeight - box.height - 8,
    );
    this.fab.style.left = `${left}px`;
    this.fab.style.top = `${top}px`;
  }

  hide() {
    this.fab.hidden = true;
  }

  // Removes the floating button and every listener (for a view that unmounts).
  destroy() {
    this.listening.abort();
    this.current = null;
    this.hide();
    this.fab.remove();
  }
}
