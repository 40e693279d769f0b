// Resumable upload through the tus protocol (the vendored tus-js-client, loaded by the page
// as window.tus): 5 MB pieces, retried after a dropped connection, and resumed after a
// reload when the same file is chosen again (tus-js-client keeps the upload's address in
// localStorage under the file's fingerprint). Resolves with
// {status, document, blocks}, once the server has added the document.

import { ApiError, getDocument, withCsrf } from "./api.js";
import { t } from "./i18n.js";

const PIECE_BYTES = 5 * 1024 * 1024;
const RETRY_DELAYS_MS = [0, 1000, 3000, 5000, 10000];
const POLL_MS = 300;

// `onProgress(fraction)` follows the bytes sent; `onReading({stage, done, total})` the
// server's reading of the document after the last byte (pages parsed, OCR, vectors).
export function uploadResumable(file, onProgress, onReading = () => {}, pieceBytes = PIECE_BYTES) {
  const tus = window.tus;
  return new Promise((resolve, reject) => {
    const upload = new tus.Upload(file, {
      endpoint: "/api/uploads",
      chunkSize: pieceBytes,
      retryDelays: RETRY_DELAYS_MS,
      removeFingerprintOnSuccess: true,
      metadata: { filename: file.name },
      headers: withCsrf(), // a multi-user server's session needs it on POST, PATCH, DELETE
      onProgress: (sent, total) => total && onProgress(sent / total),
      onError: (error) => reject(refusal(error)),
      onSuccess: () => settled(upload.url, onReading).then(resolve, reject),
    });
    upload.findPreviousUploads().then((previous) => {
      if (previous.length) upload.resumeFromPreviousUpload(previous[0]);
      upload.start();
    }, reject);
  });
}

// The server adds the document after the last piece: wait for its verdict.
async function settled(url, onReading) {
  for (;;) {
    const response = await fetch(url);
    const body = await response.json();
    if (!response.ok) throw new ApiError(response.status, body?.error?.type, body?.error?.message);
    if (body.state === "added") {
      const structure = await getDocument(body.document_id);
      return { status: "added", document: structure.document, blocks: structure.blocks.length };
    }
    if (body.state === "failed") throw new ApiError(400, "InputError", body.error);
    if (body.progress) onReading(body.progress);
    await new Promise((wake) => setTimeout(wake, POLL_MS));
  }
}

// tus-js-client's errors carry the server's answer; show its JSON message, not the wrapper.
function refusal(error) {
  const response = error.originalResponse;
  if (!response) return new ApiError(0, "NetworkError", t("upload.unreached"));
  let message = response.getBody();
  try {
    message = JSON.parse(message).error.message;
  } catch {
    // not our JSON: keep the body as it came
  }
  const wait = response.getStatus() === 429 && response.getHeader("Retry-After"); // i18n-ignore
  if (wait) message = t("error.retry_after", { message, seconds: wait });
  return new ApiError(response.getStatus(), "HTTPError", message || error.message);
}
