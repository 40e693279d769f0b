// Clickable identifiers in the code view: a click on a name (nothing selected) opens a
// card beside it with its definitions (go to definition), its references in the
// repository counted per file, and for a function or class its calls and callers (the
// outline's lists, symbols.js), from GET /api/documents/{id}/identifiers/{name}. A place
// in this file is highlighted at once; one in another file opens that file at the line.
// From the keyboard: Enter at a caret inside a name (caret browsing) opens its card too;
// focus moves into the card and Tab stays in it; Escape closes it and gives focus back.

import * as api from "../lib/api.js";
import { el } from "../lib/dom.js";
import { trapFocus } from "../lib/focus-trap.js";
import { t, tn } from "../lib/i18n.js";
import { definitionLine, lineSpan } from "./codeview.js";
import { hashOf } from "./url-state.js";

// Tokens that are never a name to look up (their colours say what they are).
const NOT_NAMES = ["tok-comment", "tok-string", "tok-keyword", "tok-number", "tok-operator"];
const NAME_CHAR = /[\w$]/;
const CODE_SYMBOLS = new Set(["function", "method", "class"]);

export class IdentifierCard {
  // `cursorOn()`: whether the block cursor is framing blocks (its Enter asks about them).
  constructor({ root, docId, blocks, highlight, symbols, cursorOn = () => false, signal }) {
    this.root = root;
    this.docId = docId;
    this.blocks = blocks;
    this.highlight = highlight;
    this.symbols = symbols;
    this.cursorOn = cursorOn;
    this.card = null;
    root.addEventListener("click", (event) => this.onClick(event), { signal });
    root.addEventListener("keydown", (event) => this.onKey(event), { signal });
    document.addEventListener("keydown", (event) => event.key === "Escape" && this.dismiss(), {
      signal,
    });
    document.addEventListener(
      "pointerdown",
      (event) => this.card?.contains(event.target) || this.close(),
      {
        signal,
      },
    );
  }

  onClick(event) {
    if (!window.getSelection().isCollapsed) return; // a selection is for asking
    const found = nameAt(event.clientX, event.clientY);
    if (!found) return;
    this.open(found);
  }

  // Enter at a collapsed caret inside a name opens its card, as a click on it does.
  onKey(event) {
    if (event.key !== "Enter" || event.defaultPrevented || this.cursorOn()) return;
    const found = nameAtCaret();
    if (!found) return;
    event.preventDefault();
    event.stopPropagation(); // not also the block cursor's Enter (ask)
    this.open(found);
  }

  async open({ name, block, line, rect }) {
    const opener = document.activeElement;
    this.close();
    // focus comes back here on Escape: what had it, else the listing the name is in
    this.returnTo =
      opener && opener !== document.body ? opener : this.root.querySelector(".code-listing");
    const body = el(
      "div",
      { class: "identifier-body" },
      el("div", { class: "none" }, t("app.loading")),
    );
    this.card = el(
      "div",
      {
        class: "identifier-card",
        role: "dialog",
        tabindex: -1,
        "aria-label": t("code.identifier", { name }),
        dataset: { name },
      },
      el("div", { class: "identifier-head" }, el("code", {}, name)),
      body,
    );
    document.body.append(this.card);
    place(this.card, rect);
    this.releaseFocus = trapFocus(this.card);
    this.card.focus({ preventScroll: true }); // into the card at once: Escape, Tab work
    try {
      const found = await api.identifier(this.docId, name, block, line);
      if (this.card?.dataset.name !== name) return;
      body.replaceChildren(...this.definitions(found), ...this.references(found));
      place(this.card, rect);
      this.card.querySelector("button")?.focus({ preventScroll: true });
    } catch (error) {
      body.replaceChildren(el("div", { class: "none" }, error.message));
    }
  }

  definitions(found) {
    const items = found.definitions.map((d) =>
      el(
        "div",
        { class: "identifier-definition" },
        this.link(d.place, d.line, null, null, `${t(`code.kind.${d.kind}`)} ${d.place.name}`),
        CODE_SYMBOLS.has(d.kind) ? this.linksToggle(d.place) : null,
      ),
    );
    const none = el("div", { class: "none" }, t("code.no_definition"));
    return [el("h3", {}, t("code.definition")), ...(items.length ? items : [none])];
  }

  // The calls and callers of a function or class defined here, opened beneath it.
  linksToggle(placeJson) {
    const list = el("div", { class: "symbol-links", hidden: true });
    const toggle = el(
      "button",
      {
        class: "symbol-more",
        type: "button",
        "aria-expanded": "false",
        title: t("code.links", { name: placeJson.name }),
        onclick: async () => {
          const open = toggle.getAttribute("aria-expanded") !== "true";
          toggle.setAttribute("aria-expanded", String(open));
          list.hidden = !open;
          if (!open || list.dataset.loaded) return;
          list.dataset.loaded = "1";
          const [calls, callers] = await Promise.all([
            api.symbolCalls(placeJson.document_id, placeJson.block_id),
            api.symbolCallers(placeJson.document_id, placeJson.block_id),
          ]);
          list.replaceChildren(...this.symbols.links(calls, callers));
        },
      },
      t("code.calls_callers"),
    );
    return el("div", {}, toggle, list);
  }

  references(found) {
    const files = found.files.map((file) =>
      el(
        "details",
        {
          class: "identifier-file",
          open: found.files.length === 1 || file.document_id === this.docId,
        },
        el("summary", {}, file.path, " ", el("span", { class: "count" }, String(file.count))),
        ...file.lines.map((ref) =>
          this.link(
            { document_id: file.document_id, block_id: ref.block_id, source: file.source },
            ref.line,
            [ref.start, ref.end],
            ref.text,
          ),
        ),
      ),
    );
    const title = tn("code.references", found.references);
    return [el("h3", { class: "identifier-references" }, title), ...files];
  }

  // A button that shows `line` of a place: its exact characters `span` when given, else
  // the line (a definition's own line, past decorators and comments).
  // `code`: the line's text, shown after its number.
  link(placeJson, line, span, code = null, label = null) {
    const here = placeJson.document_id === this.docId;
    const where = here
      ? t("code.line", { n: line })
      : `${placeJson.source.split("/").pop()}:${line}`;
    const props = {
      class: "identifier-link",
      type: "button",
      dataset: { line, doc: placeJson.document_id },
    };
    const go = () => this.goTo(placeJson, line, span);
    if (code != null) {
      return el(
        "button",
        { ...props, onclick: go },
        el("span", { class: "ref-line" }, String(line)),
        el("code", {}, code),
      );
    }
    return el("button", { ...props, onclick: go }, label, el("span", { class: "muted" }, where));
  }

  goTo(placeJson, line, span) {
    if (placeJson.document_id !== this.docId) {
      const doc = encodeURIComponent(placeJson.document_id);
      location.assign(
        `/reader.html?doc=${doc}${hashOf({ line: { block: placeJson.block_id, line } })}`,
      );
      return;
    }
    const block = this.blocks.get(placeJson.block_id);
    const shown = span ?? (block && lineSpan(block, definitionLine(block, line)));
    if (shown) this.highlight(placeJson.block_id, shown[0], shown[1]);
  }

  // Escape: close, and focus goes back where it was when the card opened.
  dismiss() {
    if (!this.card) return;
    const back = this.returnTo;
    this.close();
    back?.focus({ preventScroll: true });
  }

  close() {
    this.releaseFocus?.();
    this.releaseFocus = null;
    this.card?.remove();
    this.card = null;
  }

  destroy() {
    this.close();
  }
}

// The name under the pointer in the code view, with its block, line and box; null over
// a keyword, string, comment, number or operator, or off any name.
function nameAt(x, y) {
  const found = nameInRange(document.caretRangeFromPoint?.(x, y));
  if (!found || x < found.rect.left - 2 || x > found.rect.right + 2) return null; // past the line's end
  return found;
}

// The name the keyboard's collapsed caret is in (or at the end of), as `nameAt` gives it.
function nameAtCaret() {
  const selection = window.getSelection();
  if (!selection.rangeCount || !selection.isCollapsed) return null;
  return nameInRange(selection.getRangeAt(0));
}

// The name around a collapsed range's position in a code segment, or null.
function nameInRange(range) {
  const node = range?.startContainer;
  const seg = node?.parentElement?.closest(".seg");
  if (!seg || node.nodeType !== Node.TEXT_NODE || NOT_NAMES.some((c) => seg.classList.contains(c)))
    return null;
  const text = node.textContent;
  let start = range.startOffset;
  let end = range.startOffset;
  while (start > 0 && NAME_CHAR.test(text[start - 1])) start -= 1;
  while (end < text.length && NAME_CHAR.test(text[end])) end += 1;
  const name = text.slice(start, end);
  if (!/^[A-Za-z_$][\w$]*$/.test(name)) return null;
  const word = document.createRange();
  word.setStart(node, start);
  word.setEnd(node, end);
  const rect = word.getBoundingClientRect();
  const line = Number(seg.closest(".code-line").getAttribute("data-line"));
  return { name, block: seg.getAttribute("data-block"), line, rect };
}

// Under the word, or above it when the card would leave the window.
function place(card, rect) {
  const box = card.getBoundingClientRect();
  const below = rect.bottom + 4;
  const top = below + box.height > innerHeight ? Math.max(4, rect.top - box.height - 4) : below;
  card.style.left = `${Math.max(4, Math.min(rect.left, innerWidth - box.width - 4))}px`;
  card.style.top = `${top}px`;
}
