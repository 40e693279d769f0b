// The page indicator of a PDF: "3 / 23" kept current while scrolling (the page under the
// reading line), and an input that jumps to the page typed (Enter). Hidden for documents
// without pages.

import { t } from "../lib/i18n.js";
import { lastAtOrAbove, onScrollFrame, readingLine } from "./position.js";

const $ = (selector) => document.querySelector(selector);
const GAP = 8; // pixels left above a page jumped to

export class PageIndicator {
  /**
   * @param {HTMLElement} scroller
   * @param {any} view
   * @param {{onPage?: (page: number) => void, signal?: AbortSignal}} [options]
   */
  constructor(scroller, view, { onPage = () => {}, signal } = {}) {
    this.scroller = scroller;
    this.pages = view.pages ?? [];
    this.onPage = onPage;
    this.current = 1;
    this.input = $("#page-input");
    $("#page-indicator").hidden = !this.pages.length;
    if (!this.pages.length) return;
    $("#page-count").textContent = `/ ${this.pages.length}`;
    this.input.setAttribute("aria-label", t("pages.input_of", { total: this.pages.length }));
    this.input.value = "1";
    const options = { signal };
    onScrollFrame(scroller, () => this.update(), signal);
    this.input.addEventListener("keydown", (event) => this.onKey(event), options);
    this.input.addEventListener("blur", () => this.show(), options);
  }

  // The page under the reading line.
  pageAt() {
    const line = readingLine(this.scroller);
    const top = (i) => this.pages[i].el.getBoundingClientRect().top;
    return lastAtOrAbove(this.pages.length, top, line) + 1;
  }

  update() {
    const page = this.pageAt();
    if (page === this.current) return;
    this.current = page;
    this.show();
    this.onPage(page);
  }

  show() {
    if (document.activeElement !== this.input) this.input.value = String(this.current);
    this.input.removeAttribute("aria-invalid");
  }

  onKey(event) {
    if (event.key === "Escape") {
      this.input.value = String(this.current);
      this.input.blur();
      return;
    }
    if (event.key !== "Enter") return;
    event.preventDefault();
    const wanted = Number.parseInt(this.input.value.trim(), 10);
    if (!(wanted >= 1 && wanted <= this.pages.length)) {
      this.input.setAttribute("aria-invalid", "true");
      this.input.title = t("pages.range", { total: this.pages.length });
      return;
    }
    this.goTo(wanted);
  }

  // Scroll page `number` to the top of the view.
  goTo(number) {
    const page = this.pages[number - 1];
    if (!page) throw new Error(`no page ${number}: the document has ${this.pages.length}`);
    const view = this.scroller.getBoundingClientRect();
    const top = page.el.getBoundingClientRect().top;
    const scrollTop = this.scroller.scrollTop + top - view.top - GAP;
    this.scroller.scrollTo({ top: scrollTop, behavior: "instant" });
    this.current = number;
    this.input.value = String(number);
    this.input.removeAttribute("aria-invalid");
    this.onPage(number);
  }

  destroy() {
    this.onPage = () => {};
  }
}
