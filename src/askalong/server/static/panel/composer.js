// The composer at the bottom of the panel, always there: with nothing selected it asks
// the whole document (or the documents of the page); above it, the anchor chip says where
// the next question is asked, and its × drops the anchor (a new selection switches it).

import { el, icon, sendOnEnter } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { chipContent } from "./where.js";

export class Composer {
  // `whole`: how the page's documents are named ("whole document", "whole collection",
  // or the picked documents' own name: `named`, which takes no "the").
  constructor({ blocks, whole, named = false, onSend, onDrop, onShow }) {
    this.blocks = blocks;
    this.whole = whole;
    this.named = named;
    this.onShow = onShow;
    this.chip = el("button", { class: "anchor-chip", type: "button", title: t("composer.show") });
    this.drop = el(
      "button",
      {
        class: "anchor-drop",
        type: "button",
        title: t("composer.drop"),
        "aria-label": t("composer.drop.label"),
        onclick: () => onDrop(),
      },
      "×",
    );
    this.label = el("span", { class: "composer-label" });
    this.input = el("textarea", {
      class: "composer-input",
      rows: 1,
      onkeydown: sendOnEnter(() => this.send(onSend)),
    });
    const send = el(
      "button",
      {
        class: "composer-send",
        type: "button",
        "aria-label": t("composer.send"),
        onclick: () => this.send(onSend),
      },
      icon("send", 16),
    );
    this.el = el(
      "div",
      { class: "composer" },
      el("div", { class: "composer-anchor" }, this.label, this.chip, this.drop),
      el("div", { class: "composer-row" }, this.input, send),
    );
    this.show(null, false);
  }

  // The anchor of the next question (null: the whole document); `following` says whether
  // a thread is open (a follow-up) or the question starts one.
  show(anchor, following) {
    this.anchor = anchor;
    this.chip.replaceChildren(...chipContent(anchor, this.blocks, this.whole));
    this.chip.onclick = () => anchor && this.onShow(anchor);
    this.chip.classList.toggle("whole", !anchor);
    this.drop.hidden = !anchor;
    this.label.replaceChildren(t(anchor ? "composer.anchored" : "composer.asking"));
    const whole = this.named ? this.whole : t("scope.the", { whole: this.whole });
    const what = anchor ? t("scope.selection") : whole;
    this.input.placeholder = following ? t("composer.follow_up") : t("composer.about", { what });
    const label = following ? t("composer.follow_up.label") : t("composer.about.label", { what });
    this.input.setAttribute("aria-label", label);
  }

  flash() {
    this.chip.classList.remove("flash");
    void this.chip.offsetWidth; // restart the animation
    this.chip.classList.add("flash");
  }

  send(onSend) {
    const question = this.input.value.trim();
    if (!question) return;
    this.input.value = "";
    this.input.focus({ preventScroll: true }); // sent with the button: type the next one
    onSend(question);
  }
}
