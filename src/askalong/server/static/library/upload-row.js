// One file's row in the upload queue: its name and size, its state in words, a bar of its
// real progress (bytes sent, then the server's reading), and once it has ended a way to
// dismiss it. A failed row says what would help; Retry is offered only where sending
// again can help (the connection or the server failed), never for a file the server
// refused.

import { el, icon, shorten } from "../lib/dom.js";
import { t, tn } from "../lib/i18n.js";
import { UploadProgress } from "./progress.js";

const DONE_STAYS_MS = 60_000; // a finished row stays a minute unless dismissed first

export class UploadRow {
  // `onDismiss(row)`: the row was dismissed; `onRetry(row)`: send it again; `control(row)`:
  // a control of the caller's shown in the row (who may see the document), or null.
  /**
   * @param {File} file
   * @param {{onDismiss: (row: UploadRow) => void, onRetry: (row: UploadRow) => void, control?: (row: UploadRow) => Node | null}} options
   */
  constructor(file, { onDismiss, onRetry, control = () => null }) {
    this.file = file;
    this.documentId = null; // once the server has added it
    this.onRetry = onRetry;
    this.progress = new UploadProgress(t("upload.waiting"));
    this.help = el("span", { class: "upload-help" });
    this.actions = el("span", { class: "upload-actions" }, this.dismissButton(onDismiss));
    this.node = el(
      "div",
      { class: "upload-row waiting", dataset: { state: "waiting" } },
      el(
        "span",
        { class: "upload-name", title: file.name },
        shorten(file.name, 60),
        el("span", { class: "upload-size" }, formatSize(file.size)),
      ),
      this.progress.track,
      this.progress.status,
      control(this),
      this.actions,
      this.help,
    );
  }

  dismissButton(onDismiss) {
    return el(
      "button",
      {
        class: "icon-button upload-dismiss",
        type: "button",
        title: t("upload.dismiss"),
        "aria-label": t("upload.dismiss_named", { name: this.file.name }),
        onclick: () => {
          clearTimeout(this.fading);
          this.node.remove();
          onDismiss(this);
        },
      },
      icon("close", 15),
    );
  }

  setState(state) {
    this.node.dataset.state = state;
    this.node.classList.remove("waiting", "sending", "done", "failed");
    this.node.classList.add(state);
  }

  sending() {
    this.setState("sending");
    this.help.replaceChildren();
    this.actions.querySelector(".upload-retry")?.remove();
    this.progress.show(0, t("upload.uploading"));
  }

  finished(result) {
    this.documentId = result.document.id;
    this.setState("done");
    const words =
      result.status === "exists" ? t("library.exists") : tn("library.added", result.blocks);
    this.progress.finished(words);
    this.fading = setTimeout(() => this.node.remove(), DONE_STAYS_MS);
  }

  // `error`: an ApiError (or a refusal made here, status 0 with `help`).
  failed(error) {
    this.setState("failed");
    this.progress.failed(error.message);
    const retryable = error.retryable ?? canRetry(error.status);
    this.help.replaceChildren(error.help ?? helpFor(error.status, retryable));
    if (retryable) this.actions.prepend(this.retryButton());
  }

  retryButton() {
    return el(
      "button",
      {
        class: "button upload-retry",
        type: "button",
        "aria-label": t("upload.retry_named", { name: this.file.name }),
        onclick: () => this.onRetry(this),
      },
      t("library.retry"),
    );
  }
}

// The connection dropped (0), the server is busy (429) or failed (5xx): sending again
// may work. Anything else is the server's verdict on the file itself.
function canRetry(status) {
  return status === 0 || status === 429 || status >= 500;
}

function helpFor(status, retryable) {
  if (retryable) return t("upload.help.retry");
  if (status === 413) return t("upload.help.too_large");
  if (status === 401 || status === 403) return t("upload.help.signed_out");
  return t("upload.help.refused");
}

export function formatSize(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
