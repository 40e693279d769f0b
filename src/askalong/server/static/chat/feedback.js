// Thumbs up or down on one answer, with an optional reason: a thumb opens the reason box,
// Send posts {conversation_id, turn_id, rating, reason} (POST /api/feedback), and the row
// says it was noted (or why not). Until sent, the other thumb may be chosen instead.

import { el, icon, sendOnEnter } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { sendFeedback } from "./chat-api.js";

const MAX_REASON = 2000;

export class Feedback {
  constructor({ conversationId, turnId }) {
    this.conversationId = conversationId;
    this.turnId = turnId;
    this.rating = null;
    this.up = this.thumb("up", "thumbUp");
    this.down = this.thumb("down", "thumbDown");
    this.reason = el("textarea", {
      class: "chat-feedback-reason",
      rows: 2,
      maxlength: MAX_REASON,
      placeholder: t("chat.feedback.reason"),
      "aria-label": t("chat.feedback.reason"),
      onkeydown: sendOnEnter(() => this.send()),
    });
    this.sendButton = el(
      "button",
      { class: "thread-action chat-feedback-send", type: "button", onclick: () => this.send() },
      t("chat.feedback.send"),
    );
    const form = { class: "chat-feedback-form", hidden: true };
    this.form = el("div", form, this.reason, this.sendButton);
    this.said = el("span", { class: "chat-feedback-said", role: "status" });
    this.el = el(
      "div",
      { class: "chat-feedback", role: "group", "aria-label": t("chat.feedback.label") },
      this.up,
      this.down,
      this.said,
      this.form,
    );
  }

  thumb(rating, iconName) {
    return el(
      "button",
      {
        class: `icon-button chat-thumb ${rating}`,
        type: "button",
        "aria-pressed": "false",
        "aria-label": t(`chat.feedback.${rating}`),
        title: t(`chat.feedback.${rating}`),
        onclick: () => this.choose(rating),
      },
      icon(iconName, 17),
    );
  }

  choose(rating) {
    this.rating = rating;
    this.up.setAttribute("aria-pressed", String(rating === "up"));
    this.down.setAttribute("aria-pressed", String(rating === "down"));
    this.form.hidden = false;
    this.said.replaceChildren();
    this.reason.focus();
  }

  async send() {
    if (!this.rating) return;
    const reason = this.reason.value.trim();
    this.sendButton.disabled = true;
    try {
      const { conversationId, turnId, rating } = this;
      await sendFeedback({ conversationId, turnId, rating, reason });
      this.form.hidden = true;
      this.up.disabled = this.down.disabled = true;
      this.said.replaceChildren(t("chat.feedback.thanks"));
    } catch (error) {
      this.said.replaceChildren(error.message);
    } finally {
      this.sendButton.disabled = false;
    }
  }
}
