// Who may see a document, chosen where it is uploaded and on its card: private (its owner
// only), shared with the organisations it was added in (its org_tags), or public. Its
// owner changes it with PUT /api/documents/{id}/visibility; a refusal puts the old choice
// back and says why.

import { el } from "../lib/dom.js";
import { t } from "../lib/i18n.js";

export const VISIBILITIES = Object.freeze(["private", "org", "public"]);

// A <select> of the visibilities; "org" is offered only when there are orgs to share with.
export function visibilityChoice({ value = "private", orgs, label, onChange }) {
  const words = {
    private: t("share.private"),
    org: t("share.org", { orgs: orgs.join(", ") }),
    public: t("share.public"),
  };
  const offered = VISIBILITIES.filter((v) => v !== "org" || orgs.length || value === "org");
  const select = el(
    "select",
    { class: "share-select", "aria-label": label, title: label },
    offered.map((v) => el("option", { value: v, selected: v === value }, words[v])),
  );
  let current = value;
  select.addEventListener("change", async () => {
    const previous = current;
    current = select.value;
    try {
      await onChange(select.value);
    } catch (error) {
      current = previous;
      select.value = previous;
      select.dispatchEvent(new CustomEvent("share-refused", { detail: error, bubbles: true }));
    }
  });
  return select;
}
