// A repository's files as a tree (folders that open and close, files that open in the
// reader) with a finder: typing filters the files to the paths holding every word typed
// (in any case, in order of the words' first letters: "lk py" finds asyncio/locks.py),
// every folder on the way opened; Enter opens the first file shown. Paths are the
// members' sources below the folder they all share, as an answer names them.

import { el } from "../lib/dom.js";
import { t, tn } from "../lib/i18n.js";

export function repositoryTree(documents, readerUrl) {
  const paths = sharedRoot(documents.map((d) => d.source));
  const root = { folders: new Map(), files: [] };
  documents.forEach((doc, i) => {
    addFile(root, paths[i].split("/"), doc, paths[i]);
  });
  const tree = el("nav", { class: "file-tree", "aria-label": t("tree.label") });
  tree.append(...renderFolder(root, 0, readerUrl));
  const count = el("output", { class: "finder-count", "aria-live": "polite" });
  const finder = el("input", {
    class: "file-finder",
    type: "search",
    placeholder: t("tree.find"),
    "aria-label": t("tree.find"),
    autocomplete: "off",
  });
  finder.addEventListener("input", () => filter(tree, finder.value, count));
  finder.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    const first = tree.querySelector(".tree-file:not([hidden]) a"); // i18n-ignore: a selector
    if (first) location.assign(first.href);
  });
  return el(
    "div",
    { class: "repository" },
    el("div", { class: "finder-row" }, finder, count),
    tree,
  );
}

function addFile(node, parts, doc, path) {
  if (parts.length === 1) {
    node.files.push({ name: parts[0], doc, path });
    return;
  }
  const [head, ...rest] = parts;
  if (!node.folders.has(head)) node.folders.set(head, { folders: new Map(), files: [] });
  addFile(node.folders.get(head), rest, doc, path);
}

// Folders first, then files, each by name; the top two levels open.
function renderFolder(node, depth, readerUrl) {
  const folders = [...node.folders].sort(([a], [b]) => a.localeCompare(b));
  const files = [...node.files].sort((a, b) => a.name.localeCompare(b.name));
  return [
    ...folders.map(([name, child]) =>
      el(
        "details",
        { class: "tree-folder", open: depth < 2 },
        el("summary", {}, `${name}/`),
        el("div", { class: "tree-children" }, ...renderFolder(child, depth + 1, readerUrl)),
      ),
    ),
    ...files.map((file) =>
      el(
        "div",
        { class: "tree-file", dataset: { path: file.path, id: file.doc.id } },
        el("a", { href: readerUrl(file.doc.id) }, file.name),
      ),
    ),
  ];
}

function filter(tree, typed, count) {
  const words = typed.toLowerCase().split(/\s+/).filter(Boolean);
  let shown = 0;
  for (const file of tree.querySelectorAll(".tree-file")) {
    const hit = matches(file.dataset.path.toLowerCase(), words);
    file.hidden = !hit;
    shown += hit ? 1 : 0;
  }
  // A folder is shown when a file below it is; all open while finding.
  for (const folder of [...tree.querySelectorAll(".tree-folder")].reverse()) {
    folder.hidden = words.length > 0 && !folder.querySelector(".tree-file:not([hidden])");
    if (words.length) folder.open = true;
  }
  count.value = words.length ? tn("tree.found", shown) : "";
}

// Each word is in the path, or its letters are, in order (a fuzzy finder's rule).
function matches(path, words) {
  return words.every((word) => path.includes(word) || inOrder(path, word));
}

function inOrder(path, word) {
  let at = 0;
  for (const char of word) {
    at = path.indexOf(char, at);
    if (at < 0) return false;
    at += 1;
  }
  return true;
}

// The sources below the folder they all share (one source: its name).
export function sharedRoot(sources) {
  const split = sources.map((s) => s.split(/[\\/]+/).filter(Boolean));
  let shared = Math.min(...split.map((parts) => parts.length - 1));
  for (let i = 0; i < shared; i += 1) {
    if (split.some((parts) => parts[i] !== split[0][i])) shared = i;
  }
  return split.map((parts) => parts.slice(shared).join("/"));
}
