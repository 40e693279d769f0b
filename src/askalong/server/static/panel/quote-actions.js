// What a quote card offers beside showing the quote in the document: copying it as plain
// text (the quote, then its page and section) and opening the original file there (a PDF
// at the quote's page, in the browser's own viewer).

import { originalUrl } from "../lib/api.js";
import { el } from "../lib/dom.js";

// The quote as it is pasted elsewhere: “text” on one line, then p. N · Section › Sub.
export function quoteAsText(quote, blocks) {
  const sections = quote.section_path?.length
    ? quote.section_path
    : (blocks.get(quote.block_id)?.section_path ?? []);
  const page = quote.page ?? blocks.get(quote.block_id)?.page;
  const where = [page ? `p. ${page}` : "", sections.join(" › ")].filter(Boolean).join(" · ");
  return where ? `“${quote.text}”\n— ${where}` : `“${quote.text}”`;
}

export function quoteActions(quote, blocks) {
  const copy = el(
    "button",
    {
      class: "quote-action quote-copy",
      type: "button",
      title: "Copy the quote with its page and section",
      onclick: () => copyQuote(copy, quoteAsText(quote, blocks)),
    },
    "Copy",
  );
  const page = quote.page ?? blocks.get(quote.block_id)?.page ?? null;
  const original = el(
    "a",
    {
      class: "quote-action quote-original",
      href: originalUrl(quote.document_id, page),
      target: "_blank",
      rel: "noopener",
      title: page ? `Open the original file at page ${page}` : "Download the original file",
    },
    "Open original",
  );
  return el("span", { class: "quote-actions" }, copy, original);
}

async function copyQuote(button, text) {
  try {
    await writeClipboard(text);
    button.replaceChildren("Copied");
  } catch {
    button.replaceChildren("Copy failed");
  }
  setTimeout(() => button.replaceChildren("Copy"), 1500);
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
