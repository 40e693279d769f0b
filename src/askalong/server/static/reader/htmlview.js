// HTML / Markdown / text reading view: one element per block, carrying data-block and
// the character offsets its text node holds. Text nodes only, never innerHTML.

import { el } from "../lib/dom.js";
import { cpLength } from "../lib/offsets.js";
import { isLanguageTag } from "../lib/i18n.js";

const CELL_SEPARATOR = " | ";

export class HtmlView {
  constructor(scroller, root, structure) {
    this.scroller = scroller;
    this.root = root;
    this.root.classList.add("html-doc");
    const spoken = structure.document.language;
    const article = el("article", { class: "prose", lang: isLanguageTag(spoken) ? spoken : null });
    for (const block of structure.blocks) article.append(renderBlock(block));
    this.root.append(article);
  }

  segments(block) {
    return [
      ...this.root.querySelectorAll(
        `[data-block="${CSS.escape(block.id)}"].seg, [data-block="${CSS.escape(block.id)}"] .seg`,
      ),
    ];
  }

  overlayHost() {
    return this.root;
  }

  destroy() {
    this.root.classList.remove("html-doc");
    this.root.replaceChildren();
  }
}

function segment(tag, block, text = block.text, start = 0, extra = {}) {
  const end = start + cpLength(text);
  return el(
    tag,
    {
      ...extra,
      class: `seg ${extra.class ?? ""}`.trim(),
      dataset: { block: block.id, start, end },
    },
    text,
  );
}

function renderBlock(block) {
  switch (block.kind) {
    case "heading":
      return segment(`h${Math.min(Math.max(block.heading_level, 1), 6)}`, block, block.text, 0, {
        id: `h-${block.id}`,
      });
    case "code":
      // focusable: a wide listing scrolls sideways from the keyboard too
      return el("pre", { class: "code-block", tabindex: 0 }, segment("code", block));
    case "table":
      return renderTable(block);
    case "list_item":
      return segment("div", block, block.text, 0, { class: "list-item" });
    case "header":
    case "footer":
      return segment("p", block, block.text, 0, { class: "furniture" });
    default:
      return segment("p", block, block.text, 0, { class: block.kind });
  }
}

// A table block's text is its rows joined by "\n", each row's cells by " | ";
// each cell becomes its own segment with its offsets in that text.
function renderTable(block) {
  const table = el("table", { class: "data-table", dataset: { block: block.id } });
  let offset = 0;
  block.text.split("\n").forEach((row, index) => {
    const tr = el("tr");
    row.split(CELL_SEPARATOR).forEach((cell, i) => {
      if (i > 0) offset += cpLength(CELL_SEPARATOR);
      tr.append(el(index === 0 ? "th" : "td", {}, segment("span", block, cell, offset)));
      offset += cpLength(cell);
    });
    table.append(tr);
    offset += 1; // the "\n" between rows
  });
  return el("div", { class: "table-wrap" }, table);
}
