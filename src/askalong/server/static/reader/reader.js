// The reading view: loads a document's structure, renders it (PDF or HTML), and wires
// selection -> floating button -> ask box -> side panel -> quote highlight.

import * as api from "../lib/api.js";
import { AskBox } from "./askbox.js";
import { el, errorState, shorten } from "../lib/dom.js";
import { Highlighter } from "./highlight.js";
import { HtmlView } from "./htmlview.js";
import { cpSlice } from "../lib/offsets.js";
import { Panel } from "../panel/panel.js";
import { PdfView } from "./pdfview.js";
import { ReaderKeys } from "./keyboard.js";
import { SelectionWatcher } from "./selection.js";
import { UrlState } from "./url-state.js";
import { resumePending } from "../panel/pending.js";
import { BLOCKS_EVENT } from "./unread-page.js";

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
  await new Promise(requestAnimationFrame); // laid out: a block's place can be measured
  await reader.urlState.restore();
  reader.resumed = await resumePending(reader.panel, structure.document.id);
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
  let urlState = null; // made once the panel exists; it follows the panel's thread
  const onThreadChange = (thread) => urlState?.threadChanged(thread);
  const panel = new Panel($("#panel"), { docId: doc.id, blocks, highlight, onThreadChange });
  urlState = new UrlState({ scroller, root, structure, panel });
  // Sent: focus goes on to the panel's question box, for the follow-up.
  const askBox = new AskBox(
    (question) => {
      const asking = panel.start(question);
      panel.composer.input.focus({ preventScroll: true });
      return asking;
    },
    { targets: (selection) => api.compareTargets(doc.id, selection.block_id) },
  );
  const onAsk = (current, near) => {
    watcher.hide();
    askBox.open(current, near, scroller);
  };
  const watcher = new SelectionWatcher(root, scroller, {
    blockText: (id) => blocks.get(id)?.text ?? "",
    onAsk,
    onReanchor: (current) => panel.reanchor(current.selection),
    canReanchor: () => panel.thread != null,
  });
  // The toolbar's listeners go with the mount, like the widgets' own.
  const toolbar = new AbortController();
  const options = { signal: toolbar.signal };
  setUpOutline(structure, highlight, options);
  setUpSearch(doc.id, highlight, options);
  // Blocks of a page read now (unread-page.js) join the map selections and quotes use.
  const addBlocks = (event) => event.detail.forEach((b) => blocks.set(b.id, b));
  root.addEventListener(BLOCKS_EVENT, addBlocks, options);
  const togglePanel = () => document.body.classList.toggle("panel-closed");
  $("#toggle-panel").addEventListener("click", togglePanel, options);
  const blockList = structure.blocks;
  const askBoxOpen = () => askBox.isOpen;
  const keys = new ReaderKeys({ scroller, root, view, blocks: blockList, onAsk, askBoxOpen });
  const destroy = () => {
    toolbar.abort();
    for (const widget of [urlState, keys, watcher, askBox, highlighter, panel, view]) {
      widget.destroy();
    }
  };
  return {
    structure,
    highlight,
    highlightedText: () => highlighter.text,
    highlightMarks: () => highlighter.marks.map((m) => m.getBoundingClientRect().toJSON()),
    selection: () => watcher.current?.selection ?? null,
    blockSlice: (id, start, end) => cpSlice(blocks.get(id).text, start, end),
    panel,
    urlState,
    askBox,
    watcher,
    keys,
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

function setUpOutline(structure, highlight, options) {
  const menu = $("#outline");
  const entries = structure.outline.slice(0, 400);
  if (!entries.length) {
    $("#toggle-outline").hidden = true;
    return;
  }
  menu.replaceChildren(
    ...entries.map((entry) =>
      el(
        "button",
        {
          class: `outline-item level-${Math.min(entry.level, 4)}`,
          type: "button",
          onclick: () => {
            menu.hidden = true;
            highlight(entry.block_id, 0, Number.MAX_SAFE_INTEGER);
          },
        },
        el("span", {}, shorten(entry.text, 80)),
        entry.page ? el("span", { class: "muted" }, String(entry.page)) : null,
      ),
    ),
  );
  const toggle = () => {
    menu.hidden = !menu.hidden;
    $("#results").hidden = true;
  };
  $("#toggle-outline").addEventListener("click", toggle, options);
}

function setUpSearch(docId, highlight, options) {
  const input = $("#search");
  const results = $("#results");
  const onKey = async (event) => {
    if (event.key === "Escape") results.hidden = true;
    if (event.key !== "Enter" || !input.value.trim()) return;
    results.hidden = false;
    results.replaceChildren(muted("Searching…"));
    try {
      const found = await api.search(input.value.trim(), docId);
      const hits = found.hits.map((hit) => searchHit(hit, highlight, results));
      results.replaceChildren(...(hits.length ? hits : [muted("No matching passages.")]));
    } catch (error) {
      results.replaceChildren(muted(error.message));
    }
  };
  input.addEventListener("keydown", onKey, options);
}

function searchHit(hit, highlight, results) {
  const span = hit.spans[0];
  const where = [
    hit.page_start ? `p. ${hit.page_start}` : "",
    hit.section_path[hit.section_path.length - 1] ?? "",
  ]
    .filter(Boolean)
    .join(" · ");
  return el(
    "button",
    {
      class: "result",
      type: "button",
      onclick: () => {
        results.hidden = true;
        highlight(span.block_id, span.start, span.end);
      },
    },
    el("span", { class: "result-where" }, shorten(where, 70)),
    el("span", { class: "result-text" }, shorten(hit.text, 180)),
  );
}

function muted(text) {
  return el("p", { class: "muted pad" }, text);
}

function showError(title, detail) {
  $("#document").replaceChildren(errorState(title, detail));
  document.body.classList.add("ready");
}

main();
