// The reading view: loads a document's structure, renders it (PDF or HTML), and wires
// selection -> floating button -> ask box -> side panel -> quote highlight.

import * as api from "../lib/api.js";
import { AskBox } from "./askbox.js";
import { el, errorState } from "../lib/dom.js";
import { isLanguageTag, languageName, t, tn } from "../lib/i18n.js";
import { showIdentity } from "../lib/identity.js";
import { setUpLanguage } from "../lib/language-switch.js";
import { Find, setUpSearch } from "./find.js";
import { Highlighter } from "./highlight.js";
import { HtmlView } from "./htmlview.js";
import { Outline } from "./outline.js";
import { PageIndicator } from "./pageindicator.js";
import { CodeView } from "./codeview.js";
import { IdentifierCard } from "./identifier.js";
import { cpSlice } from "../lib/offsets.js";
import { Panel } from "../panel/panel.js";
import { PdfView } from "./pdfview.js";
import { ReaderKeys } from "./keyboard.js";
import { SelectionWatcher } from "./selection.js";
import { SymbolLinks, symbolEntries } from "./symbols.js";
import { UrlState } from "./url-state.js";
import { resumePending } from "../panel/pending.js";
import { BLOCKS_EVENT } from "./unread-page.js";
import { Zoom } from "./zoom.js";

const $ = (selector) => document.querySelector(selector);

async function main() {
  const docId = new URLSearchParams(location.search).get("doc");
  if (!docId) return showError(t("reader.no_document"), t("reader.open_one"));
  let structure;
  let code = null; // a source file's symbols and highlighting
  try {
    structure = await api.getDocument(docId);
    if (structure.document.format === "code") code = await api.codeView(structure.document.id);
  } catch (error) {
    return showError(t("reader.cannot_open"), error.message);
  }
  const reader = mount(structure, code);
  window.askalong = reader; // for tests and the console
  document.body.classList.add("ready");
  await new Promise(requestAnimationFrame); // laid out: a block's place can be measured
  await reader.urlState.restore();
  reader.resumed = await resumePending(reader.panel, structure.document.id);
}

function mount(structure, code) {
  const { document: doc } = structure;
  document.title = t("app.titled", { title: doc.title });
  $("#doc-title").replaceChildren(doc.title);
  $("#doc-meta").replaceChildren(metaLine(doc), ...repositoryLinks(code));
  const blocks = new Map(structure.blocks.map((b) => [b.id, b]));
  const scroller = $("#reader-scroll");
  const root = $("#document");
  root.lang = isLanguageTag(doc.language) ? doc.language : "";
  const view = code
    ? new CodeView(scroller, root, structure, code)
    : doc.format === "pdf"
      ? new PdfView(scroller, root, structure)
      : new HtmlView(scroller, root, structure);
  const highlighter = new Highlighter(scroller, view, blocks);
  const highlight = (blockId, start, end) => highlighter.highlight(blockId, start, end);
  let urlState = null; // made once the panel exists; it follows the panel's thread
  const onThreadChange = (thread) => urlState?.threadChanged(thread);
  const panel = new Panel($("#panel"), { docId: doc.id, blocks, highlight, onThreadChange });
  const highlightAt = (blockId, start, end, options) =>
    highlighter.highlight(blockId, start, end, options);
  urlState = new UrlState({ scroller, root, structure, panel, highlight: highlightAt });
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
  setUpSearch(doc.id, highlight, options);
  // Blocks of a page read now (unread-page.js) join the map selections and quotes use.
  const addBlocks = (event) => {
    for (const b of event.detail) blocks.set(b.id, b);
  };
  root.addEventListener(BLOCKS_EVENT, addBlocks, options);
  const symbols = code && new SymbolLinks({ docId: doc.id, blocks, highlight });
  // the block cursor's Enter asks about its blocks: a caret left in a name waits
  const cursorOn = () => keys.cursor.isActive;
  const identifiers =
    code &&
    new IdentifierCard({ root, docId: doc.id, blocks, highlight, symbols, cursorOn, ...options });
  const outline = new Outline(scroller, root, structure, {
    highlight,
    ...options,
    ...(code && { entries: symbolEntries(code), row: (entry, item) => symbols.row(entry, item) }),
  });
  const pages = new PageIndicator(scroller, view, options);
  const pageNow = () => pages.current;
  const redraw = () => highlighter.last && highlighter.draw(...highlighter.last);
  const onZoom = () => {
    redraw();
    urlState.onScroll(); // the address keeps the zoom, written once it settles
  };
  const zoom = new Zoom(scroller, root, view, { onChange: onZoom, pageNow, ...options });
  urlState.follow(zoom);
  const find = new Find(scroller, root, view, structure, { pageNow, ...options });
  const togglePanel = () => document.body.classList.toggle("panel-closed");
  $("#toggle-panel").addEventListener("click", togglePanel, options);
  const blockList = structure.blocks;
  const askBoxOpen = () => askBox.isOpen;
  const keys = new ReaderKeys({ scroller, root, view, blocks: blockList, onAsk, askBoxOpen });
  const destroy = () => {
    toolbar.abort();
    const widgets = [urlState, keys, watcher, askBox, highlighter, panel, find, zoom, pages];
    for (const widget of [...widgets, outline, view]) widget.destroy();
    identifiers?.destroy();
  };
  return {
    structure,
    highlight,
    highlightedText: () => highlighter.text,
    highlightMarks: () => highlighter.marks.map((m) => m.getBoundingClientRect().toJSON()),
    lastHighlight: () => highlighter.last && [highlighter.last[0].id, ...highlighter.last.slice(1)],
    selection: () => watcher.current?.selection ?? null,
    blockSlice: (id, start, end) => cpSlice(blocks.get(id).text, start, end),
    panel,
    urlState,
    askBox,
    watcher,
    keys,
    zoom,
    pages,
    find,
    outline,
    identifiers,
    destroy,
  };
}

function metaLine(doc) {
  // a format's short name (PDF, HTML) reads in any language; "code" is said in the reader's
  const parts = [doc.format === "code" ? t("library.kind.code") : doc.format.toUpperCase()];
  if (doc.format === "pdf" && doc.pages) parts.push(tn("doc.pages", doc.pages));
  const spoken = languageName(doc.language);
  if (spoken) parts.push(spoken);
  return parts.join(" · ");
}

// A source file's repositories: each a link to its file tree (collection/tree.js).
function repositoryLinks(code) {
  return (code?.repositories ?? []).flatMap((repo) => [
    " · ",
    el(
      "a",
      { class: "repository-link", href: `/collection.html?c=${encodeURIComponent(repo.id)}` },
      t("tree.open", { name: repo.name }),
    ),
  ]);
}

function showError(title, detail) {
  $("#document").replaceChildren(errorState(title, detail));
  document.body.classList.add("ready");
}

setUpLanguage();
showIdentity();
main();
