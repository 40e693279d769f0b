// Source code reading view: the file's lines with their numbers, coloured by the server's
// Pygments spans (GET /api/documents/{id}/code). Each block (a function, a class header,
// statements between them) is a group of lines; each line's characters are `.seg` spans
// carrying data-block and the code-point offsets of their text in the block, the model
// selection.js and highlight.js use for every view, so a selection maps to exact lines and
// characters and a quote highlights exactly its glyphs. Text nodes only, never innerHTML;
// line numbers are not selectable and sit outside every segment.

import { CODE_TOKEN_KINDS } from "../lib/contract.js";
import { el } from "../lib/dom.js";
import { t } from "../lib/i18n.js";

export class CodeView {
  constructor(scroller, root, structure, code) {
    this.scroller = scroller;
    this.root = root;
    this.root.classList.add("code-doc");
    document.body.classList.add("reading-code"); // the panel's quotes keep their lines too
    const tokens = new Map(code.blocks.map((b) => [b.block_id, b.tokens]));
    const listing = el("div", {
      class: "code-listing",
      role: "region",
      "aria-label": t("code.listing", { name: structure.document.title }),
      lang: "zxx", // code: no natural language to read it in
      tabindex: 0, // focusable: a wide listing scrolls sideways from the keyboard too
    });
    let next = 1; // the first line not yet shown: blank lines between blocks are shown too
    for (const block of structure.blocks) {
      const [first] = block.lines ?? [next];
      for (; next < first; next += 1) listing.append(lineRow(next, []));
      const group = renderBlock(block, tokens.get(block.id) ?? [], first);
      listing.append(group);
      next = first + block.text.split("\n").length;
    }
    this.root.append(listing);
  }

  segments(block) {
    return [...this.root.querySelectorAll(`.seg[data-block="${CSS.escape(block.id)}"]`)];
  }

  // The row of a line number, for going to a definition's line.
  lineRow(line) {
    return this.root.querySelector(`.code-line[data-line="${Number(line)}"]`);
  }

  overlayHost() {
    return this.root;
  }

  destroy() {
    this.root.classList.remove("code-doc");
    document.body.classList.remove("reading-code");
    this.root.replaceChildren();
  }
}

function renderBlock(block, tokens, firstLine) {
  const chars = Array.from(block.text); // code points, the API's offsets
  const group = el("div", { class: "code-block-group", dataset: { block: block.id } });
  let start = 0;
  let index = 0; // the first token not wholly before this line
  block.text.split("\n").forEach((line, i) => {
    const end = start + Array.from(line).length;
    while (index < tokens.length && tokens[index][1] <= start) index += 1;
    group.append(lineRow(firstLine + i, lineSegments(block.id, chars, start, end, tokens, index)));
    start = end + 1; // past the "\n"
  });
  return group;
}

// The line [start, end) of the block as segments: coloured where a token covers it
// (a token over several lines, a docstring, is cut at each line's end), plain between.
function lineSegments(blockId, chars, start, end, tokens, from) {
  const segs = [];
  let at = start;
  const plain = (to) => {
    if (to > at) segs.push(seg(blockId, chars, at, to, ""));
    at = Math.max(at, to);
  };
  for (let i = from; i < tokens.length && tokens[i][0] < end; i += 1) {
    const [tokenStart, tokenEnd, kind] = tokens[i];
    plain(Math.max(tokenStart, start));
    const to = Math.min(tokenEnd, end);
    if (to > at) segs.push(seg(blockId, chars, at, to, kind));
    at = Math.max(at, to);
  }
  plain(end);
  return segs;
}

function seg(blockId, chars, start, end, kind) {
  const known = CODE_TOKEN_KINDS.includes(kind); // a class only of the kinds the CSS colours
  const props = {
    class: known ? `seg tok-${kind}` : "seg",
    dataset: { block: blockId, start, end },
  };
  return el("span", props, chars.slice(start, end).join(""));
}

// The code-point span [start, end) of source line `line` within `block` (its text is its
// lines exactly), or null when the block does not hold that line.
export function lineSpan(block, line) {
  const rows = block.text.split("\n");
  const index = line - (block.lines?.[0] ?? 1);
  if (index < 0 || index >= rows.length) return null;
  const before = rows.slice(0, index).reduce((sum, row) => sum + Array.from(row).length + 1, 0);
  return [before, before + Array.from(rows[index]).length];
}

// The line a place at `line` of `block` is shown at: `line` itself, or, when that row is a
// decorator, attribute or comment above a definition, the first row after them (the
// def/func/class line).
export function definitionLine(block, line) {
  const rows = block.text.split("\n");
  const first = block.lines?.[0] ?? 1;
  let index = line - first;
  while (index >= 0 && index < rows.length - 1 && LEADING_ROW.test(rows[index])) index += 1;
  return first + Math.max(index, 0);
}

// Decorators and annotations (@), Rust attributes (#[), comments (# , //, /*, *).
const LEADING_ROW = /^\s*(@|#\[|#\s|#$|\/\/|\/\*|\*)/;

function lineRow(number, segs) {
  return el(
    "div",
    { class: "code-line", dataset: { line: number } },
    el("span", { class: "ln", "aria-hidden": "true" }, String(number)),
    el("span", { class: "lc" }, segs),
  );
}
