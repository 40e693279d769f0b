// A collection: its documents (each opens in the reader; a repository's as a file tree
// with a finder, tree.js) and the side panel asking them as one (POST /api/ask with
// `collection`); a quote opens its document. With `?docs=`
// (documents picked in the library) the same page asks those (POST /api/ask `documents`).

import * as api from "../lib/api.js";
import { documentCard, errorState, shorten } from "../lib/dom.js";
import { t, tn } from "../lib/i18n.js";
import { showIdentity } from "../lib/identity.js";
import { setUpLanguage } from "../lib/language-switch.js";
import { Panel } from "../panel/panel.js";
import { repositoryTree } from "./tree.js";

const $ = (selector) => document.querySelector(selector);

async function main() {
  const params = new URLSearchParams(location.search);
  if (params.has("docs")) return openPicked(params.get("docs").split(",").filter(Boolean));
  const ref = params.get("c");
  if (!ref) return showError(t("collection.none"), t("collection.open_one"));
  let opened;
  try {
    opened = await api.getCollection(ref);
  } catch (error) {
    return showError(t("collection.cannot_open"), error.message);
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
    return showError(t("collection.picked_cannot_open"), error.message);
  }
  if (!documents.length) return showError(t("collection.picked_missing"), "");
  const count = tn("doc.documents", documents.length);
  const name = t("collection.these", { count });
  const collection = { id: null, name, documents: documents.map((d) => d.id) };
  window.askalong = mount({ collection, documents }, t("collection.picked_meta", { count }));
  document.body.classList.add("ready");
}

function mount({ collection, documents }, meta = null) {
  document.title = t("app.titled", {
    title: collection.id ? collection.name : t("collection.documents"),
  });
  $("#collection-name").replaceChildren(collection.id ? collection.name : t("collection.picked"));
  $("#collection-meta").replaceChildren(
    meta ??
      t("collection.meta", {
        count: tn("doc.documents", documents.length),
        passages: t("doc.passages", { n: collection.chunks }),
      }),
  );
  // A repository (any source file among them) is walked as a file tree with a finder.
  const repository = documents.some((doc) => doc.format === "code");
  $("#members").replaceChildren(
    ...(repository
      ? [repositoryTree(documents, readerUrl)]
      : documents.map((doc) => member(doc, collection.name))),
  );
  const titles = new Map(documents.map((d) => [d.id, d.title]));
  const open = (_blockId, _start, _end, documentId) => {
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

function member(doc, collectionName) {
  const meta = shorten(withinCollection(doc.source, collectionName), 100);
  return documentCard(doc, { href: readerUrl(doc.id), meta });
}

// A member's source from its collection's folder down ("notes/tides.md"): a folder added
// from the server's disk is stored by its absolute path, which the page never shows.
function withinCollection(source, collectionName) {
  const parts = source.split(/[\\/]+/);
  const at = parts.lastIndexOf(collectionName);
  const rooted = /^(?:[A-Za-z]:)?[\\/]/.test(source);
  if (at >= 0 && at < parts.length - 1) return parts.slice(at).join("/");
  return rooted ? parts[parts.length - 1] : source;
}

function showError(title, detail) {
  $("#members").replaceChildren(errorState(title, detail));
  document.body.classList.add("ready");
}

setUpLanguage();
showIdentity();
main();
