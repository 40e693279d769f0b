// Who is signed in, in every page's top bar: the account's name, its organisations, and
// Sign out (POST /api/logout, then the login page). The local owner of a server without
// accounts sees nothing here: there is no one else to be.

import { currentSession, logout } from "./api.js";
import { el } from "./dom.js";
import { t } from "./i18n.js";

export async function showIdentity() {
  let session;
  try {
    session = await currentSession();
  } catch {
    return; // not signed in: the server sends this page's requests to the login page
  }
  if (!session.multi_user) return;
  const orgs = session.orgs.length ? t("identity.orgs", { orgs: session.orgs.join(", ") }) : "";
  const signOut = el(
    "button",
    { class: "button identity-signout", type: "button", onclick: () => signOutNow(signOut) },
    t("identity.sign_out"),
  );
  const who = el(
    "div",
    { class: "identity", "aria-label": t("identity.label"), role: "group" },
    el("span", { class: "identity-user" }, session.user),
    orgs ? el("span", { class: "identity-orgs" }, orgs) : null,
    signOut,
  );
  const bar = document.querySelector(".topbar");
  bar?.insertBefore(who, bar.querySelector(".language-select"));
}

async function signOutNow(button) {
  button.disabled = true;
  try {
    await logout();
  } finally {
    location.assign("/login.html");
  }
}
