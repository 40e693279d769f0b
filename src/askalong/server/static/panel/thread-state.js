// The current thread, {id, anchor, turns}, and the actions on it: start at a selection,
// ask (passing the answer's events through), re-anchor, open a stored thread. No DOM here.
//
// The thread changes only when a turn is stored, which is when the server sends `done`
// (routes/ask.py): that event alone gives the thread id and counts the turn. A `thread`
// event is sent before anything is stored, so a stream that fails after it leaves the
// thread as it was, and a follow-up never names a thread the server does not have.

import * as api from "../lib/api.js";
import { language } from "../lib/i18n.js";
import { PendingQuestion } from "./pending.js";

export function newThread(anchor) {
  return Object.freeze({ id: null, anchor, turns: 0 });
}

// The thread after one event of an ask.
export function afterEvent(thread, { event, data }) {
  if (event !== "done") return thread;
  return Object.freeze({
    ...thread,
    id: data.answer.thread_id ?? thread.id,
    turns: thread.turns + 1,
  });
}

// A selection over several blocks anchors every one of them (`spans`, in document order).
export function anchorOf(selection) {
  const { block_id, start, end, text, spans = [] } = selection;
  return { block_id, start, end, selected_text: text, spans: spans.length > 1 ? spans : [] };
}

// The anchor as POST /api/ask takes it (a stored one also carries page and section).
export function wireAnchor(anchor) {
  if (!anchor) return null;
  const { block_id, start, end, selected_text, spans = [] } = anchor;
  return { block_id, start, end, selected_text, spans };
}

export class ThreadState {
  // `collectionId` set: questions go to the collection's documents as one (no anchor);
  // `documentIds` likewise, for documents picked in the library.
  constructor(docId, collectionId = null, documentIds = []) {
    this.docId = docId;
    this.collectionId = collectionId;
    this.documentIds = documentIds;
    this.current = null;
    this.session = 0; // bumped when another thread takes over, so a late event is dropped
  }

  start(selection) {
    this.replace(newThread(anchorOf(selection)));
  }

  // A thread over the whole document (or collection): no anchor.
  startWhole() {
    this.replace(newThread(null));
  }

  reset() {
    this.replace(null);
  }

  // Moves the anchor of the thread's next question; false when there is no thread.
  reanchor(selection) {
    if (!this.current) return false;
    this.current = Object.freeze({ ...this.current, anchor: anchorOf(selection) });
    return true;
  }

  // The thread's next question asks the whole document; false when there is no thread.
  dropAnchor() {
    if (!this.current) return false;
    this.current = Object.freeze({ ...this.current, anchor: null });
    return true;
  }

  // The events of one question on the current thread, applied to it as they pass. With
  // no anchor the question asks the whole document (`whole`: a follow-up drops the
  // thread's anchor on the server too). The question is kept over a reload until its turn
  // is stored (pending.js), `attempt` being how often it was sent before.
  async *ask(question, intent, attempt = 0) {
    const session = this.session;
    const { id, anchor } = this.current;
    const body = {
      document_id: this.docId,
      question,
      intent,
      anchor: wireAnchor(anchor),
      thread_id: id,
      whole: anchor == null,
      title_language: language() === "zh-Hans" ? "zh" : "en", // a bare intent's thread title
      ...(this.collectionId ? { collection: this.collectionId } : {}),
      ...(this.documentIds.length ? { documents: this.documentIds } : {}),
    };
    const pending =
      this.collectionId || this.documentIds.length
        ? null
        : new PendingQuestion(this.docId, { question, intent, anchor, thread_id: id, attempt });
    try {
      for await (const event of api.ask(body)) {
        pending?.see(event);
        if (this.session === session) this.current = afterEvent(this.current, event);
        yield event;
      }
    } catch (error) {
      pending?.fail(error);
      throw error;
    }
  }

  // Loads a stored thread and makes it current; returns its turns.
  async open(threadId) {
    const stored = await api.getThread(threadId);
    const turns = stored.turns;
    this.replace(
      Object.freeze({
        id: stored.id,
        title: stored.title,
        anchor: turns.at(-1)?.anchor ?? null,
        turns: turns.length,
      }),
    );
    return turns;
  }

  replace(thread) {
    this.current = thread;
    this.session += 1;
  }
}
