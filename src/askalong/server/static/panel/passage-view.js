// The paragraph the answer sits in (the answer's `passage`), shown under the answer with
// the answer's quotes marked in it; a click that selects nothing (or the "show" button)
// shows the first marked quote in the document. Offsets are code points (lib/offsets.js).

import { el } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { cpSlice } from "../lib/offsets.js";
import { isCodeBlock, whereOf } from "./where.js";

// The passage's element, or null when the answer has none (not covered, no quote placed).
export function passageView(passage, blocks, onShow) {
  if (!passage?.text) return null;
  const marks = [...(passage.answer_spans ?? [])].sort((a, b) => a.start - b.start);
  const first = passage.spans?.[0];
  const show = () => onShow(marks[0]?.quote, first);
  const onClick = (event) => {
    if (event.target.closest("button") || !getSelection().isCollapsed) return;
    show();
  };
  const where = first ? whereOf(first.block_id, blocks, passage.page) : "";
  return el(
    "figure",
    { class: "answer-passage", onclick: onClick },
    el(
      "figcaption",
      {},
      el("span", {}, t("turn.passage")),
      where && el("span", { class: "muted" }, where),
      el("button", { class: "link small", type: "button", onclick: show }, t("turn.show_passage")),
    ),
    el(
      "blockquote",
      { class: first && isCodeBlock(first.block_id, blocks) ? "code" : "" },
      ...markedText(passage.text, marks),
    ),
  );
}

// The text with each answer span in a <mark> (an overlapping one is left to the first).
function markedText(text, marks) {
  const parts = [];
  let at = 0;
  for (const mark of marks) {
    if (mark.start < at) continue;
    parts.push(cpSlice(text, at, mark.start));
    const shown = cpSlice(text, mark.start, mark.end);
    parts.push(el("mark", { class: "answer-mark", dataset: { quote: mark.quote } }, shown));
    at = mark.end;
  }
  parts.push(cpSlice(text, at, Infinity));
  return parts;
}
