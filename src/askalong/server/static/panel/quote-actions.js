// What a quote card offers beside showing the quote in the document: copying it as plain
// text (the quote, then its page and section) and opening the original file there (a PDF
// at the quote's page, in the browser's own viewer).

import { originalUrl } from "../lib/api.js";
import { el } from "../lib/dom.js";
import { t } from "../lib/i18n.js";

// The quote as it is pasted elsewhere: “text” on one line, then p. N · Section › Sub.
export function quoteAsText(quote, blocks) {
  const sections = quote.section_path?.length
    ? quote.section_path
    : (blocks.get(quote.block_id)?.section_path ?? []);
  const page = quote.page ?? blocks.get(quote.block_id)?.page;
  const where = [page ? t("where.page", { page }) : "", sections.join(" › ")]
    .filter(Boolean)
    .join(" · ");
  return where ? `“${quote.text}”\n— ${where}` : `“${quote.text}”`;
}

export function quoteActions(quote, blocks) {
  const copy = el(
    "button",
    {
      class: "quote-action quote-copy",
      type: "button",
      title: t("quote.copy.title"),
      onclick: () => copyQuote(copy, quoteAsText(quote, blocks)),
    },
    t("quote.copy"),
  );
  const page = quote.page ?? blocks.get(quote.block_id)?.page ?? null;
  const original = el(
    "a",
    {
      class: "quote-action quote-original",
      href: originalUrl(quote.document_id, page),
      target: "_blank",
      rel: "noopener",
      title: page ? t("quote.original_at", { page }) : t("quote.download"),
    },
    t("quote.original"),
  );
  return el("span", { class: "quote-actions" }, copy, original);
}

async function copyQuote(button, text) {
  try {
    await writeClipboard(text);
    button.replaceChildren(t("quote.copied"));
  } catch {
    button.replaceChildren(t("quote.copy_failed"));
  }
  setTimeout(() => button.replaceChildren(t("quote.copy")), 1500);
}

// The async clipboard needs a secure context and the page's focus; the old copy command
// covers the rest.
async function writeClipboard(text) {
  if (navigator.clipboard?.writeText) {
    try {
      return await navigator.clipboard.writeText(text);
    } catch {
      // fall through to the copy command
    }
  }
  const area = el("textarea", { class: "offscreen", readonly: true });
  area.value = text;
  document.body.append(area);
  area.select();
  const copied = document.execCommand("copy");
  area.remove();
  if (!copied) throw new Error("the browser refused to copy");
}
