// Quote cards with their verdict badges, and the list of how each sentence of the answer
// was checked, in the plain words of verdicts.js. "pending" is the reader's own verdict,
// shown until a quote's verdict arrives.

import { el } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { quoteActions } from "./quote-actions.js";
import { howChecked, VERDICT_VIEW, verdictView } from "./verdicts.js";
import { isCodeBlock, whereOf } from "./where.js";

export { VERDICT_VIEW } from "./verdicts.js";

// {card, badge, quote}: the quote's text stays selectable; its number button (or a click
// on the card that selects nothing) shows the quote in the document; beside the verdict,
// copy and open-in-original (quote-actions.js).
export function quoteCard(quote, blocks, onClick) {
  const badge = el("span", { class: "badge" });
  const where = whereOf(quote.block_id, blocks, quote.page);
  const show = el(
    "button",
    {
      class: "quote-number",
      type: "button",
      title: t("quote.show"),
      "aria-label": t("quote.show_n", { n: quote.number }),
      onclick: onClick,
    },
    String(quote.number),
  );
  const onCard = (event) => {
    if (event.target.closest("button, a") || !getSelection().isCollapsed) return;
    onClick();
  };
  const card = el(
    "div",
    { class: "quote-card", dataset: { number: quote.number }, onclick: onCard },
    show,
    el("blockquote", { class: isCodeBlock(quote.block_id, blocks) ? "code" : "" }, quote.text),
    el("div", { class: "quote-meta" }, el("span", {}, where), quoteActions(quote, blocks), badge),
  );
  return { card, badge, quote };
}

// Shows `verdict` on a quote card; anything the reader does not know shows as pending.
export function showVerdict({ card, badge }, verdict) {
  const known = Object.hasOwn(VERDICT_VIEW, verdict);
  const info = verdictView(verdict);
  card.dataset.verdict = known ? verdict : "pending";
  badge.className = `badge ${info.tone}`;
  badge.replaceChildren(info.label);
  card.title = info.note;
}

// How each sentence of the answer was checked (collapsed; open when one is doubtful).
export function claimList(claims, quotes = []) {
  const byNumber = new Map(quotes.map((q) => [q.number, q]));
  const doubtful = claims.some((c) => c.verdict === "weak" || c.verdict === "suspicious");
  const summary = el("summary", {}, t("quote.checked", { n: claims.length }));
  return el(
    "details",
    { class: "claims", open: doubtful },
    summary,
    el(
      "ul",
      {},
      claims.map((c) => claimItem(c, byNumber)),
    ),
  );
}

function claimItem(claim, quotes) {
  const info = VERDICT_VIEW[claim.verdict] ?? VERDICT_VIEW.unverified;
  const doubted = claim.reasons?.length > 0;
  const said = howChecked(claim, quotes).join(t("checked.join"));
  return el(
    "li",
    { class: "claim", dataset: { verdict: claim.verdict } },
    el("span", { class: `badge ${info.tone}` }, info.label),
    el("span", { class: "claim-text" }, claim.text),
    el("span", { class: doubted ? "claim-reasons" : "claim-checks" }, said),
  );
}
