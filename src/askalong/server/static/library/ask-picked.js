// Asking several or all of the library's documents as one: a box on each document card
// picks it, and the bar above the list opens them in the collection page
// (collection.html?docs=…), whose panel asks them together.

import { el } from "../lib/dom.js";
import { t } from "../lib/i18n.js";

export function pickedUrl(ids) {
  return `/collection.html?docs=${ids.map(encodeURIComponent).join(",")}`;
}

export class AskPicked {
  constructor(bar) {
    this.bar = bar;
    this.picked = new Set();
    this.ids = [];
    const some = () => this.go([...this.picked]);
    this.some = el("button", { class: "button", type: "button", onclick: some });
    this.all = el(
      "button",
      { class: "button", type: "button", onclick: () => this.go(this.ids) },
      t("library.ask_all"),
    );
    bar.replaceChildren(this.some, this.all);
  }

  // The listed documents (ids in the list's order); picks of vanished ones are dropped.
  show(ids) {
    this.ids = ids;
    this.picked = new Set(ids.filter((id) => this.picked.has(id)));
    this.bar.hidden = ids.length === 0;
    this.update();
  }

  // The box that picks one document, for its card.
  box(doc) {
    return el("input", {
      class: "doc-pick",
      type: "checkbox",
      "aria-label": t("library.pick", { title: doc.title }),
      checked: this.picked.has(doc.id),
      onchange: (event) => this.pick(doc.id, event.target.checked),
    });
  }

  pick(id, on) {
    if (on) this.picked.add(id);
    else this.picked.delete(id);
    this.update();
  }

  update() {
    const n = this.picked.size;
    this.some.disabled = n === 0;
    this.some.replaceChildren(n ? t("library.ask_picked", { n }) : t("library.pick_some"));
  }

  go(ids) {
    if (ids.length) location.assign(pickedUrl(ids));
  }
}
