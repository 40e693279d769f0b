// The library's documents for a member of a team, grouped by whose they are: the member's
// own first, then what others share with each of the member's organisations, then what is
// public. The local owner (no accounts) sees one list, ungrouped.

import { t } from "../lib/i18n.js";

// [{title, documents}] in the order shown, empty groups left out; `viewer` is the session.
export function groupDocuments(documents, viewer) {
  if (!viewer?.multi_user) return [{ title: null, documents }];
  const groups = new Map([[t("library.group.yours"), []]]);
  const put = (title, doc) => groups.set(title, [...(groups.get(title) ?? []), doc]);
  for (const doc of documents) {
    if (doc.owner === viewer.user) put(t("library.group.yours"), doc);
    else if (doc.visibility === "public") put(t("library.group.public"), doc);
    else put(t("library.group.shared", { org: sharedThrough(doc, viewer) }), doc);
  }
  const publicTitle = t("library.group.public");
  const ordered = [...groups].sort(([a], [b]) => (a === publicTitle) - (b === publicTitle));
  return ordered.filter(([, docs]) => docs.length).map(([title, docs]) => ({ title, documents: docs }));
}

// The organisation through which the viewer sees a shared document: the first of its tags
// the viewer belongs to (an admin who sees every document: its first tag).
function sharedThrough(doc, viewer) {
  return doc.org_tags.find((org) => viewer.orgs.includes(org)) ?? doc.org_tags[0] ?? "—";
}
