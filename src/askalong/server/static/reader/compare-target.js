// "Compare with…" asks "with what?" before anything is sent: a small input in the ask box
// with suggestions from the document (GET /api/documents/{id}/compare-targets: names near
// the selection, then other headings). A compare with no second term is never sent.

import { el, sendOnEnter } from "../lib/dom.js";
import { t } from "../lib/i18n.js";

// The compare question, in the selection's language (as the server phrases intents), not
// the UI's: it is what is asked, so it is no UI string.
export function compareQuestion(target, selection) {
  return /[\u3400-\u9fff]/.test(selection)
    ? `这与${target}有什么不同？`
    : `How does this differ from ${target}?`; // i18n-ignore: the question asked
}

export class CompareTarget {
  constructor(onCompare) {
    this.onCompare = onCompare;
    this.input = el("input", {
      class: "compare-input",
      type: "text",
      placeholder: t("compare.with_what"),
      "aria-label": t("compare.with_what"),
      onkeydown: sendOnEnter(() => this.compare(this.input.value)),
    });
    const go = el(
      "button",
      { class: "compare-go", type: "button", onclick: () => this.compare(this.input.value) },
      t("compare.go"),
    );
    this.suggestions = el("div", {
      class: "compare-suggestions",
      "aria-label": t("compare.suggestions"),
    });
    this.el = el(
      "div",
      { class: "compare-target", hidden: true },
      el("div", { class: "compare-row" }, this.input, go),
      this.suggestions,
    );
    this.asked = 0; // bumped per opening, so late suggestions for an earlier one are dropped
  }

  get isOpen() {
    return !this.el.hidden;
  }

  // Shows the input, then the suggestions once `targets` (a promise of strings) resolves.
  async open(targets) {
    const asked = ++this.asked;
    this.input.value = "";
    this.suggestions.replaceChildren();
    this.el.hidden = false;
    this.input.focus({ preventScroll: true });
    let found = [];
    try {
      found = await targets;
    } catch {
      return; // no suggestions: the input still takes a typed term
    }
    if (asked !== this.asked || this.el.hidden) return;
    this.suggestions.replaceChildren(...found.map((t) => this.suggestion(t)));
  }

  suggestion(target) {
    const onclick = () => this.compare(target);
    return el("button", { class: "compare-suggestion", type: "button", onclick }, target);
  }

  compare(target) {
    const term = target.trim();
    if (!term) return this.input.focus();
    this.close();
    this.onCompare(term);
  }

  close() {
    this.asked += 1;
    this.el.hidden = true;
  }
}
