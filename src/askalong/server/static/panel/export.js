// A thread's Markdown export: a link to GET /api/threads/{id}/export, which names the file
// from the thread's title (Content-Disposition), so the link only asks for a download.

import { threadExportUrl } from "../lib/api.js";
import { el } from "../lib/dom.js";
import { t } from "../lib/i18n.js";

export function exportLink(threadId) {
  return el(
    "a",
    {
      class: "thread-action thread-export",
      href: threadExportUrl(threadId),
      download: "",
      title: t("thread.export.title"),
    },
    t("thread.export"),
  );
}
