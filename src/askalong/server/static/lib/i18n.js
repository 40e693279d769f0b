// The reader's UI language: every string a person sees comes from one catalogue per
// language (lib/strings/en.js, zh-Hans.js: the same keys), looked up with `t(key, params)`.
// The language is the one chosen with the switch (kept in localStorage), else the first
// of navigator.languages the reader has (zh* → zh-Hans), else English. Switching stores
// the choice and reloads: the reader's place is in its address (reader/url-state.js).
// Text the server writes (its error messages) is shown as it comes.

import en from "./strings/en.js";
import zhHans from "./strings/zh-Hans.js";

export const CATALOGUES = Object.freeze({ en, "zh-Hans": zhHans });
// Each language named in itself, for the switch.
export const LANGUAGE_NAMES = Object.freeze({ en: "English", "zh-Hans": "中文" }); // i18n-ignore
export const STORED = "askalong.language";

// The catalogue for a BCP 47 tag: zh, zh-CN, zh-Hans-SG… → zh-Hans; en-GB → en; else null.
export function catalogueFor(tag) {
  const lower = String(tag ?? "").toLowerCase();
  if (lower === "zh" || lower.startsWith("zh-")) return "zh-Hans";
  if (lower === "en" || lower.startsWith("en-")) return "en";
  return null;
}

// The language to show: a stored choice the reader has, else the browser's first known.
/** @param {string | null} stored @param {readonly string[]} languages */
export function chooseLanguage(stored, languages = []) {
  if (Object.hasOwn(CATALOGUES, stored)) return stored;
  for (const tag of languages) {
    const found = catalogueFor(tag);
    if (found) return found;
  }
  return "en";
}

function storedChoice() {
  try {
    return localStorage.getItem(STORED);
  } catch {
    return null; // storage refused: the browser's language decides
  }
}

let current = chooseLanguage(storedChoice(), navigator.languages ?? [navigator.language]);

export function language() {
  return current;
}

// The string `key` in the current language with `{name}` filled from `params`. A key
// neither catalogue has is a bug in the reader: it throws rather than showing the key.
export function t(key, params = {}) {
  const text = CATALOGUES[current][key] ?? en[key];
  if (text == null) throw new Error(`no UI string "${key}" in lib/strings`);
  return fill(text, params);
}

// A document's language in the reader's own words ("English", "中文" for "zh"): "mixed" said
// as such, nothing for "und" (not determined), the code itself where the browser has no name.
export function languageName(code) {
  if (!code || code === "und") return null;
  if (code === "mixed") return t("doc.language_mixed");
  try {
    return new Intl.DisplayNames([current], { type: "language" }).of(code) ?? code;
  } catch {
    return code; // not a BCP 47 tag
  }
}

// Whether `code` names one language (what an element's lang attribute may hold).
export function isLanguageTag(code) {
  return Boolean(code) && !["mixed", "und"].includes(code);
}

// A count's phrase: `key.one` for 1, `key.other` otherwise, with {n} the count.
export function tn(key, n, params = {}) {
  return t(`${key}.${n === 1 ? "one" : "other"}`, { ...params, n });
}

export function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

// The page's static text: an element's `data-i18n` key sets its text, `data-i18n-title`,
// `data-i18n-aria-label`, `data-i18n-placeholder` and `data-i18n-alt` its attributes;
// `<html lang>` follows the language.
const ATTRIBUTES = ["title", "aria-label", "placeholder", "alt"];

export function translatePage(root = document) {
  document.documentElement.lang = current;
  for (const node of root.querySelectorAll("[data-i18n]"))
    node.textContent = t(node.getAttribute("data-i18n"));
  for (const name of ATTRIBUTES) {
    for (const node of root.querySelectorAll(`[data-i18n-${name}]`))
      node.setAttribute(name, t(node.getAttribute(`data-i18n-${name}`)));
  }
}

// Stores the choice and shows the page again in it.
export function setLanguage(code) {
  if (!Object.hasOwn(CATALOGUES, code) || code === current) return;
  try {
    localStorage.setItem(STORED, code);
  } catch {
    // storage refused: this page still switches, the next one follows the browser
  }
  current = code;
  location.reload();
}
