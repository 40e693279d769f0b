// A question on its way, kept in sessionStorage until the server confirms its turn (the
// `done` event), so a reload does not lose it: the reloaded reader finds the turn already
// stored and shows it, or sends the question again, once (resumePending).
//
// The record is the request as sent (question, intent, anchor, the thread it follows up, or
// null) plus what the `thread` event told (the thread and turn the server is making), and
// how many times it was sent. An `error` event ends it too: the server answered, with a
// failure the reader showed.

import * as api from "../lib/api.js";

const KEY = "askalong:pending:";
// A reload can reach the server while it is still storing the turn it was answering:
// look a few times before sending the question again.
const LOOKS = 3;
const LOOK_GAP_MS = 400;

export class PendingQuestion {
  constructor(docId, request) {
    this.key = KEY + docId;
    this.record = { ...request, started: null, turn_id: null };
    this.save();
  }

  // Follows one event of the question's stream.
  see({ event, data }) {
    if (event === "thread") {
      this.record = { ...this.record, started: data.thread_id, turn_id: data.turn_id };
      this.save();
    } else if (event === "done" || event === "error") {
      clearPending(this.key.slice(KEY.length));
    }
  }

  // A request the server refused (an HTTP status: too long, unknown thread) is answered
  // too; a network failure, the one a reload causes, keeps the question.
  fail(error) {
    if (error?.status) clearPending(this.key.slice(KEY.length));
  }

  save() {
    try {
      sessionStorage.setItem(this.key, JSON.stringify(this.record));
    } catch {
      // storage full or refused: the question is still sent, only not kept over a reload
    }
  }
}

export function loadPending(docId) {
  try {
    return JSON.parse(sessionStorage.getItem(KEY + docId) ?? "null");
  } catch {
    return null;
  }
}

export function clearPending(docId) {
  sessionStorage.removeItem(KEY + docId);
}

// After a reload: what became of the question in flight. Returns "none" (there was none),
// "stored" (its turn is on the server: `panel` shows its thread), "resent" (asked again,
// once) or "dropped" (it was resent already and is still not stored: given up).
export async function resumePending(panel, docId) {
  const record = loadPending(docId);
  if (!record) return "none";
  const stored = await storedThread(record);
  if (stored) {
    clearPending(docId);
    await panel.open(stored);
    return "stored";
  }
  if (record.attempt >= 1) {
    clearPending(docId);
    return "dropped";
  }
  await panel.resend(record);
  return "resent";
}

// The id of the thread holding the record's turn, or null when it is not stored (yet).
async function storedThread(record) {
  if (!record.started || !record.turn_id) return null;
  for (let look = 0; look < LOOKS; look += 1) {
    if (look) await new Promise((resolve) => setTimeout(resolve, LOOK_GAP_MS));
    const thread = await api.getThread(record.started).catch(() => null);
    const turns = thread?.turns ?? [];
    if (turns.some((t) => t.id === record.turn_id || t.answer?.turn_id === record.turn_id))
      return thread.id;
  }
  return null;
}
