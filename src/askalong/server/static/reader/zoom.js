// Zoom: fit width, fit page, steps in and out (buttons, Ctrl+wheel, Ctrl +/-/0). A PDF's
// pages are laid out at a new CSS width (pdfview.js draws their images again at that width
// times devicePixelRatio); an HTML, Markdown or text document's type is scaled instead
// (`--font-zoom`, app.css). The point under the pointer (or the middle of the view) stays
// where it was, so the same text stays in view. `onChange` runs after every zoom (the
// quote highlight is drawn again there).

import { lastAtOrAbove } from "./position.js";

const STEPS = [0.5, 0.67, 0.8, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4];
const CSS_PX_PER_POINT = 96 / 72; // 100% shows a page at its printed size
const WHEEL_STEP = 50; // pixels of wheel delta per zoom step
const PAGE_MARGIN = 56; // the page's gap and padding kept in view when fitting a page
const $ = (selector) => document.querySelector(selector);

export class Zoom {
  /**
   * @param {HTMLElement} scroller @param {HTMLElement} root @param {any} view
   * @param {{onChange?: () => void, pageNow?: () => number, signal?: AbortSignal}} [options]
   */
  constructor(scroller, root, view, { onChange = () => {}, pageNow = () => 1, signal } = {}) {
    this.scroller = scroller;
    this.root = root;
    this.view = view;
    this.onChange = onChange;
    this.pageNow = pageNow;
    this.isPdf = typeof view.fitWidth === "function";
    this.mode = this.isPdf ? "fit-width" : "custom";
    this.scale = 1; // of the printed size (PDF) or of the type's size (other documents)
    if (this.isPdf) view.widthFor = () => this.pageWidth();
    this.listen(signal);
    this.showLevel();
  }

  listen(signal) {
    const options = { signal };
    $("#zoom-in").addEventListener("click", () => this.step(1), options);
    $("#zoom-out").addEventListener("click", () => this.step(-1), options);
    $("#zoom-fit-width").addEventListener("click", () => this.fit("fit-width"), options);
    $("#zoom-fit-page").addEventListener("click", () => this.fit("fit-page"), options);
    $("#zoom-fit-width").hidden = $("#zoom-fit-page").hidden = !this.isPdf;
    // A wheel notch is one step; a trackpad pinch sends many small deltas: summed first.
    let wheel = 0;
    const onWheel = (event) => {
      if (!event.ctrlKey) return;
      event.preventDefault(); // the browser's own page zoom
      wheel += event.deltaY;
      if (Math.abs(wheel) < WHEEL_STEP) return;
      this.step(wheel < 0 ? 1 : -1, { x: event.clientX, y: event.clientY });
      wheel = 0;
    };
    this.scroller.addEventListener("wheel", onWheel, { ...options, passive: false });
    document.addEventListener("keydown", (event) => this.onKey(event), options);
  }

  onKey(event) {
    if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
    const actions = {
      "+": () => this.step(1),
      "=": () => this.step(1),
      "-": () => this.step(-1),
      0: () => (this.isPdf ? this.fit("fit-width") : this.zoomTo(1)),
    };
    const action = actions[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  }

  // The scale now, as a share of the printed size (PDF) or of the type's size.
  level() {
    if (!this.isPdf) return this.scale;
    return this.pageWidth() / (this.view.pages[0].width * CSS_PX_PER_POINT);
  }

  pageWidth() {
    if (this.mode === "fit-width") return this.view.fitWidth();
    if (this.mode === "fit-page") return this.fitPageWidth();
    return this.scale * this.view.pages[0].width * CSS_PX_PER_POINT;
  }

  fitPageWidth() {
    const page = this.view.pages[this.pageNow() - 1] ?? this.view.pages[0];
    const tall = Math.max(this.scroller.clientHeight - PAGE_MARGIN, 200);
    return Math.min((tall * page.width) / page.height, this.scroller.clientWidth - 32);
  }

  step(direction, at) {
    const now = this.level();
    const next =
      direction > 0
        ? (STEPS.find((s) => s > now * 1.01) ?? STEPS[STEPS.length - 1])
        : ([...STEPS].reverse().find((s) => s < now * 0.99) ?? STEPS[0]);
    return this.zoomTo(next, at);
  }

  zoomTo(scale, at) {
    return this.apply("custom", Math.min(Math.max(scale, STEPS[0]), STEPS[STEPS.length - 1]), at);
  }

  fit(mode, at) {
    return this.apply(mode, this.scale, at);
  }

  // Zoom, keeping the point `at` (client coordinates; the view's middle by default) on the
  // same spot of the text. Resolves once the visible pages are drawn at the new width.
  apply(mode, scale, at) {
    const anchor = this.anchor(at);
    this.mode = mode;
    this.scale = scale;
    let drawn = Promise.resolve();
    if (this.isPdf) drawn = this.view.layout();
    else this.root.style.setProperty("--font-zoom", String(scale));
    if (anchor) this.restore(anchor);
    this.showLevel();
    this.onChange();
    return drawn.then(() => performance.mark("askalong:zoom-drawn"));
  }

  // The element under the point (a page, or a block of the article) and where in it.
  anchor(at) {
    const box = this.scroller.getBoundingClientRect();
    const x = at?.x ?? box.left + box.width / 2;
    const y = at?.y ?? box.top + box.height / 2;
    const items = this.isPdf
      ? this.view.pages.map((p) => p.el)
      : [...(this.root.querySelector(".prose")?.children ?? [])];
    if (!items.length) return null;
    const el = items[lastAtOrAbove(items.length, (i) => items[i].getBoundingClientRect().top, y)];
    const rect = el.getBoundingClientRect();
    return {
      el,
      x,
      y,
      across: (x - rect.left) / Math.max(rect.width, 1),
      down: (y - rect.top) / Math.max(rect.height, 1),
    };
  }

  restore({ el, x, y, across, down }) {
    const rect = el.getBoundingClientRect();
    this.scroller.scrollTop += rect.top + down * rect.height - y;
    if (this.isPdf) this.scroller.scrollLeft += rect.left + across * rect.width - x;
  }

  // The zoom as the reader's address keeps it (url-state.js): "fit-page", "fit-width" or
  // the scale ("1.5"); null at the document's default (fit width for a PDF, 100% for text).
  toHash() {
    if (this.mode !== "custom") return this.mode === "fit-width" ? null : this.mode;
    return !this.isPdf && this.scale === 1 ? null : String(this.scale);
  }

  // Back to a zoom the address kept (null or unknown: the default).
  fromHash(value) {
    if (value === "fit-page" && this.isPdf) return this.fit("fit-page");
    const scale = Number(value);
    if (value && scale > 0) return this.zoomTo(scale);
    return this.isPdf ? this.fit("fit-width") : this.zoomTo(1);
  }

  showLevel() {
    $("#zoom-level").textContent = `${Math.round(this.level() * 100)}%`;
    $("#zoom-fit-width").setAttribute("aria-pressed", String(this.mode === "fit-width"));
    $("#zoom-fit-page").setAttribute("aria-pressed", String(this.mode === "fit-page"));
  }

  destroy() {
    if (this.isPdf) this.view.widthFor = null;
    this.root.style.removeProperty("--font-zoom");
  }
}
