import { t } from "./i18n.js";

// DOM helpers. Document text only ever enters the page as text nodes: `el` appends
// strings with Node.append (a text node), never through innerHTML.

export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value == null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  append(node, children);
  return node;
}

export function append(node, children) {
  for (const child of [children].flat(Infinity)) {
    if (child != null && child !== false) node.append(child);
  }
  return node;
}

export function clear(node) {
  node.replaceChildren();
  return node;
}

// A keydown handler for a question box: Enter sends, Shift+Enter is a new line, and an
// Enter that ends an IME composition (Chinese input) is left to the IME.
export function sendOnEnter(send) {
  return (event) => {
    if (event.key !== "Enter" || event.shiftKey || event.isComposing) return;
    event.preventDefault();
    send();
  };
}

const SVG = "http://www.w3.org/2000/svg";

// Line icons drawn from constant path data (24x24, stroked).
const ICONS = {
  ask: "M4 5h16v10H9l-5 4z M8.5 9.5h7 M8.5 12h4",
  anchor: "M12 3v18 M5 12a7 7 0 0 0 14 0 M9 6h6",
  send: "M5 12h13 M13 6l6 6-6 6",
  close: "M6 6l12 12 M18 6L6 18",
  upload: "M12 16V4 M7 9l5-5 5 5 M5 20h14",
  trash: "M5 7h14 M10 7V4h4v3 M7 7l1 13h8l1-13",
  back: "M15 5l-7 7 7 7",
  search: "M10.5 4a6.5 6.5 0 1 1 0 13 6.5 6.5 0 0 1 0-13z M15.5 15.5L20 20",
  list: "M8 6h12 M8 12h12 M8 18h12 M4 6h.01 M4 12h.01 M4 18h.01",
  panel: "M4 5h16v14H4z M14 5v14",
  doc: "M7 3h7l5 5v13H7z M14 3v5h5",
  thread: "M5 6h14 M5 11h10 M5 16h7",
  reanchor: "M4 12a8 8 0 0 1 14-5 M20 12a8 8 0 0 1-14 5 M18 3v4h-4 M6 21v-4h4",
  thumbUp:
    "M7 11v9H4v-9z M7 11l4-7a2 2 0 0 1 3 2l-1 4h5a2 2 0 0 1 2 2.3l-1.2 6A2 2 0 0 1 16.8 20H7",
  thumbDown:
    "M7 13V4H4v9z M7 13l4 7a2 2 0 0 0 3-2l-1-4h5a2 2 0 0 0 2-2.3l-1.2-6A2 2 0 0 0 16.8 4H7",
  chat: "M4 5h16v11H10l-5 4v-4H4z",
};

export function icon(name, size = 18) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", String(size));
  svg.setAttribute("height", String(size));
  svg.setAttribute("aria-hidden", "true");
  svg.classList.add("icon");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", ICONS[name]);
  svg.append(path);
  return svg;
}

// At most `max` characters, the last "…" when cut; spaces and line breaks run together into
// one space, but code's (`lines`), whose line breaks and indents are its structure.
export function shorten(text, max, { lines = false } = {}) {
  const flat = lines ? text.trimEnd() : text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

// The page's "cannot open" state: what went wrong and the way back to the library.
export function errorState(title, detail) {
  return el(
    "div",
    { class: "empty" },
    el("div", { class: "empty-icon" }, icon("doc", 28)),
    el("h2", {}, title),
    el("p", {}, detail),
    el("a", { href: "/", class: "button" }, t("app.back")),
  );
}

// A document's card: its format badge and its link (title, meta line, optional note),
// then any `extra` (a remove button); the library and a collection's page list these.
export function documentCard(doc, { href, meta, note = null, extra = null }) {
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
      { class: "doc-link", href },
      el("span", { class: "doc-card-title" }, shorten(doc.title, 120)),
      el("span", { class: "doc-card-meta" }, meta),
      note ? el("span", { class: "doc-card-note" }, shorten(note, 140)) : null,
    ),
    extra,
  );
}
