// Finding a document in a long library: words of its title, documents or source code only
// (a repository's code files no longer bury the papers), newest first or by title. It
// works over the listing the page already has; the choice stays as the list refreshes.

import { el } from "../lib/dom.js";
import { language, t } from "../lib/i18n.js";

const KINDS = Object.freeze({
  all: () => true,
  documents: (doc) => doc.format !== "code",
  code: (doc) => doc.format === "code",
});
const ORDERS = Object.freeze({
  newest: (a, b) => b.created.localeCompare(a.created),
  title: (a, b) => a.title.localeCompare(b.title, language()),
});

export class LibraryFilter {
  // `onChange()`: the choice changed; the page shows `apply(documents)` again.
  constructor(container, onChange) {
    this.container = container;
    this.query = el("input", {
      type: "search",
      class: "library-search",
      placeholder: t("library.search"),
      "aria-label": t("library.search"),
      oninput: onChange,
    });
    this.kind = choice("kind", Object.keys(KINDS), onChange);
    this.order = choice("order", Object.keys(ORDERS), onChange);
    container.replaceChildren(this.query, this.kind, this.order);
  }

  // Shown once there is something to find.
  showFor(documents) {
    this.container.hidden = documents.length === 0;
  }

  apply(documents) {
    const words = this.query.value.toLocaleLowerCase().split(/\s+/).filter(Boolean);
    const matches = (doc) => words.every((w) => doc.title.toLocaleLowerCase().includes(w));
    return documents
      .filter((doc) => KINDS[this.kind.value](doc) && matches(doc))
      .sort(ORDERS[this.order.value]);
  }
}

function choice(name, values, onChange) {
  return el(
    "select",
    {
      class: `library-${name}`,
      "aria-label": t(`library.${name}`),
      title: t(`library.${name}`),
      onchange: onChange,
    },
    values.map((value) => el("option", { value }, t(`library.${name}.${value}`))),
  );
}
