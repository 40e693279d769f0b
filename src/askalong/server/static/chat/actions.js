// What each answer offers below it: copy it (the text and its sources) as plain text,
// export the conversation as Markdown (GET /api/threads/{id}/export, named by the server),
// and thumbs up or down with an optional reason (feedback.js).

import { threadExportUrl } from "../lib/api.js";
import { el } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { Feedback } from "./feedback.js";

const COPIED_MS = 1500;

export function answerActions({ conversationId, turnId, text }) {
  const copy = el(
    "button",
    { class: "thread-action chat-copy", type: "button", onclick: () => copyAnswer(copy, text()) },
    t("chat.copy"),
  );
  const exported = conversationId
    ? el(
        "a",
        {
          class: "thread-action chat-export",
          href: threadExportUrl(conversationId),
          download: "",
          title: t("chat.export.title"),
        },
        t("chat.export"),
      )
    : null;
  const feedback = conversationId && turnId ? new Feedback({ conversationId, turnId }).el : null;
  return el("div", { class: "chat-actions" }, copy, exported, feedback);
}

async function copyAnswer(button, text) {
  try {
    await navigator.clipboard.writeText(text);
    button.replaceChildren(t("chat.copied"));
  } catch {
    button.replaceChildren(t("chat.copy_failed"));
  }
  setTimeout(() => button.replaceChildren(t("chat.copy")), COPIED_MS);
}
