// The JSON API, one function per endpoint. Errors arrive as {"error": {type, message}}.

import { readEvents } from "./sse.js";

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

export const compareTargets = (id, blockId) =>
  request(
    `/api/documents/${enc(id)}/compare-targets${blockId ? `?block=${enc(blockId)}` : ""}`,
  ).then((b) => b.targets);

export function pageUrl(id, page, width) {
  return `/api/documents/${enc(id)}/pages/${page}.png?width=${Math.round(width)}`;
}

export function search(query, documentId) {
  const params = new URLSearchParams({ q: query, doc: documentId, k: "8" });
  return request(`/api/search?${params}`);
}

// Upload with progress (fetch cannot report upload progress; XMLHttpRequest can).
export function uploadDocument(file, onProgress) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/documents");
    xhr.responseType = "json";
    xhr.upload.addEventListener(
      "progress",
      (e) => e.lengthComputable && onProgress(e.loaded / e.total),
    );
    xhr.addEventListener("load", () => {
      if (xhr.status < 300) return resolve(xhr.response);
      const e = xhr.response?.error ?? {};
      reject(
        new ApiError(xhr.status, e.type ?? "HTTPError", e.message ?? xhr.statusText, e.source),
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
