// Quote cards with their verdict badges, and the list of how each sentence of the answer
// was checked. The verdicts are the server's (lib/contract.js VERDICTS); "pending" is the
// reader's own, shown until a quote's verdict arrives.

import { el } from "../lib/dom.js";
import { quoteActions } from "./quote-actions.js";
import { whereOf } from "./where.js";

export const VERDICT_VIEW = Object.freeze({
  supported: { label: "Supported", tone: "good", note: "The quote supports the answer." },
  weak: {
    label: "Weak support",
    tone: "warn",
    note: "The quote supports the answer only in part.",
  },
  suspicious: {
    label: "Suspicious",
    tone: "bad",
    note: "The quote may not say what the answer claims.",
  },
  unverified: {
    label: "Not checked",
    tone: "muted",
    note: "No sentence of the answer cites this quote directly.",
  },
});
const PENDING = {
  label: "Checking…",
  tone: "muted",
  note: "Checking the quote against the answer…",
};

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
      title: "Show in the document",
      "aria-label": `Show quote ${quote.number} in the document`,
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
    el("blockquote", {}, quote.text),
    el("div", { class: "quote-meta" }, el("span", {}, where), quoteActions(quote, blocks), badge),
  );
  return { card, badge, quote };
}

// Shows `verdict` on a quote card; anything the reader does not know shows as pending.
export function showVerdict({ card, badge }, verdict) {
  const known = Object.hasOwn(VERDICT_VIEW, verdict);
  const info = known ? VERDICT_VIEW[verdict] : PENDING;
  card.dataset.verdict = known ? verdict : "pending";
  badge.className = `badge ${info.tone}`;
  badge.replaceChildren(info.label);
  card.title = info.note;
}

// How each sentence of the answer was checked (collapsed; open when one is doubtful).
export function claimList(claims) {
  const doubtful = claims.some((c) => c.verdict === "weak" || c.verdict === "suspicious");
  const summary = el("summary", {}, `How the answer was checked (${claims.length})`);
  return el(
    "details",
    { class: "claims", open: doubtful },
    summary,
    el("ul", {}, claims.map(claimItem)),
  );
}

function claimItem(claim) {
  const info = VERDICT_VIEW[claim.verdict] ?? VERDICT_VIEW.unverified;
  const reasons = claim.reasons?.length ? claim.reasons.join("; ") : null;
  return el(
    "li",
    { class: "claim", dataset: { verdict: claim.verdict } },
    el("span", { class: `badge ${info.tone}` }, info.label),
    el("span", { class: "claim-text" }, claim.text),
    reasons && el("span", { class: "claim-reasons" }, reasons),
  );
}
