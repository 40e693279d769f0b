// The visible language switch at the end of every page's top bar, and the page's static
// text put in the chosen language (lib/i18n.js). Each page's script calls setUpLanguage()
// first, before it draws anything.

import { el } from "./dom.js";
import { CATALOGUES, LANGUAGE_NAMES, language, setLanguage, t, translatePage } from "./i18n.js";

export function setUpLanguage() {
  translatePage();
  const select = el(
    "select",
    {
      id: "language",
      class: "language-select",
      "aria-label": t("app.language"),
      title: t("app.language"),
      onchange: (event) => setLanguage(event.target.value),
    },
    Object.keys(CATALOGUES).map((code) =>
      el(
        "option",
        { value: code, lang: code, selected: code === language() },
        LANGUAGE_NAMES[code],
      ),
    ),
  );
  document.querySelector(".topbar")?.append(select);
  return select;
}
