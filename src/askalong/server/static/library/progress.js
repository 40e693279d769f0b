// An upload's progress in words and a bar: the bytes sent, then the server's reading of
// the document as it streams it (pages parsed n/N, scanned pages read by OCR n/N, search
// vectors n/N: server/upload_events.py), instead of one static "Reading the document…".

import { PROGRESS_STAGES } from "../lib/contract.js";
import { el } from "../lib/dom.js";
import { t } from "../lib/i18n.js";

// The words for each of the server's stages (PROGRESS_STAGES; a stage added there and not
// here is shown as the bar alone).
export const PROGRESS_WORDS = {
  parse: (done, total) => t("upload.parse", { done, total }),
  ocr: (done, total) => t("upload.ocr", { done, total }),
  vectors: (done, total) => t("upload.vectors", { done, total }),
};

export class UploadProgress {
  constructor(words = t("upload.uploading")) {
    this.bar = el("div", { class: "progress-bar" });
    this.track = el(
      "div",
      {
        class: "progress",
        role: "progressbar",
        "aria-valuemin": "0",
        "aria-valuemax": "100",
        "aria-valuenow": "0",
      },
      this.bar,
    );
    this.status = el("span", { class: "upload-status", "aria-live": "polite" }, words);
    this.track.setAttribute("aria-label", t("upload.progress"));
  }

  // The bytes sent, as a fraction.
  sent(fraction) {
    const words =
      fraction >= 1 ? t("upload.reading") : t("upload.percent", { percent: percent(fraction) });
    this.show(fraction, words);
  }

  // One `progress` event of the server's stream: {stage, done, total}.
  reading({ stage, done, total }) {
    if (!PROGRESS_STAGES.includes(stage) || !total) return;
    // A sub-step restarting its count within the stage ("0 of 1" after "55 of 55") is not
    // shown: the bar never goes back within a stage.
    if (stage === this.track.dataset.stage && done / total < this.fraction) return;
    this.track.dataset.stage = stage;
    this.show(done / total, PROGRESS_WORDS[stage]?.(done, total) ?? this.status.textContent);
  }

  show(fraction, words) {
    this.fraction = fraction;
    const value = percent(fraction);
    this.bar.style.width = `${value}%`;
    this.track.setAttribute("aria-valuenow", String(value));
    this.track.setAttribute("aria-valuetext", words);
    this.status.replaceChildren(words);
  }

  finished(words) {
    this.show(1, words);
  }

  // Refused or broken off: the bar empties (a full bar would say it went through).
  failed(words) {
    this.track.dataset.stage = "failed";
    this.show(0, words);
  }
}

function percent(fraction) {
  return Math.round(Math.min(Math.max(fraction, 0), 1) * 100);
}
