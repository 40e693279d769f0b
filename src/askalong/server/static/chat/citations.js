// Citations in a chat answer: "[2]" becomes a chip that opens the reader at source 2's
// exact span (reader/url-state.js: `#h=<block>&hs=<start>&he=<end>`), in a new tab so the
// conversation stays; its tone is the source's verdict (panel/verdicts.js). A number with
// no source (still streaming, or removed by the checks) stays plain text.

import { el } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { verdictView } from "../panel/verdicts.js";
import { hashOf } from "../reader/url-state.js";

export function readerUrl(source) {
  const { block_id: block, start, end } = source.span;
  const hash = hashOf({ span: { block, start, end } });
  return `/reader.html?doc=${encodeURIComponent(source.documentId)}${hash}`;
}

// The text with each [n] of `sources` (number → source) as a chip.
export function withChips(text, sources) {
  return text
    .split(/\[(\d+)\]/)
    .map((piece, i) => (i % 2 === 0 ? piece : chip(Number(piece), sources.get(Number(piece)))));
}

function chip(number, source) {
  if (!source) return el("span", { class: "cite-chip pending" }, `[${number}]`);
  const view = verdictView(source.verdict);
  const label = t("chat.cite", { n: number, title: source.title, verdict: view.label });
  return el(
    "a",
    {
      class: `cite-chip ${view.tone}`,
      href: readerUrl(source),
      target: "_blank",
      rel: "noopener",
      title: label,
      "aria-label": label,
      dataset: { number },
    },
    `[${number}]`,
  );
}
