// The library's documents for a member of a team, grouped by whose they are: the member's
// own first, then what others share with each of the member's organisations, then what is
// public (and, for the install's owner who sees everything, other members' private ones).
// The local owner of a server without accounts sees one list, ungrouped.

import { t } from "../lib/i18n.js";

// [{title, documents}] in the order shown, empty groups left out; `viewer` is the session.
export function groupDocuments(documents, viewer) {
  if (!viewer?.multi_user) return [{ title: null, documents }];
  const groups = new Map([[t("library.group.yours"), []]]);
  const put = (title, doc) => groups.set(title, [...(groups.get(title) ?? []), doc]);
  for (const doc of documents) put(groupOf(doc, viewer), doc);
  const last = [t("library.group.public"), t("library.group.others")];
  const rank = (title) => last.indexOf(title) + 1; // shared first, then public, then others'
  const ordered = [...groups].sort(([a], [b]) => rank(a) - rank(b));
  return ordered
    .filter(([, docs]) => docs.length)
    .map(([title, docs]) => ({ title, documents: docs }));
}

function groupOf(doc, viewer) {
  if (doc.owner === viewer.user) return t("library.group.yours");
  if (doc.visibility === "public") return t("library.group.public");
  if (doc.visibility === "org") {
    return t("library.group.shared", { org: sharedThrough(doc, viewer) });
  }
  return t("library.group.others"); // the install's owner sees every member's
}

// The organisation through which the viewer sees a shared document: the first of its tags
// the viewer belongs to (an admin who sees every document: its first tag).
function sharedThrough(doc, viewer) {
  return doc.org_tags.find((org) => viewer.orgs.includes(org)) ?? doc.org_tags[0] ?? "";
}
