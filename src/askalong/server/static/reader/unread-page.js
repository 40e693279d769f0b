// A scanned page the text recognition (OCR) left unread while the document was added (its
// time budget ran out) says so on the page, with a button that reads it now: the server
// OCRs the page in the background and stores its blocks (POST
// /api/documents/{id}/pages/{n}/reading), the notice shows the seconds it has taken so far
// (GET on the same address, once a second), and the page's text layer is built from the
// blocks in place, with no reload.

import { pageReading, startPageReading } from "../lib/api.js";
import { el } from "../lib/dom.js";
import { t } from "../lib/i18n.js";

// Dispatched on the document root with the new blocks, so the reader's block map has them.
export const BLOCKS_EVENT = "askalong:blocks";

// Put the notice on `page` (a PdfView page) of `view`; it goes once the page is read.
export function showUnread(view, page) {
  const status = el("p", { class: "unread-status", role: "status" });
  const button = el("button", { class: "button primary", type: "button" }, t("unread.read"));
  const notice = el(
    "div",
    { class: "unread-page", dataset: { page: page.number } },
    el("p", {}, t("unread.text")),
    button,
    status,
  );
  button.addEventListener("click", () => read(view, page, notice, button, status));
  page.el.append(notice);
}

const POLL_MS = 1000;

// The page's read, started on the server; resolves with the page read, or throws why not.
async function readInBackground(view, page, status) {
  let reading = await startPageReading(view.docId, page.number);
  while (reading.state === "reading") {
    status.replaceChildren(t("unread.reading", { seconds: Math.round(reading.seconds) }));
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    reading = await pageReading(view.docId, page.number);
  }
  if (reading.state === "failed") throw new Error(reading.message);
  return reading.read;
}

async function read(view, page, notice, button, status) {
  button.disabled = true;
  status.replaceChildren(t("unread.reading", { seconds: 0 }));
  try {
    const result = await readInBackground(view, page, status);
    view.blocksByPage.set(
      page.number,
      result.blocks.filter((b) => b.boxes.length),
    );
    view.root.dispatchEvent(new CustomEvent(BLOCKS_EVENT, { detail: result.blocks }));
    if (page.built) view.buildTextLayer(page);
    page.unread = false;
    notice.remove();
  } catch (error) {
    button.disabled = false;
    status.replaceChildren(t("unread.failed", { message: error.message }));
  }
}
