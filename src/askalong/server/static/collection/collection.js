// A collection: its documents (each opens in the reader) and the side panel asking them
// as one (POST /api/ask with `collection`); a quote opens its document. With `?docs=`
// (documents picked in the library) the same page asks those (POST /api/ask `documents`).

import * as api from "../lib/api.js";
import { documentCard, errorState, shorten } from "../lib/dom.js";
import { Panel } from "../panel/panel.js";

const $ = (selector) => document.querySelector(selector);

async function main() {
  const params = new URLSearchParams(location.search);
  if (params.has("docs")) return openPicked(params.get("docs").split(",").filter(Boolean));
  const ref = params.get("c");
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

// Documents picked in the library, asked as one.
async function openPicked(ids) {
  let documents;
  try {
    const wanted = new Set(ids);
    documents = (await api.listDocuments()).filter((d) => wanted.has(d.id));
  } catch (error) {
    return showError("These documents cannot be opened.", error.message);
  }
  if (!documents.length) return showError("None of these documents is in the library.", "");
  const count = `${documents.length} document${documents.length === 1 ? "" : "s"}`;
  const collection = { id: null, name: `these ${count}`, documents: documents.map((d) => d.id) };
  window.askalong = mount({ collection, documents }, `Picked in the library · ${count}`);
  document.body.classList.add("ready");
}

function mount({ collection, documents }, meta = null) {
  document.title = `${collection.id ? collection.name : "Documents"} — AskAlong`;
  $("#collection-name").replaceChildren(collection.id ? collection.name : "Picked documents");
  $("#collection-meta").replaceChildren(
    meta ??
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
    collection: { id: collection.id, name: collection.name, documents: collection.documents },
  });
  return { collection, documents, panel, destroy: () => panel.destroy() };
}

function readerUrl(documentId) {
  return `/reader.html?doc=${encodeURIComponent(documentId)}`;
}

function member(doc) {
  return documentCard(doc, { href: readerUrl(doc.id), meta: shorten(doc.source, 100) });
}

function showError(title, detail) {
  $("#members").replaceChildren(errorState(title, detail));
  document.body.classList.add("ready");
}

main();
