// The reading view: loads a document's structure, renders it (PDF or HTML), and wires
// selection -> floating button -> ask box -> side panel -> quote highlight.

import * as api from "../lib/api.js";
import { AskBox } from "./askbox.js";
import { errorState } from "../lib/dom.js";
import { Find, setUpSearch } from "./find.js";
import { Highlighter } from "./highlight.js";
import { HtmlView } from "./htmlview.js";
import { Outline } from "./outline.js";
import { PageIndicator } from "./pageindicator.js";
import { cpSlice } from "../lib/offsets.js";
import { Panel } from "../panel/panel.js";
import { PdfView } from "./pdfview.js";
import { SelectionWatcher } from "./selection.js";
import { Zoom } from "./zoom.js";

const $ = (selector) => document.querySelector(selector);

async function main() {
  const docId = new URLSearchParams(location.search).get("doc");
  if (!docId) return showError("No document was chosen.", "Open one from the library.");
  let structure;
  try {
    structure = await api.getDocument(docId);
  } catch (error) {
    return showError("This document cannot be opened.", error.message);
  }
  const reader = mount(structure);
  window.askalong = reader; // for tests and the console
  document.body.classList.add("ready");
}

function mount(structure) {
  const { document: doc } = structure;
  document.title = `${doc.title} — AskAlong`;
  $("#doc-title").replaceChildren(doc.title);
  $("#doc-meta").replaceChildren(metaLine(doc));
  const blocks = new Map(structure.blocks.map((b) => [b.id, b]));
  const scroller = $("#reader-scroll");
  const root = $("#document");
  root.lang = doc.language || "";
  const view =
    doc.format === "pdf"
      ? new PdfView(scroller, root, structure)
      : new HtmlView(scroller, root, structure);
  const highlighter = new Highlighter(scroller, view, blocks);
  const highlight = (blockId, start, end) => highlighter.highlight(blockId, start, end);
  const panel = new Panel($("#panel"), { docId: doc.id, blocks, highlight });
  const askBox = new AskBox((question) => panel.start(question));
  const watcher = new SelectionWatcher(root, scroller, {
    blockText: (id) => blocks.get(id)?.text ?? "",
    onAsk: (current, near) => {
      watcher.hide();
      askBox.open(current, near);
    },
    onReanchor: (current) => panel.reanchor(current.selection),
    canReanchor: () => panel.thread != null,
  });
  // The toolbar's listeners go with the mount, like the widgets' own.
  const toolbar = new AbortController();
  const options = { signal: toolbar.signal };
  setUpSearch(doc.id, highlight, options);
  const outline = new Outline(scroller, root, structure, { highlight, ...options });
  const pages = new PageIndicator(scroller, view, options);
  const pageNow = () => pages.current;
  const redraw = () => highlighter.last && highlighter.draw(...highlighter.last);
  const zoom = new Zoom(scroller, root, view, { onChange: redraw, pageNow, ...options });
  const find = new Find(scroller, root, view, structure, { pageNow, ...options });
  const togglePanel = () => document.body.classList.toggle("panel-closed");
  $("#toggle-panel").addEventListener("click", togglePanel, options);
  const destroy = () => {
    toolbar.abort();
    const widgets = [watcher, askBox, highlighter, panel, find, zoom, pages, outline, view];
    for (const widget of widgets) widget.destroy();
  };
  return {
    structure,
    highlight,
    highlightedText: () => highlighter.text,
    highlightMarks: () => highlighter.marks.map((m) => m.getBoundingClientRect().toJSON()),
    selection: () => watcher.current?.selection ?? null,
    blockSlice: (id, start, end) => cpSlice(blocks.get(id).text, start, end),
    panel,
    askBox,
    watcher,
    zoom,
    pages,
    find,
    outline,
    destroy,
  };
}

function metaLine(doc) {
  const parts = [doc.format.toUpperCase()];
  if (doc.format === "pdf" && doc.pages)
    parts.push(`${doc.pages} page${doc.pages === 1 ? "" : "s"}`);
  if (doc.language) parts.push(doc.language);
  return parts.join(" · ");
}

function showError(title, detail) {
  $("#document").replaceChildren(errorState(title, detail));
  document.body.classList.add("ready");
}

main();
