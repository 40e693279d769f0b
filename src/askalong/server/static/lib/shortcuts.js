// Keyboard shortcuts: one table of keys, each with what it does, read by the key handler
// and by the `?` sheet that lists them. A shortcut never fires while a person is typing
// (inputs, text areas, editable text), nor over a dialog, whose keys are its own.

import { el } from "./dom.js";
import { rememberFocus } from "./focus-trap.js";
import { t } from "./i18n.js";

const TEXT_INPUTS = new Set(["button", "checkbox", "radio", "range", "reset", "submit", "file"]);

// True when keys typed at `target` are text (an input, a text area, editable content).
export function isTyping(target) {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target.tagName === "TEXTAREA" || target.tagName === "SELECT")
    return true;
  return target instanceof HTMLInputElement && !TEXT_INPUTS.has(target.type);
}

// "j", "J" (Shift+j), "?", "Shift+ArrowDown": a printable key is its character, which
// already carries Shift; a named key gets "Shift+" in front.
export function comboOf(event) {
  return event.shiftKey && event.key.length > 1 ? `Shift+${event.key}` : event.key;
}

const ACTIVATES = new Set(["Enter", " "]);

function leftAlone(event) {
  if (event.defaultPrevented || event.isComposing) return true;
  if (event.ctrlKey || event.metaKey || event.altKey) return true;
  const target = event.target;
  if (isTyping(target)) return true;
  if (target instanceof Element && target.closest("dialog, [role=dialog]")) return true;
  // Enter and Space on a button or a link are that control's own.
  return ACTIVATES.has(event.key) && target instanceof Element && !!target.closest("a, button");
}

export class Shortcuts {
  // `fallback`: where focus goes when the sheet closes and what had it is gone.
  constructor({ fallback = null } = {}) {
    this.fallback = fallback;
    this.entries = [];
    this.listening = new AbortController();
    document.addEventListener("keydown", (e) => this.onKey(e), { signal: this.listening.signal });
    const run = () => this.showSheet();
    this.add({ keys: ["?"], shown: ["?"], what: t("keys.show"), run });
  }

  // keys: combos (see comboOf); shown: how the sheet writes them; when: whether it applies
  // now; run: the action (returning false lets the key do what it does anyway).
  /**
   * @param {{keys?: string[], shown: string[], what: string, when?: (event: KeyboardEvent) => boolean,
   *   run?: ((event: KeyboardEvent) => unknown) | null}} entry
   */
  add({ keys = [], shown, what, when, run = null }) {
    this.entries.push({ keys, shown, what, when: when ?? (() => true), run });
    return this;
  }

  // A line on the sheet for a key another part of the page handles (Esc in the ask box).
  describe(shown, what) {
    return this.add({ shown, what });
  }

  onKey(event) {
    if (leftAlone(event)) return;
    const combo = comboOf(event);
    const entry = this.entries.find((e) => e.run && e.keys.includes(combo) && e.when(event));
    if (entry && entry.run(event) !== false) event.preventDefault();
  }

  showSheet() {
    this.sheet?.remove();
    const close = el("button", { class: "button", type: "button" }, t("common.close"));
    this.sheet = el(
      "dialog",
      { class: "confirm shortcut-sheet", "aria-labelledby": "shortcut-sheet-title" },
      el("h2", { id: "shortcut-sheet-title" }, t("keys.sheet")),
      el("table", { class: "shortcut-table" }, el("tbody", {}, this.entries.map(row))),
      el("div", { class: "dialog-actions" }, close),
    );
    close.addEventListener("click", () => this.sheet.close());
    this.sheet.addEventListener("close", rememberFocus(this.fallback), { once: true });
    document.body.append(this.sheet);
    this.sheet.showModal();
    close.focus();
  }

  get sheetOpen() {
    return !!this.sheet?.open;
  }

  destroy() {
    this.listening.abort();
    this.sheet?.remove();
  }
}

function row({ shown, what }) {
  const keys = shown.flatMap((key, i) => [i ? t("keys.or") : null, el("kbd", {}, key)]);
  return el("tr", {}, el("th", { scope: "row" }, keys), el("td", {}, what));
}
