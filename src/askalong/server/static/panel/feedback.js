// Thumbs up or down on an answer, with an optional reason (POST /api/feedback). A thumb is
// sent at once; the reason box it opens sends the same rating again with the reason (the
// server keeps one record per answer: the newest wins). Text nodes only (dom.js `el`);
// the POST goes through api.js's `request`, which adds the session's CSRF token.

import { request } from "../lib/api.js";
import { FEEDBACK_RATINGS, MAX_FEEDBACK_REASON_CHARS } from "../lib/contract.js";
import { el, icon } from "../lib/dom.js";
import { t } from "../lib/i18n.js";

// Drawn as SVG, as the chat page draws them: an emoji is an empty box without an emoji font.
const THUMBS = Object.freeze({ up: "thumbUp", down: "thumbDown" });

export const sendFeedback = (body) =>
  request("/api/feedback", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

// The bar under an answer; null when the answer is not a stored turn (nothing to rate).
export function feedbackBar(answer) {
  if (!answer.thread_id || !answer.turn_id) return null;
  const turn = { conversation_id: answer.thread_id, turn_id: answer.turn_id };
  const state = el("span", { class: "feedback-state muted", role: "status" });
  const reason = el("textarea", {
    class: "feedback-reason-text",
    rows: 2,
    maxlength: MAX_FEEDBACK_REASON_CHARS,
    placeholder: t("feedback.reason_placeholder"),
    "aria-label": t("feedback.reason"),
  });
  const form = el(
    "form",
    { class: "feedback-reason", hidden: true },
    reason,
    el("button", { class: "button", type: "submit" }, t("feedback.send")),
  );
  let rating = null;
  const send = async (withReason) => {
    state.replaceChildren(t("feedback.sending"));
    try {
      await sendFeedback({ ...turn, rating, reason: withReason ? reason.value.trim() : "" });
      state.replaceChildren(t(withReason ? "feedback.thanks_reason" : "feedback.thanks"));
    } catch (error) {
      state.replaceChildren(t("feedback.failed", { message: error.message }));
    }
  };
  const thumbs = FEEDBACK_RATINGS.map((value) =>
    el(
      "button",
      {
        class: "icon-button feedback-thumb",
        type: "button",
        dataset: { rating: value },
        "aria-pressed": "false",
        title: t(`feedback.${value}`),
        "aria-label": t(`feedback.${value}`),
        onclick: () => {
          rating = value;
          for (const b of thumbs) {
            b.setAttribute("aria-pressed", String(b.dataset.rating === value));
          }
          form.hidden = false;
          send(false);
        },
      },
      icon(THUMBS[value], 17),
    ),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (rating) send(true);
  });
  return el("div", { class: "feedback-bar" }, ...thumbs, state, form);
}
