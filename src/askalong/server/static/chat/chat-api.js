// The chat page's routes: its conversations (GET /api/conversations; each is a thread, read,
// renamed, deleted and exported by lib/api.js's thread functions), a question streamed
// (POST /api/chat, server/routes/chat.py) and feedback on an answer (POST /api/feedback).

import { errorOf, request, withCsrf } from "../lib/api.js";
import { readEvents } from "../lib/sse.js";

export const listConversations = () => request("/api/conversations").then((b) => b.conversations);

// Yields the typed events of POST /api/chat (lib/contract.js CHAT_EVENT_NAMES); `signal`
// aborts the stream (the stop button).
export async function* chat({ question, conversationId, collections }, signal) {
  const body = { question, conversation_id: conversationId, collections, stream: true };
  const response = await fetch("/api/chat", {
    method: "POST",
    headers: withCsrf({ "Content-Type": "application/json", Accept: "text/event-stream" }),
    body: JSON.stringify(body),
    signal,
  });
  if (!response.ok) throw await errorOf(response);
  yield* readEvents(response.body);
}

// Thumbs up or down on one answer (a turn), with an optional reason: 201 {id}.
export function sendFeedback({ conversationId, turnId, rating, reason }) {
  const body = { conversation_id: conversationId, turn_id: turnId, rating };
  if (reason) body.reason = reason;
  return request("/api/feedback", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}
