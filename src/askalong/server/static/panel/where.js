// Where a block is, in words (page and section), and the anchor chip that says where a
// question was asked.

import { el, icon, shorten } from "../lib/dom.js";
import { t } from "../lib/i18n.js";

export function whereOf(blockId, blocks, page) {
  return placeOf(blockId, blocks, page).filter(Boolean).join(" · ");
}

// The page ("p. 3", "第 3 页") and the innermost section (shortened) of a block; "" for
// what it lacks.
function placeOf(blockId, blocks, page) {
  const block = blocks.get(blockId);
  const p = page ?? block?.page;
  const section = block?.section_path?.[block.section_path.length - 1];
  return [p ? t("where.page", { page: p }) : "", section ? shorten(section, 40) : ""];
}

// Whether the block is source code (a code file's or a code listing's): quoted as code.
export function isCodeBlock(blockId, blocks) {
  return blocks.get(blockId)?.kind === "code";
}

export function chipContent(anchor, blocks, whole = t("scope.document")) {
  if (!anchor) return [icon("doc", 14), el("span", { class: "chip-where" }, whole)];
  const [page, section] = placeOf(anchor.block_id, blocks);
  // the page never shrinks (cut, "第 1 页" read "第 …"); the section and the quote share the cut
  const where = page
    ? [
        el("span", { class: "chip-page" }, page),
        section ? el("span", { class: "chip-where" }, `· ${section}`) : null,
      ]
    : [el("span", { class: "chip-where" }, section || t("chip.selection"))];
  return [
    icon("anchor", 14),
    ...where.filter(Boolean),
    el("span", { class: "chip-text" }, `“${shorten(anchor.selected_text ?? "", 48)}”`),
  ];
}
