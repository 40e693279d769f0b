// Where a block is, in words (page and section), and the anchor chip that says where a
// question was asked.

import { el, icon, shorten } from "../lib/dom.js";
import { t } from "../lib/i18n.js";

export function whereOf(blockId, blocks, page) {
  const block = blocks.get(blockId);
  const parts = [];
  const p = page ?? block?.page;
  if (p) parts.push(t("where.page", { page: p }));
  const section = block?.section_path?.[block.section_path.length - 1];
  if (section) parts.push(shorten(section, 40));
  return parts.join(" · ");
}

// Whether the block is source code (a code file's or a code listing's): quoted as code.
export function isCodeBlock(blockId, blocks) {
  return blocks.get(blockId)?.kind === "code";
}

export function chipContent(anchor, blocks, whole = t("scope.document")) {
  if (!anchor) return [icon("doc", 14), el("span", { class: "chip-where" }, whole)];
  const where = whereOf(anchor.block_id, blocks);
  return [
    icon("anchor", 14),
    el("span", { class: "chip-where" }, where || t("chip.selection")),
    el("span", { class: "chip-text" }, `“${shorten(anchor.selected_text ?? "", 48)}”`),
  ];
}
