// PDF reading view: page images with a transparent, selectable text layer.
// Each LineBox of each block becomes one absolutely positioned span holding exactly
// block.text[start:end] with data-block/data-start/data-end, so a DOM selection maps
// back to block offsets exactly. Pages render lazily as they near the viewport.
// Page sizes and boxes are the server's page geometry (parse/pdf/geometry.py), the one the
// page images are drawn at; on a turned page a span is turned to run along its line.
// Zoom (zoom.js) sets `widthFor`: the pages' CSS width; the text layer is laid out in
// percentages and `--scale`, so it follows, and the images near the viewport are drawn
// again at the new width (the old image stays until the new one is decoded). When the
// browser is idle, each page shown fetches its image at the next stock width ahead, so the
// first zoom in that needs it finds it in the browser's cache (page images are immutable).

import { pageUrl } from "../lib/api.js";
import { el } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { cpSlice } from "../lib/offsets.js";
import { boxesOn, pagesOf } from "./box-pages.js";
import { showUnread } from "./unread-page.js";

const STOCK_WIDTHS = [240, 320, 480, 640, 800, 960, 1200, 1440, 1800, 2400];
const MAX_PAGE_CSS_WIDTH = 980;
const whenIdle = window.requestIdleCallback ?? ((run) => setTimeout(run, 200));

function stockWidth(pixels) {
  return STOCK_WIDTHS.find((w) => w >= pixels) ?? STOCK_WIDTHS[STOCK_WIDTHS.length - 1];
}

export class PdfView {
  constructor(scroller, root, structure) {
    this.scroller = scroller;
    this.root = root;
    this.docId = structure.document.id;
    this.blocksByPage = groupByPage(structure.blocks);
    this.pages = structure.pages.map((p) => this.placeholder(p));
    for (const page of this.pages) if (page.unread) showUnread(this, page);
    this.root.classList.add("pdf-doc");
    this.measure = document.createElement("canvas").getContext("2d");
    this.near = new Set(); // pages within the observer's margin of the viewport
    this.widthFor = null; // zoom.js: () => the pages' CSS width; null: fit the width
    // Page 1's image goes first: other pages' requests wait until it has arrived.
    this.firstShown = new Promise((resolve) => (this.resolveFirst = resolve));
    this.layout();
    this.observer = new IntersectionObserver((entries) => this.onVisible(entries), {
      root: scroller,
      rootMargin: "800px 0px",
    });
    for (const page of this.pages) this.observer.observe(page.el);
    this.resizing = new ResizeObserver(() => this.layout());
    this.resizing.observe(scroller);
    this.ahead = new Set(); // images being fetched ahead (held, so they are not dropped)
  }

  placeholder(info) {
    const img = el("img", {
      class: "page-image",
      alt: t("pages.image", { n: info.number }),
      decoding: "async",
    });
    const layer = el("div", { class: "text-layer" });
    const number = el("div", { class: "page-number" }, String(info.number));
    const node = el(
      "section",
      { class: "page", dataset: { page: info.number, turn: info.text_rotation ?? 0 } },
      img,
      layer,
      number,
    );
    node.style.aspectRatio = `${info.width} / ${info.height}`;
    this.root.append(node);
    return { ...info, el: node, img, layer, built: false };
  }

  // The widest a page is shown when fitting the width (the reading default).
  fitWidth() {
    const available = this.scroller.clientWidth - 64;
    return Math.max(320, Math.min(MAX_PAGE_CSS_WIDTH, available));
  }

  // Lay the pages out at the current width; resolves once the images near the viewport
  // are shown at that width.
  layout() {
    const width = Math.round(this.widthFor?.() ?? this.fitWidth());
    if (width === this.cssWidth) return this.rendering ?? Promise.resolve();
    this.cssWidth = width;
    for (const page of this.pages) {
      page.el.style.width = `${width}px`;
      page.el.style.setProperty("--scale", String(width / page.width));
    }
    const near = [...this.near].map((number) => this.pages[number - 1]);
    this.rendering = Promise.all(near.filter((p) => p.built).map((p) => this.loadImage(p)));
    return this.rendering;
  }

  onVisible(entries) {
    for (const entry of entries) {
      const page = this.pages[Number(entry.target.dataset.page) - 1];
      if (!entry.isIntersecting) {
        this.near.delete(page.number);
        continue;
      }
      this.near.add(page.number);
      if (page.built) this.loadImage(page);
      else this.show(page);
    }
  }

  // Render a page now (image request + text layer); used by lazy loading and highlight.
  show(page) {
    if (!page || page.built) return page;
    page.built = true;
    page.imageWidth = this.imageWidth();
    const url = pageUrl(this.docId, page.number, page.imageWidth);
    page.img.addEventListener("load", () => this.onImageLoaded(page), { once: true });
    if (page.number === 1) {
      page.img.fetchPriority = "high";
      page.img.addEventListener("error", () => this.resolveFirst(), { once: true });
      page.img.src = url;
    } else {
      this.firstShown.then(() => (page.img.src = url));
    }
    this.buildTextLayer(page);
    return page;
  }

  // Image pixels for the current width: device pixels, snapped to the server's stock widths.
  imageWidth() {
    return stockWidth(this.cssWidth * devicePixelRatio);
  }

  // A built page's image again at the current width, swapped in once decoded (no blank
  // page while it loads); a width changed again meanwhile wins.
  async loadImage(page) {
    const width = this.imageWidth();
    if (page.imageWidth === width) return;
    page.imageWidth = width;
    await this.firstShown;
    const url = pageUrl(this.docId, page.number, width);
    const next = new Image();
    next.src = url;
    try {
      await next.decode();
      if (page.imageWidth !== width) return;
      page.img.src = url;
      await page.img.decode();
      page.el.classList.add("loaded");
      this.prefetch(page);
    } catch {
      // a refused or failed image: the one shown stays
    }
  }

  onImageLoaded(page) {
    page.el.classList.add("loaded");
    this.prefetch(page);
    // The text layer is already built; the first page is usable from here (benchmarks/reader.py).
    if (page.number === 1) {
      performance.mark("askalong:first-page");
      this.resolveFirst();
    }
  }

  // Once the browser is idle, the page's image at the next stock width, into its cache;
  // a page scrolled away meanwhile, or a width fetched before, is left.
  prefetch(page) {
    const next = STOCK_WIDTHS.find((w) => w > page.imageWidth);
    if (!next || (page.fetchedAhead ?? 0) >= next) return;
    page.fetchedAhead = next;
    whenIdle(
      () => {
        if (this.destroyed || !this.near.has(page.number)) return;
        const image = new Image();
        image.fetchPriority = "low";
        const done = () => this.ahead.delete(image);
        image.addEventListener("load", done, { once: true });
        image.addEventListener("error", done, { once: true });
        this.ahead.add(image);
        image.src = pageUrl(this.docId, page.number, next);
      },
      { timeout: 2000 },
    );
  }

  buildTextLayer(page) {
    this.measure.font = `100px ${getComputedStyle(page.layer).fontFamily}`;
    const spans = [];
    for (const block of this.blocksByPage.get(page.number) ?? []) {
      for (const box of boxesOn(block, page.number)) {
        const span = this.lineSpan(page, block, box);
        if (span) spans.push(span);
      }
    }
    page.layer.replaceChildren(...spans);
  }

  lineSpan(page, block, box) {
    const [, , , , start, end] = box;
    const text = cpSlice(block.text, start, end);
    if (!text.trim()) return null;
    const turn = page.text_rotation ?? 0;
    const { left, top, length, size } = runOf(box, turn);
    const natural = (this.measure.measureText(text).width * size) / 100;
    const dataset = { block: block.id, start, end, kind: block.kind };
    const span = el("span", { class: "seg", dataset }, text);
    span.style.left = `${(left / page.width) * 100}%`;
    span.style.top = `${(top / page.height) * 100}%`;
    span.style.fontSize = `calc(var(--scale) * ${size.toFixed(2)}px)`;
    const stretch = natural > 0 ? ` scaleX(${(length / natural).toFixed(4)})` : "";
    const rotate = turn ? `rotate(${turn}deg)` : "";
    if (rotate || stretch) span.style.transform = `${rotate}${stretch}`.trim();
    return span;
  }

  // The text-layer segments of a block, building its pages first (a paragraph that runs
  // on past a page break has segments on both).
  segments(block) {
    const numbers = block.boxes?.length ? pagesOf(block) : [block.page ?? 1];
    const selector = `[data-block="${CSS.escape(block.id)}"]`;
    return numbers.flatMap((number) => {
      const page = this.show(this.pages[number - 1]);
      return page ? [...page.layer.querySelectorAll(selector)] : [];
    });
  }

  // Where highlight rectangles go, and the vertical extent of a segment's line.
  overlayHost(segment) {
    return segment.closest(".page");
  }

  destroy() {
    this.destroyed = true;
    this.ahead.clear();
    this.observer.disconnect();
    this.resizing.disconnect();
    this.root.classList.remove("pdf-doc");
    this.root.replaceChildren();
  }
}

// Where a line's span starts (its top-left corner before it is turned), how long the
// line runs and how thick it is, for a box on a page whose text runs turned by `turn`.
export function runOf([x0, top, x1, bottom], turn) {
  const across = { left: x0, top, length: x1 - x0, size: Math.max(bottom - top, 1) };
  const down = { length: bottom - top, size: Math.max(x1 - x0, 1) };
  if (turn === 90) return { ...down, left: x1, top };
  if (turn === 180) return { ...across, left: x1, top: bottom };
  if (turn === 270) return { ...down, left: x0, top: bottom };
  return across;
}

// The blocks with lines on each page: a paragraph across a page break is on both.
function groupByPage(blocks) {
  const pages = new Map();
  for (const block of blocks) {
    if (!block.page || !block.boxes.length) continue;
    for (const number of pagesOf(block)) {
      if (!pages.has(number)) pages.set(number, []);
      pages.get(number).push(block);
    }
  }
  return pages;
}
