// A collection: its documents (each opens in the reader) and the side panel asking them
// as one (POST /api/ask with `collection`); a quote opens its document.

import * as api from "../lib/api.js";
import { el, icon, shorten } from "../lib/dom.js";
import { Panel } from "../panel/panel.js";

const $ = (selector) => document.querySelector(selector);

async function main() {
  const ref = new URLSearchParams(location.search).get("c");
  if (!ref) return showError("No collection was chosen.", "Open one from the library.");
  let opened;
  try {
    opened = await api.getCollection(ref);
  } catch (error) {
    return showError("This collection cannot be opened.", error.message);
  }
  window.askalong = mount(opened); // for tests and the console
  document.body.classList.add("ready");
}

function mount({ collection, documents }) {
  document.title = `${collection.name} — AskAlong`;
  $("#collection-name").replaceChildren(collection.name);
  $("#collection-meta").replaceChildren(
    `Collection · ${documents.length} document${documents.length === 1 ? "" : "s"} · ` +
      `${collection.chunks} passages`,
  );
  $("#members").replaceChildren(...documents.map(member));
  const titles = new Map(documents.map((d) => [d.id, d.title]));
  const open = (blockId, start, end, documentId) => {
    if (titles.has(documentId)) location.assign(readerUrl(documentId));
  };
  const panel = new Panel($("#panel"), {
    docId: null,
    blocks: new Map(),
    highlight: open,
    collection: { id: collection.id, name: collection.name },
  });
  return { collection, documents, panel, destroy: () => panel.destroy() };
}

function readerUrl(documentId) {
  return `/reader.html?doc=${encodeURIComponent(documentId)}`;
}

function member(doc) {
  return el(
    "article",
    { class: "doc-card", dataset: { id: doc.id } },
    el(
      "div",
      { class: `format-badge ${doc.format}` },
      doc.format === "markdown" ? "MD" : doc.format.toUpperCase(),
    ),
    el(
      "a",
      { class: "doc-link", href: readerUrl(doc.id) },
      el("span", { class: "doc-card-title" }, shorten(doc.title, 120)),
      el("span", { class: "doc-card-meta" }, shorten(doc.source, 100)),
    ),
  );
}

function showError(title, detail) {
  $("#members").replaceChildren(
    el(
      "div",
      { class: "empty" },
      el("div", { class: "empty-icon" }, icon("doc", 28)),
      el("h2", {}, title),
      el("p", {}, detail),
      el("a", { href: "/", class: "button" }, "Back to the library"),
    ),
  );
  document.body.classList.add("ready");
}

main();
