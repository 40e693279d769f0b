// A source file's symbols in the outline sidebar (qualified names, nested by depth), and
// per symbol its calls ("go to definition": each call that resolves in the repository)
// and its callers ("find callers"), fetched when the symbol's list is first opened. A
// place is shown at its line, highlighted: in this file at once, in another file of the
// repository by opening that file at the line (the address's `hl`, url-state.js).

import * as api from "../lib/api.js";
import { el } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { definitionLine, lineSpan } from "./codeview.js";
import { hashOf } from "./url-state.js";

// The outline's entries for a code view: one per symbol, its level its nesting depth.
export function symbolEntries(code) {
  return code.symbols.map((symbol) => ({
    block_id: symbol.block_id,
    level: symbol.qualname.length,
    text: symbol.name,
    page: null,
    symbol,
  }));
}

export class SymbolLinks {
  constructor({ docId, blocks, highlight }) {
    this.docId = docId;
    this.blocks = blocks;
    this.highlight = highlight;
  }

  // The outline row of a symbol: its button (which shows the symbol) and a toggle that
  // opens its calls and callers beneath it.
  row(entry, button) {
    const { symbol } = entry;
    const links = el("div", { class: "symbol-links", hidden: true });
    const toggle = el(
      "button",
      {
        class: "symbol-more",
        type: "button",
        "aria-expanded": "false",
        "aria-label": t("code.links", { name: symbol.name }),
        title: t("code.links", { name: symbol.name }),
        onclick: () => this.toggle(symbol, toggle, links),
      },
      "⋯",
    );
    return el(
      "div",
      { class: "symbol-wrap" },
      el("div", { class: "symbol-row" }, button, toggle),
      links,
    );
  }

  async toggle(symbol, toggle, links) {
    const open = toggle.getAttribute("aria-expanded") !== "true";
    toggle.setAttribute("aria-expanded", String(open));
    links.hidden = !open;
    if (!open || links.dataset.loaded) return;
    links.dataset.loaded = "1";
    links.replaceChildren(el("div", { class: "none" }, t("app.loading")));
    try {
      const [calls, callers] = await Promise.all([
        api.symbolCalls(this.docId, symbol.block_id),
        api.symbolCallers(this.docId, symbol.block_id),
      ]);
      links.replaceChildren(...this.links(calls, callers));
    } catch (error) {
      delete links.dataset.loaded;
      links.replaceChildren(el("div", { class: "none" }, error.message));
    }
  }

  // A symbol's calls and callers, each under its heading; one line when it has neither
  // (two headings over "none" read as empty ones).
  links(calls, callers) {
    if (!calls.length && !callers.length) {
      return [el("div", { class: "none" }, t("code.no_links"))];
    }
    return [
      // a callee at its definition's first line (its def/func/class line), a caller at the call
      ...this.section(t("code.calls"), calls, (call) => call.place.lines?.[0] ?? 1),
      ...this.section(t("code.callers"), callers, (call) => call.line),
    ];
  }

  section(title, calls, lineOf) {
    const items = calls.map((call) =>
      el(
        "button",
        {
          class: "symbol-link",
          type: "button",
          dataset: { block: call.place.block_id, doc: call.place.document_id },
          onclick: () => this.goToLine(call.place, lineOf(call)),
        },
        call.place.name,
        el("span", { class: "muted" }, where(call.place, this.docId, lineOf(call))),
      ),
    );
    return [
      el("h3", {}, title),
      ...(items.length ? items : [el("div", { class: "none" }, t("code.none"))]),
    ];
  }

  goToLine(place, line) {
    if (place.document_id !== this.docId) {
      const doc = encodeURIComponent(place.document_id);
      location.assign(
        `/reader.html?doc=${doc}${hashOf({ line: { block: place.block_id, line } })}`,
      );
      return;
    }
    const block = this.blocks.get(place.block_id);
    const span = block && lineSpan(block, definitionLine(block, line));
    if (span) this.highlight(place.block_id, span[0], span[1]);
  }
}

// "line 142" in this file, "mixins.py:12" in another.
function where(place, docId, line) {
  if (place.document_id === docId) return t("code.line", { n: line });
  return `${place.source.split("/").pop()}:${line}`;
}
