// A conflict notice under an answer: two of its citations are chunks the contradiction scan
// found saying nearly the same thing with a different value (the answer's `conflicts`,
// askalong/asking/conflicts.py). Both sides are named, each with what it says, and each
// citation shows its quote in the document, so the reader is never left with one picked
// silently.

import { el } from "../lib/dom.js";
import { t } from "../lib/i18n.js";

// `cite(number)` makes the button that shows citation `number` (the turn's own).
export function conflictNotices(conflicts, cite) {
  if (!conflicts?.length) return null;
  return el(
    "div",
    { class: "notice warn conflicts", role: "note" },
    el("b", {}, t("conflict.title")),
    ...conflicts.map((conflict) => notice(conflict, cite)),
  );
}

function notice(conflict, cite) {
  const { first, second } = conflict;
  return el(
    "div",
    { class: "conflict", "data-first": String(first), "data-second": String(second) },
    el("span", {}, t("conflict.between", { first: `[${first}]`, second: `[${second}]` })),
    el(
      "ul",
      {},
      side(first, conflict.first_tokens, conflict.kind, cite),
      side(second, conflict.second_tokens, conflict.kind, cite),
    ),
  );
}

function side(number, tokens, kind, cite) {
  const says =
    kind === "negation"
      ? t("conflict.negation")
      : t("conflict.says", { tokens: tokens.join(", ") });
  return el("li", {}, cite(number), " ", el("span", { class: "says" }, says));
}
