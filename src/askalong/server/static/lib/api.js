// The JSON API, one function per endpoint. Errors arrive as {"error": {type, message}}.

import { t } from "./i18n.js";
import { readEvents } from "./sse.js";

export class ApiError extends Error {
  constructor(status, type, message, source) {
    super(message);
    this.status = status;
    this.type = type;
    this.source = source;
  }
}

export async function errorOf(response) {
  let body = null;
  try {
    body = await response.json();
  } catch {
    // not JSON: fall back to the status text
  }
  const e = body?.error ?? {};
  let message = e.message ?? response.statusText;
  if (body?.retry_after) message = t("error.retry_after", { message, seconds: body.retry_after }); // 429
  return new ApiError(response.status, e.type ?? "HTTPError", message, e.source);
}

// A multi-user server refuses a signed-in browser's write without its session's CSRF
// token, which the login left in the readable cookie askalong_csrf_<server port>.
const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function csrfToken() {
  const cookies = document.cookie.split("; ").map((c) => c.split("="));
  const named = (name) => cookies.find(([key]) => key === name)?.[1];
  const port = location.port || (location.protocol === "https:" ? "443" : "80");
  const ours = named(`askalong_csrf_${port}`);
  const any = cookies.filter(([key]) => key.startsWith("askalong_csrf_"));
  // behind a proxy the server's own port is not the page's: then the only one there is
  return ours ?? (any.length === 1 ? any[0][1] : null);
}

export function withCsrf(headers = {}) {
  const token = csrfToken();
  return token ? { ...headers, "X-CSRF-Token": decodeURIComponent(token) } : headers;
}

export async function request(path, options = {}) {
  const unsafe = UNSAFE.has((options.method ?? "GET").toUpperCase());
  const sent = unsafe ? { ...options, headers: withCsrf(options.headers) } : options;
  const response = await fetch(path, sent);
  if (!response.ok) throw await errorOf(response);
  return response.status === 204 ? null : response.json();
}

const enc = encodeURIComponent;

export const listDocuments = () => request("/api/documents").then((b) => b.documents);
export const getDocument = (id) => request(`/api/documents/${enc(id)}`);
export const deleteDocument = (id) => request(`/api/documents/${enc(id)}`, { method: "DELETE" });
export const setVisibility = (id, visibility) =>
  request(`/api/documents/${enc(id)}/visibility`, {
    method: "PUT",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ visibility }),
  });
// Who this page runs as ({user, multi_user, orgs}): asked once per page.
let sessionAsked = null;
export const currentSession = () => (sessionAsked ??= request("/api/session"));
export const logout = () => request("/api/logout", { method: "POST" });
export const retryDocument = (id) => request(`/api/documents/${enc(id)}/retry`, { method: "POST" });
export const listThreads = (id) =>
  request(`/api/documents/${enc(id)}/threads`).then((b) => b.threads);
export const getThread = (id) => request(`/api/threads/${enc(id)}`);
export const deleteThread = (id) => request(`/api/threads/${enc(id)}`, { method: "DELETE" });
export const renameThread = (id, title) =>
  request(`/api/threads/${enc(id)}`, {
    method: "PATCH",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ title }),
  });
export const threadExportUrl = (id) => `/api/threads/${enc(id)}/export`;
export const listCollections = () => request("/api/collections").then((b) => b.collections);
export const getCollection = (id) => request(`/api/collections/${enc(id)}`);

// The stored original; a PDF opens in the browser's viewer at `page` (other formats download).
export function originalUrl(id, page = null) {
  const base = `/api/documents/${enc(id)}/original`;
  return page ? `${base}?inline=true#page=${page}` : base;
}
export const codeView = (id) => request(`/api/documents/${enc(id)}/code`);
export const symbolCalls = (id, block) =>
  request(`/api/documents/${enc(id)}/symbols/${enc(block)}/calls`);
export const symbolCallers = (id, block) =>
  request(`/api/documents/${enc(id)}/symbols/${enc(block)}/callers`);
export const identifier = (id, name, block, line) =>
  request(
    `/api/documents/${enc(id)}/identifiers/${enc(name)}?block=${enc(block)}&line=${Number(line)}`,
  );
export const compareTargets = (id, blockId) =>
  request(
    `/api/documents/${enc(id)}/compare-targets${blockId ? `?block=${enc(blockId)}` : ""}`,
  ).then((b) => b.targets);
// Read a scanned page the OCR time budget left unread, in the background: POST starts it,
// GET says how it goes ({state: "reading" | "read" | "failed", seconds, message, read}, read
// being {document, page, blocks, added}).
export const startPageReading = (id, page) =>
  request(`/api/documents/${enc(id)}/pages/${page}/reading`, { method: "POST" });
export const pageReading = (id, page) => request(`/api/documents/${enc(id)}/pages/${page}/reading`);

export function pageUrl(id, page, width) {
  return `/api/documents/${enc(id)}/pages/${page}.png?width=${Math.round(width)}`;
}

export function search(query, documentId) {
  const params = new URLSearchParams({ q: query, doc: documentId, k: "8" });
  return request(`/api/search?${params}`);
}

// Ask, streaming: yields the typed events of POST /api/ask (see server/routes/ask.py).
export async function* ask(body, signal) {
  const response = await fetch("/api/ask", {
    method: "POST",
    headers: withCsrf({ "Content-Type": "application/json", Accept: "text/event-stream" }),
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
