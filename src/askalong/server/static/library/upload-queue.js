// The library's uploads as a queue: every chosen file gets its row at once, two are sent
// at a time, and each document is announced (`onReady`) the moment the server has read
// it, not when the last file ends. An empty or unreadable file fails at once with its
// reason and never holds up the files after it. While files are unsent, leaving the page
// asks first; tus resumes them when the same files are chosen again (lib/resumable.js).

import { t } from "../lib/i18n.js";
import { uploadResumable } from "../lib/resumable.js";
import { UploadRow } from "./upload-row.js";

const AT_ONCE = 2;

export class UploadQueue {
  // `container`: where the rows go; `onReady(result, row)`: one document is in the library;
  // `control(row)`: the caller's control in each row (upload-row.js).
  constructor(container, { onReady, control, send = uploadResumable, atOnce = AT_ONCE }) {
    this.container = container;
    this.control = control;
    this.onReady = onReady;
    this.send = send;
    this.atOnce = atOnce;
    this.waiting = [];
    this.running = 0;
    window.addEventListener("beforeunload", (event) => {
      if (!this.unsent()) return;
      event.preventDefault();
      event.returnValue = ""; // older browsers ask only when this is set
    });
  }

  // The files still to send or being sent.
  unsent() {
    return this.waiting.length + this.running;
  }

  add(files) {
    for (const file of files) {
      const row = new UploadRow(file, {
        onDismiss: (dismissed) => this.forget(dismissed),
        onRetry: (again) => this.enqueue(again),
        control: this.control,
      });
      this.container.append(row.node);
      refusal(file).then((reason) => (reason ? row.failed(reason) : this.enqueue(row)));
    }
  }

  enqueue(row) {
    row.setState("waiting");
    this.waiting.push(row);
    this.pump();
  }

  forget(row) {
    this.waiting = this.waiting.filter((waiting) => waiting !== row);
  }

  pump() {
    while (this.running < this.atOnce && this.waiting.length) this.run(this.waiting.shift());
  }

  async run(row) {
    this.running += 1;
    row.sending();
    try {
      const result = await this.send(
        row.file,
        (fraction) => row.progress.sent(fraction),
        (reading) => row.progress.reading(reading),
      );
      row.finished(result);
      this.onReady(result, row);
    } catch (error) {
      row.failed(error);
    } finally {
      this.running -= 1;
      this.pump();
    }
  }
}

// Why the file cannot be sent at all (null when it can): empty, or unreadable (a folder
// dropped, a file removed or locked since it was chosen). Nothing is sent for these.
async function refusal(file) {
  if (file.size === 0) return refused(t("upload.empty"), t("upload.help.empty"));
  try {
    await file.slice(0, 1).arrayBuffer();
    return null;
  } catch {
    return refused(t("upload.unreadable"), t("upload.help.unreadable"));
  }
}

function refused(message, help) {
  return { message, help, status: 0, retryable: false };
}
