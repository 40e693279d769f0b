// The sign-in page of a multi-user server: POST /api/login, then back to the library.
// The session cookie is HttpOnly; the CSRF token comes back in the reply (and in the
// readable askalong_csrf_<port> cookie) for the pages' state-changing requests.

import { t } from "../lib/i18n.js";
import { setUpLanguage } from "../lib/language-switch.js";

setUpLanguage();
const form = document.getElementById("login");
const problem = document.getElementById("problem");

async function signIn(event) {
  event.preventDefault();
  problem.textContent = "";
  const body = {
    user: /** @type {HTMLInputElement} */ (document.getElementById("user")).value,
    password: /** @type {HTMLInputElement} */ (document.getElementById("password")).value,
  };
  let response;
  try {
    response = await fetch("/api/login", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch {
    problem.textContent = t("login.unreachable");
    return;
  }
  if (response.ok) {
    window.location.assign("/");
    return;
  }
  let message = response.statusText;
  try {
    message = (await response.json()).error?.message ?? message;
  } catch {
    // not JSON: the status text stands
  }
  problem.textContent = message;
}

form.addEventListener("submit", signIn);
