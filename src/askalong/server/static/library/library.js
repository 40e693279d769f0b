// The library page: the collections (each opens as one, collection.html), the documents
// (several or all asked as one: ask-picked.js), uploads as a queue (upload-queue.js),
// delete with confirmation.

import * as api from "../lib/api.js";
import { ARCHIVE_SUFFIXES, CODE_SUFFIXES, DOCUMENT_SUFFIXES } from "../lib/contract.js";
import { documentCard, el, icon, shorten } from "../lib/dom.js";
import { languageName, t, tn } from "../lib/i18n.js";
import { showIdentity } from "../lib/identity.js";
import { setUpLanguage } from "../lib/language-switch.js";
import { AskPicked } from "./ask-picked.js";
import { Shortcuts } from "../lib/shortcuts.js";
import { LibraryFilter } from "./filter.js";
import { groupDocuments } from "./groups.js";
import { visibilityChoice } from "./share.js";
import { UploadQueue } from "./upload-queue.js";
import { formatSize } from "./upload-row.js";

const $ = (selector) => document.querySelector(selector);
const picked = new AskPicked($("#ask-picked"));
const REFRESH_MS = 2000;
setUpLanguage(); // before the wait below: the page's own words first

// Who is looking: on a server with accounts, their documents and what is shared with them
// are grouped, and what they own can be shared from its card and its upload row.
const viewer = await api.currentSession().catch(() => null);
const team = Boolean(viewer?.multi_user);
const uploads = new UploadQueue($("#uploads"), {
  onReady: shareAsChosen,
  control: (row) => (team ? uploadVisibility(row) : null),
});
const filter = new LibraryFilter($("#library-filter"), () => showDocuments());
let listed = []; // the documents as last listed
let refreshTimer = null; // the next refresh while a worker is reading
const ACCEPTED = [...DOCUMENT_SUFFIXES, ...CODE_SUFFIXES, ...ARCHIVE_SUFFIXES];

async function refresh() {
  showCollections();
  try {
    listed = await api.listDocuments();
    picked.show(listed.map((d) => d.id));
    showDocuments();
    if (listed.some((d) => d.job && !["ready", "failed"].includes(d.job.state))) {
      clearTimeout(refreshTimer); // one timer however often refresh runs
      refreshTimer = setTimeout(refresh, REFRESH_MS); // a worker is reading one: show its step
    }
  } catch (error) {
    $("#documents").replaceChildren(el("p", { class: "notice error" }, error.message));
  }
  document.body.classList.add("ready");
}

// Collections come from `askalong add FOLDER`; the section stays hidden when there are none.
async function showCollections() {
  const section = $("#collections");
  try {
    const collections = await api.listCollections();
    section.hidden = collections.length === 0;
    section.replaceChildren(
      el("h2", { class: "section-title" }, t("library.collections")),
      ...collections.map(collectionCard),
    );
  } catch (error) {
    section.hidden = false;
    section.replaceChildren(el("p", { class: "notice error" }, error.message));
  }
}

function collectionCard(collection) {
  const count = tn("doc.documents", collection.documents);
  return el(
    "article",
    { class: "doc-card collection-card", dataset: { id: collection.id } },
    el("div", { class: "format-badge collection" }, icon("doc", 20)),
    el(
      "a",
      { class: "doc-link", href: `/collection.html?c=${encodeURIComponent(collection.id)}` },
      el("span", { class: "doc-card-title" }, shorten(collection.name, 120)),
      el(
        "span",
        { class: "doc-card-meta" },
        `${count} · ${t("doc.passages", { n: collection.chunks })}`,
      ),
    ),
  );
}

// The listing as the filter bar chooses (filter.js); a new member's empty library explains.
function showDocuments() {
  filter.showFor(listed);
  const shown = filter.apply(listed);
  const none = listed.length ? el("p", { class: "muted" }, t("library.no_match")) : emptyState();
  $("#documents").replaceChildren(...(shown.length ? grouped(shown) : [none]));
}

function grouped(documents) {
  return groupDocuments(documents, viewer).flatMap(({ title, documents: members }) => [
    title ? el("h2", { class: "section-title doc-group" }, title) : null,
    ...members.map(card),
  ]);
}

// A new member's empty library says what they can do, and why others' documents are not
// here: those are private until their owners share them.
function emptyState() {
  return el(
    "div",
    { class: "empty" },
    el("div", { class: "empty-icon" }, icon("doc", 28)),
    el("h2", {}, t("library.empty.title")),
    el("p", {}, t("library.empty.text")),
    team ? el("p", { class: "empty-private" }, t("library.empty.private")) : null,
  );
}

// The visibility chosen in an upload's row, applied once its document is added.
async function shareAsChosen(result, row) {
  const chosen = row.node.querySelector(".share-select")?.value ?? "private";
  if (chosen !== result.document.visibility) {
    await api.setVisibility(result.document.id, chosen).catch((error) => alertLine(error.message));
  }
  refresh();
}

function uploadVisibility(row) {
  return visibilityChoice({
    orgs: viewer.orgs,
    label: t("share.label", { title: row.file.name }),
    onChange: (value) => row.documentId && api.setVisibility(row.documentId, value).then(refresh),
  });
}

// Whether the viewer owns `doc` (the local owner owns everything here).
function ours(doc) {
  return !team || doc.owner === viewer.user;
}

// Whether the viewer may change who sees `doc`: its owner, or an admin of an organisation
// it is shared with (the server checks again: `admin_of` only decides what is offered).
function mayShare(doc) {
  if (ours(doc)) return true;
  const administered = viewer.admin_of || [];
  return doc.visibility !== "private" && doc.org_tags.some((tag) => administered.includes(tag));
}

function cardVisibility(doc) {
  if (!team || !mayShare(doc)) return null;
  return visibilityChoice({
    value: doc.visibility,
    orgs: doc.org_tags,
    label: t("share.label", { title: doc.title }),
    onChange: (value) => api.setVisibility(doc.id, value).then(refresh),
  });
}

function card(doc) {
  const meta = [
    doc.format.toUpperCase(),
    doc.format === "pdf" && doc.pages ? t("doc.page_short", { n: doc.pages }) : null,
    languageName(doc.language),
    formatSize(doc.size_bytes),
    doc.created.slice(0, 10),
    doc.job && doc.job.state !== "ready" ? doc.job.step : null, // still being read, or failed
  ]
    .filter(Boolean)
    .join(" · ");
  const remove = el(
    "button",
    {
      class: "icon-button danger-hover",
      type: "button",
      title: t("library.remove"),
      "aria-label": t("library.remove_named", { title: doc.title }),
      onclick: () => confirmRemove(doc),
    },
    icon("trash", 17),
  );
  return documentCard(doc, {
    href: `/reader.html?doc=${encodeURIComponent(doc.id)}`,
    meta,
    note: doc.job?.state === "failed" ? t("library.failed_help") : doc.notices.join("; ") || null,
    extra: [
      picked.box(doc),
      cardVisibility(doc),
      ...(doc.job?.state === "failed" ? [retryButton(doc)] : []),
      ours(doc) ? remove : null, // another member's shared document is theirs to remove
    ],
  });
}

// A failed ingestion job is queued again; the list shows its progress from then on.
function retryButton(doc) {
  const retry = async () => {
    try {
      await api.retryDocument(doc.id);
    } catch (error) {
      alertLine(error.message);
    }
    refresh();
  };
  return el(
    "button",
    {
      class: "icon-button",
      type: "button",
      "aria-label": t("library.retry_label", { title: doc.title }),
      onclick: retry,
    },
    t("library.retry"),
  );
}

function confirmRemove(doc) {
  const dialog = $("#confirm");
  $("#confirm-text").replaceChildren(t("library.remove.text", { title: shorten(doc.title, 100) }));
  dialog.returnValue = "";
  dialog.addEventListener(
    "close",
    async () => {
      if (dialog.returnValue !== "remove") return;
      try {
        await api.deleteDocument(doc.id);
      } catch (error) {
        alertLine(error.message);
      }
      refresh();
    },
    { once: true },
  );
  dialog.showModal();
}

function alertLine(message) {
  $("#uploads").prepend(el("div", { class: "notice error" }, message));
}

function setUpUpload() {
  const input = $("#file");
  input.accept = ACCEPTED.join(","); // the file chooser offers what the server reads
  input.addEventListener("change", () => {
    uploads.add([...input.files]);
    input.value = "";
  });
  const drop = $("#drop");
  for (const type of ["dragenter", "dragover"]) {
    document.addEventListener(type, (e) => {
      e.preventDefault();
      drop.classList.add("active");
    });
  }
  document.addEventListener(
    "dragleave",
    (e) => e.relatedTarget == null && drop.classList.remove("active"),
  );
  document.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("active");
    uploads.add([...e.dataTransfer.files]);
  });
}

// `?` lists the keys here as in the reader; `u` opens the file chooser.
function setUpShortcuts() {
  const run = () => $("#file").click();
  new Shortcuts().add({ keys: ["u"], shown: ["u"], what: t("library.shortcut.upload"), run });
}

showIdentity();
setUpUpload();
document.addEventListener("share-refused", (event) =>
  alertLine(/** @type {CustomEvent} */ (event).detail.message),
);
setUpShortcuts();
refresh();
