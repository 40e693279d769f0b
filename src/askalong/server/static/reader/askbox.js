// The ask box, opened from the floating button and anchored beside the selection.
// A quick intent alone is a complete question; typed text refines it. Compare with no
// typed text asks "with what?" first (compare-target.js). Esc closes and gives focus back
// to what opened it; Tab stays inside while it is open (lib/focus-trap.js).

import { el, icon, sendOnEnter, shorten } from "../lib/dom.js";
import { rememberFocus, trapFocus } from "../lib/focus-trap.js";
import { t } from "../lib/i18n.js";
import { QUICK_INTENTS } from "../lib/intents.js";
import { CompareTarget, compareQuestion } from "./compare-target.js";

export class AskBox {
  // `targets(selection)`: a promise of what the selection might be compared with.
  /**
   * @param {(asked: {selection: any, question: string, intent: string | undefined}) => void} onSubmit
   * @param {{targets?: (selection: any) => Promise<any[]>}} [options]
   */
  constructor(onSubmit, { targets = async () => [] } = {}) {
    this.onSubmit = onSubmit;
    this.targets = targets;
    this.compareTarget = new CompareTarget((target) => this.compareWith(target));
    this.quote = el("div", { class: "askbox-quote" });
    this.input = el("textarea", {
      class: "askbox-input",
      rows: 2,
      placeholder: t("askbox.placeholder"),
      "aria-label": t("askbox.question"),
      onkeydown: sendOnEnter(() => this.submit(null)),
    });
    this.send = el(
      "button",
      {
        class: "askbox-send",
        type: "button",
        title: t("askbox.send.title"),
        "aria-label": t("askbox.send"),
        onclick: () => this.submit(null),
      },
      icon("send", 16),
    );
    const row = el(
      "div",
      { class: "askbox-row" },
      el("div", { class: "intents" }, this.chips()),
      this.send,
    );
    this.box = el(
      "div",
      { class: "askbox", role: "dialog", "aria-label": t("askbox.dialog"), hidden: true },
      this.quote,
      this.input,
      row,
      this.compareTarget.el,
    );
    document.body.append(this.box);
    trapFocus(this.box);
    // The compare suggestions arrive after the box is placed: as it grows, place it again,
    // so it never runs off the bottom of the window.
    this.resizing = new ResizeObserver(() => this.isOpen && this.near && this.place(this.near));
    this.resizing.observe(this.box);
    // Document listeners go with the box: destroy() aborts them all at once.
    this.listening = new AbortController();
    const options = { signal: this.listening.signal };
    document.addEventListener("keydown", (e) => e.key === "Escape" && this.dismiss(), options);
    document.addEventListener(
      "mousedown",
      (e) => this.isOpen && !this.box.contains(e.target) && this.close(),
      options,
    );
  }

  chips() {
    return QUICK_INTENTS.map((intent) => {
      const onclick = () => this.submit(intent.id);
      return el(
        "button",
        { class: "chip", type: "button", dataset: { intent: intent.id }, onclick },
        intent.label,
      );
    });
  }

  // `fallback`: where focus goes back to on Esc when what had it before is gone.
  open(current, near, fallback = null) {
    this.current = current;
    this.near = near;
    this.restoreFocus = rememberFocus(fallback);
    this.quote.replaceChildren(`“${shorten(current.selection.text, 140)}”`);
    this.input.value = "";
    this.compareTarget.close();
    this.box.hidden = false;
    this.place(near);
    this.input.focus({ preventScroll: true });
  }

  place(near) {
    const box = this.box.getBoundingClientRect();
    const below = near.bottom + 8 + box.height < innerHeight;
    const top = below ? near.bottom + 8 : Math.max(near.top - box.height - 8, 8);
    this.box.style.top = `${top}px`;
    this.box.style.left = `${Math.max(8, Math.min(near.left - 24, innerWidth - box.width - 8))}px`;
  }

  submit(intent) {
    const question = this.input.value.trim();
    if (!question && !intent) return this.input.focus();
    if (intent === "compare" && !question) return this.askWithWhat();
    const current = this.current;
    this.close();
    this.onSubmit({ selection: current.selection, question, intent });
  }

  askWithWhat() {
    this.compareTarget.open(this.targets(this.current.selection));
    this.place(this.near);
  }

  compareWith(target) {
    const selection = this.current.selection;
    this.close();
    const question = compareQuestion(target, selection.text);
    this.onSubmit({ selection, question, intent: "compare" });
  }

  get isOpen() {
    return !this.box.hidden;
  }

  close() {
    this.compareTarget.close();
    this.box.hidden = true;
  }

  // Esc: closed without asking, focus back where it was.
  dismiss() {
    if (!this.isOpen) return;
    this.close();
    this.restoreFocus?.();
  }

  // Removes the box and its document listeners (for a view that unmounts).
  destroy() {
    this.listening.abort();
    this.resizing.disconnect();
    this.close();
    this.box.remove();
  }
}
