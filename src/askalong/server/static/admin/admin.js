// The admin page (site administrators only; the server answers 404 to anyone else):
// accounts (list, disable or enable, create with a first password shown once), orgs as a
// tree with their members and roles, each visible document's visibility, and the feedback
// on answers with its triage (feedback.js). Everything
// shown enters the page as text nodes (dom.js `el`); every write goes through api.js's
// `request`, which adds the session's CSRF token.

import { listDocuments, request } from "../lib/api.js";
import { el } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { feedbackSection } from "./feedback.js";

// Every string this page shows, from the catalogue (lib/strings/).
const TEXT = {
  title: t("admin.title"),
  pageTitle: t("admin.page_title"),
  users: t("admin.users"),
  user: t("admin.user"),
  admin: t("admin.admin"),
  status: t("admin.status"),
  orgs: t("admin.orgs"),
  disabled: t("admin.disabled"),
  enabled: t("admin.enabled"),
  disable: t("admin.disable"),
  enable: t("admin.enable"),
  yes: t("admin.yes"),
  newUser: t("admin.new_user"),
  newUserId: t("admin.new_user_id"),
  create: t("admin.create"),
  passwordOnce: (user) => t("admin.password_once", { user }),
  orgTree: t("admin.org_tree"),
  noOrgs: t("admin.no_orgs"),
  newOrg: t("admin.new_org"),
  orgId: t("admin.org_id"),
  parent: t("admin.parent"),
  noParent: t("admin.no_parent"),
  addOrg: t("admin.add_org"),
  addMember: t("admin.add_member"),
  org: t("admin.org"),
  role: t("admin.role"),
  roles: { member: t("admin.role_member"), admin: t("admin.role_admin") },
  add: t("admin.add"),
  remove: t("admin.remove"),
  member: (user, role) => t("admin.member", { user, role }),
  documents: t("admin.documents"),
  noDocuments: t("admin.no_documents"),
  visibility: t("admin.visibility"),
  visibilities: {
    private: t("admin.visibility_private"),
    org: t("admin.visibility_org"),
    public: t("admin.visibility_public"),
  },
  owner: (owner) => t("admin.owner", { owner }),
  saved: t("admin.saved"),
};

const enc = encodeURIComponent;
const json = (method, body) => ({
  method,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});
const api = {
  users: () => request("/api/admin/users"),
  addUser: (user) => request("/api/admin/users", json("POST", { user })),
  setDisabled: (user, disabled) =>
    request(`/api/admin/users/${enc(user)}`, json("PATCH", { disabled })),
  orgs: () => request("/api/admin/orgs"),
  addOrg: (org, parent) => request("/api/admin/orgs", json("POST", { org, parent })),
  setMember: (org, user, role) =>
    request(`/api/admin/orgs/${enc(org)}/members/${enc(user)}`, json("PUT", { role })),
  removeMember: (org, user) =>
    request(`/api/admin/orgs/${enc(org)}/members/${enc(user)}`, { method: "DELETE" }),
  share: (id, visibility) =>
    request(`/api/documents/${enc(id)}/visibility`, json("PUT", { visibility })),
};

const main = document.getElementById("admin");
const problem = el("p", { id: "problem", class: "notice error", role: "alert", hidden: true });
const created = el("div", { id: "created", "aria-live": "polite" });

// Run a change; a refusal shows its message, then the page is drawn again from the server.
async function attempt(change) {
  problem.hidden = true;
  created.replaceChildren(); // a first password is shown once, until the next change
  try {
    return await change();
  } catch (error) {
    problem.hidden = false;
    problem.replaceChildren(error.message);
    return null;
  } finally {
    await draw();
  }
}

function options(values, labels = {}) {
  return values.map((v) => el("option", { value: v }, labels[v] ?? v));
}

function field(label, control) {
  return el("label", { class: "admin-field" }, `${label} `, control);
}

function usersSection(users, memberships) {
  const rows = users.map((u) => {
    const orgs = memberships.filter((m) => m.user === u.id);
    const toggle = el(
      "button",
      {
        class: "button",
        type: "button",
        onclick: () => attempt(() => api.setDisabled(u.id, !u.disabled)),
      },
      u.disabled ? TEXT.enable : TEXT.disable,
    );
    return el(
      "tr",
      { class: "user-row", dataset: { user: u.id } },
      el("td", {}, u.id),
      el("td", {}, u.admin ? TEXT.yes : ""),
      el("td", { class: "user-status" }, u.disabled ? TEXT.disabled : TEXT.enabled),
      el("td", { class: "member-of" }, orgs.map((m) => TEXT.member(m.org, m.role)).join(", ")),
      el("td", {}, toggle),
    );
  });
  const head = [TEXT.user, TEXT.admin, TEXT.status, TEXT.orgs, ""].map((t) => el("th", {}, t));
  const input = el("input", { id: "new-user", required: true, maxlength: 64 });
  const form = el(
    "form",
    { class: "admin-form", onsubmit: (e) => createUser(e, input) },
    field(TEXT.newUserId, input),
    el("button", { id: "create-user", class: "button primary", type: "submit" }, TEXT.create),
  );
  return el(
    "section",
    { class: "admin-users" },
    el("h2", {}, TEXT.users),
    el(
      "div",
      { class: "table-wrap" },
      el("table", { class: "data-table" }, el("tr", {}, head), rows),
    ),
    el("h3", {}, TEXT.newUser),
    form,
    created,
  );
}

async function createUser(event, input) {
  event.preventDefault();
  const made = await attempt(() => api.addUser(input.value.trim()));
  if (!made) return;
  created.replaceChildren(
    el(
      "p",
      { class: "notice info new-password" },
      TEXT.passwordOnce(made.user.id),
      el("code", {}, made.password),
    ),
  );
}

// The orgs as nested lists: each org under its parent, its members beside it.
function orgTree(orgs, memberships, parent = null) {
  const children = orgs.filter((o) => o.parent === parent);
  if (!children.length) return null;
  return el(
    "ul",
    { class: "org-tree" },
    children.map((o) =>
      el(
        "li",
        { dataset: { org: o.id } },
        el("strong", {}, o.id),
        " ",
        memberships.filter((m) => m.org === o.id).map((m) => memberChip(m)),
        orgTree(orgs, memberships, o.id),
      ),
    ),
  );
}

function memberChip(m) {
  return el(
    "span",
    { class: "badge muted member", dataset: { user: m.user } },
    TEXT.member(m.user, TEXT.roles[m.role]),
    " ",
    el(
      "button",
      {
        class: "icon-button",
        type: "button",
        title: TEXT.remove,
        "aria-label": `${TEXT.remove} ${m.user}`,
        onclick: () => attempt(() => api.removeMember(m.org, m.user)),
      },
      "×",
    ),
  );
}

function orgsSection(orgs, users, memberships) {
  const ids = orgs.map((o) => o.id);
  const orgId = el("input", { id: "new-org", required: true, maxlength: 64 });
  const parent = el("select", { id: "new-org-parent" }, [
    el("option", { value: "" }, TEXT.noParent),
    ...options(ids),
  ]);
  const addOrg = (e) => {
    e.preventDefault();
    attempt(() => api.addOrg(orgId.value.trim(), parent.value || null));
  };
  const org = el("select", { id: "member-org" }, options(ids));
  const user = el("select", { id: "member-user" }, options(users.map((u) => u.id)));
  const role = el("select", { id: "member-role" }, options(Object.keys(TEXT.roles), TEXT.roles));
  const addMember = (e) => {
    e.preventDefault();
    attempt(() => api.setMember(org.value, user.value, role.value));
  };
  return el(
    "section",
    { class: "admin-orgs" },
    el("h2", {}, TEXT.orgTree),
    orgTree(orgs, memberships) ?? el("p", { class: "muted" }, TEXT.noOrgs),
    el("h3", {}, TEXT.newOrg),
    el(
      "form",
      { class: "admin-form", onsubmit: addOrg },
      field(TEXT.orgId, orgId),
      field(TEXT.parent, parent),
      el("button", { id: "add-org", class: "button", type: "submit" }, TEXT.addOrg),
    ),
    el("h3", {}, TEXT.addMember),
    el(
      "form",
      { class: "admin-form", onsubmit: addMember },
      field(TEXT.org, org),
      field(TEXT.user, user),
      field(TEXT.role, role),
      el("button", { id: "add-member", class: "button", type: "submit" }, TEXT.add),
    ),
  );
}

function documentsSection(documents) {
  const rows = documents.map((d) => {
    const choice = el(
      "select",
      {
        class: "visibility",
        "aria-label": `${TEXT.visibility}: ${d.title}`,
        onchange: (e) => attempt(() => api.share(d.id, e.target.value)),
      },
      options(Object.keys(TEXT.visibilities), TEXT.visibilities),
    );
    choice.value = d.visibility;
    return el(
      "li",
      { class: "admin-document", dataset: { id: d.id } },
      el("span", {}, d.title),
      " ",
      el("span", { class: "muted" }, TEXT.owner(d.owner)),
      " ",
      choice,
    );
  });
  return el(
    "section",
    { class: "admin-documents" },
    el("h2", {}, TEXT.documents),
    rows.length ? el("ul", {}, rows) : el("p", { class: "muted" }, TEXT.noDocuments),
  );
}

async function draw() {
  try {
    const [{ users, memberships }, { orgs }, documents] = await Promise.all([
      api.users(),
      api.orgs(),
      listDocuments(),
    ]);
    main.replaceChildren(
      el("h1", {}, TEXT.title),
      problem,
      usersSection(users, memberships),
      orgsSection(orgs, users, memberships),
      documentsSection(documents),
      feedbackSection(),
    );
  } catch (error) {
    problem.hidden = false;
    problem.replaceChildren(error.message);
    main.replaceChildren(el("h1", {}, TEXT.title), problem);
  }
  document.body.classList.add("ready");
}

document.title = TEXT.pageTitle;
draw();
