// The JSON API, one function per endpoint. Errors arrive as {"error": {type, message}}.

import { parseEvent, readEvents } from "./sse.js";

export class ApiError extends Error {
  constructor(status, type, message, source) {
    super(message);
    this.status = status;
    this.type = type;
    this.source = source;
  }
}

async function errorOf(response) {
  let body = null;
  try {
    body = await response.json();
  } catch {
    // not JSON: fall back to the status text
  }
  const e = body?.error ?? {};
  return new ApiError(
    response.status,
    e.type ?? "HTTPError",
    e.message ?? response.statusText,
    e.source,
  );
}

async function request(path, options = {}) {
  const response = await fetch(path, options);
  if (!response.ok) throw await errorOf(response);
  return response.status === 204 ? null : response.json();
}

const enc = encodeURIComponent;

export const listDocuments = () => request("/api/documents").then((b) => b.documents);
export const getDocument = (id) => request(`/api/documents/${enc(id)}`);
export const deleteDocument = (id) => request(`/api/documents/${enc(id)}`, { method: "DELETE" });
export const listThreads = (id) =>
  request(`/api/documents/${enc(id)}/threads`).then((b) => b.threads);
export const getThread = (id) => request(`/api/threads/${enc(id)}`);
export const listCollections = () => request("/api/collections").then((b) => b.collections);
export const getCollection = (id) => request(`/api/collections/${enc(id)}`);

// Read a scanned page the OCR time budget left unread: {document, page, blocks, added}.
export const readPage = (id, page) =>
  request(`/api/documents/${enc(id)}/pages/${page}/read`, { method: "POST" });

export function pageUrl(id, page, width) {
  return `/api/documents/${enc(id)}/pages/${page}.png?width=${Math.round(width)}`;
}

export function search(query, documentId) {
  const params = new URLSearchParams({ q: query, doc: documentId, k: "8" });
  return request(`/api/search?${params}`);
}

// Upload with progress (fetch cannot report upload progress; XMLHttpRequest can). With
// `onEvent`, the server streams the reading's progress too: {event: "progress", data:
// {stage, done, total}} as it goes (server/upload_events.py), then the result.
export function uploadDocument(file, onProgress, onEvent = null) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/documents");
    xhr.responseType = onEvent ? "text" : "json";
    if (onEvent) xhr.setRequestHeader("Accept", "text/event-stream");
    xhr.upload.addEventListener(
      "progress",
      (e) => e.lengthComputable && onProgress(e.loaded / e.total),
    );
    const events = onEvent ? streamedEvents(xhr, onEvent) : null;
    xhr.addEventListener("load", () => {
      const body = events ? events.end() : { status: xhr.status, json: xhr.response };
      if (body.status < 300) return resolve(body.json);
      const e = body.json?.error ?? body.json ?? {};
      reject(
        new ApiError(body.status, e.type ?? "HTTPError", e.message ?? xhr.statusText, e.source),
      );
    });
    xhr.addEventListener("error", () =>
      reject(new ApiError(0, "NetworkError", "the upload did not reach the server")),
    );
    const form = new FormData();
    form.append("file", file, file.name);
    xhr.send(form);
  });
}

// Ask, streaming: yields the typed events of POST /api/ask (see server/routes_ask.py).
export async function* ask(body, signal) {
  const response = await fetch("/api/ask", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
    body: JSON.stringify({ ...body, stream: true }),
    signal,
  });
  if (!response.ok) throw await errorOf(response);
  if ((response.headers.get("content-type") ?? "").includes("application/json")) {
    yield { event: "done", data: { answer: await response.json() } };
    return;
  }
  yield* readEvents(response.body);
}

// The SSE messages of a streamed XHR response, each passed to `onEvent` as it arrives;
// `end()` gives {status, json}: the `done` event's data, an `error` event's, or (a
// refusal before the stream began) the JSON error body.
function streamedEvents(xhr, onEvent) {
  let seen = 0;
  let last = null;
  const take = () => {
    const text = xhr.responseText.replace(/\r\n?/g, "\n");
    let cut;
    while ((cut = text.indexOf("\n\n", seen)) >= 0) {
      const event = parseEvent(text.slice(seen, cut));
      seen = cut + 2;
      if (!event) continue;
      last = event;
      onEvent(event);
    }
  };
  xhr.addEventListener("progress", take);
  return {
    end() {
      if (!(xhr.getResponseHeader("content-type") ?? "").includes("text/event-stream")) {
        let json = null;
        try {
          json = JSON.parse(xhr.responseText);
        } catch {
          // not JSON: the status text says it
        }
        return { status: xhr.status, json };
      }
      take();
      if (last?.event === "done") return { status: xhr.status, json: last.data };
      const error = last?.event === "error" ? last.data : { message: "the upload was cut short" };
      return { status: 500, json: { error } };
    },
  };
}
