// One question to the knowledge base and its answer, filled in as the chat events arrive
// (lib/contract.js CHAT_EVENT_NAMES): each tool step as it starts and ends ("Searching: …",
// "3 passages"), each part as it is answered, then the final checked answer, which
// replaces the parts: its citation chips open the reader at the cited span, each source
// with its verdict in plain words, copy, export and feedback below it.

import { el, icon, shorten } from "../lib/dom.js";
import { codeStretches, writtenFromCode } from "../lib/from-code.js";
import { t, tn } from "../lib/i18n.js";
import { claimList } from "../panel/quotes-view.js";
import { verdictView } from "../panel/verdicts.js";
import { answerActions } from "./actions.js";
import { readerUrl, withChips } from "./citations.js";

// What the turn does with each event; `error` ends a failed stream.
export const CHAT_TURN_EVENTS = Object.freeze({
  conversation: (turn, data) => turn.started(data),
  tool_call: (turn, data) => turn.toolCalled(data),
  tool_result: (turn, data) => turn.toolDone(data),
  part: (turn, data) => turn.partAnswered(data),
  done: (turn, data) => turn.answered(data.answer),
  error: (turn, data) => turn.fail(data),
});

// A tool step in words, from its name and arguments (the server's tools, agent/tools.py).
const STEP_WORDS = Object.freeze({
  search_knowledge: (args) => t("chat.step.search", { query: argument(args.query) }),
  generate_summary: (args) => t("chat.step.summary", { topic: argument(args.topic) }),
  knowledge_stats: () => t("chat.step.stats"),
  submit_feedback: () => t("chat.step.feedback"),
});

function argument(value) {
  return shorten(String(value ?? ""), 80);
}

export function stepWords(name, args = {}) {
  return Object.hasOwn(STEP_WORDS, name) ? STEP_WORDS[name](args) : name;
}

export class ChatTurn {
  // `titles`: document id → title (a stored answer's sources name only the id).
  /** @param {{question: string, titles?: Map<string, string>, onStarted?: (data: any) => void}} options */
  constructor({ question, titles = new Map(), onStarted = () => {} }) {
    this.titles = titles;
    this.onStarted = onStarted;
    this.conversationId = null;
    this.turnId = null;
    this.status = el("div", { class: "status" });
    this.setStatus(t("chat.thinking"));
    this.steps = el("ol", { class: "chat-steps", "aria-label": t("chat.steps") });
    this.parts = el("div", { class: "chat-parts" });
    this.answer = el("div", { class: "chat-answer-text" });
    this.sources = el("div", { class: "chat-sources" });
    this.footer = el("div", { class: "chat-footer" });
    this.el = el(
      "article",
      { class: "chat-turn", dataset: { state: "asking" } },
      el("div", { class: "chat-question" }, question),
      el(
        "div",
        { class: "chat-reply" },
        this.steps,
        this.status,
        this.parts,
        this.answer,
        this.sources,
        this.footer,
      ),
    );
  }

  on({ event, data }) {
    CHAT_TURN_EVENTS[event]?.(this, data);
  }

  started(data) {
    this.conversationId = data.conversation_id;
    this.turnId = data.turn_id;
    Object.assign(this.el.dataset, { conversation: this.conversationId, turn: this.turnId });
    this.onStarted(data);
  }

  toolCalled({ name, arguments: args }) {
    const item = el(
      "li",
      { class: "chat-step running", dataset: { tool: name } },
      el("span", { class: "spinner" }),
      el("span", { class: "chat-step-what" }, stepWords(name, args)),
      el("span", { class: "chat-step-result" }),
    );
    this.steps.append(item);
  }

  // A step's end: the running step of that tool (added now when its start was not seen).
  toolDone(step) {
    let item = [...this.steps.querySelectorAll(".chat-step.running")].find(
      (li) => li.dataset.tool === step.name,
    );
    if (!item) {
      this.toolCalled(step);
      item = this.steps.lastElementChild;
    }
    item.classList.remove("running");
    item.querySelector(".spinner")?.remove();
    const result = step.error ? step.error : tn("chat.step.passages", step.sources.length);
    item.classList.toggle("failed", Boolean(step.error));
    item.querySelector(".chat-step-result").replaceChildren(result);
  }

  partAnswered(part) {
    this.setStatus(t("chat.checking"));
    this.parts.append(
      el(
        "section",
        { class: "chat-part", dataset: { status: part.status } },
        el(
          "h3",
          { class: "chat-part-question" },
          t("chat.part", { n: part.index + 1, question: part.question }),
        ),
        el("p", { class: codeClass(part) }, withChips(part.answer, new Map())),
      ),
    );
  }

  setStatus(text) {
    this.status.replaceChildren(el("span", { class: "spinner" }), text);
  }

  // The final answer (the `done` event's chat answer JSON): it replaces the parts.
  answered(answer) {
    this.conversationId = answer.conversation_id ?? this.conversationId;
    this.turnId = answer.turn_id ?? this.turnId;
    const sources = answer.sources.map((s) => ({
      number: s.number,
      documentId: s.document_id,
      title: s.title,
      page: s.page,
      sectionPath: s.section_path,
      span: s.span,
      text: s.text,
      verdict: s.verdict,
    }));
    this.show({ ...answer, sources });
  }

  // A turn of a reopened conversation (GET /api/threads/{id}: the answer as a thread
  // keeps it, its sources as quotes; steps are not kept).
  stored(turn) {
    const answer = turn.answer;
    this.conversationId = answer.thread_id;
    this.turnId = turn.id;
    this.steps.remove();
    const sources = (answer.quotes ?? []).map((q) => ({
      number: q.number,
      documentId: q.document_id,
      title: this.titles.get(q.document_id) ?? "",
      page: q.page,
      sectionPath: q.section_path,
      span: { block_id: q.block_id, start: q.start, end: q.end },
      text: q.text,
      verdict: q.verdict,
    }));
    this.show({ ...answer, sources, limits_hit: [] });
  }

  show(answer) {
    Object.assign(this.el.dataset, { conversation: this.conversationId, turn: this.turnId });
    this.status.remove();
    this.parts.remove();
    this.el.dataset.state = "done";
    this.el.dataset.status = answer.status;
    const byNumber = new Map(answer.sources.map((s) => [s.number, s]));
    const parts = partsOf(answer);
    this.answer.replaceChildren(...answerText(answer.answer ?? "", parts, byNumber));
    this.sources.replaceChildren(...sourceList(answer.sources, codeSources(parts)));
    const quotes = answer.sources.map((s) => ({ number: s.number, text: s.text }));
    const notes = [...(answer.notes ?? []), ...(answer.limits_hit ?? []).map(limitWords)];
    this.footer.replaceChildren(
      answer.claims?.length ? claimList(answer.claims, quotes) : "",
      ...notes.map((note) => el("p", { class: "chat-note muted" }, note)),
      answerActions({
        conversationId: this.conversationId,
        turnId: this.turnId,
        text: () => copyText(answer),
      }),
    );
  }

  // The stop button: what arrived stays, said to be incomplete.
  stopped() {
    this.status.remove();
    this.el.dataset.state = "stopped";
    for (const item of this.steps.querySelectorAll(".chat-step.running")) {
      item.classList.remove("running");
      item.querySelector(".spinner")?.remove();
    }
    this.footer.replaceChildren(el("p", { class: "notice info" }, t("chat.stopped")));
  }

  // An error event, or a refused request (ApiError: 429 says when to try again, 401 asks
  // to sign in).
  fail(error) {
    this.status.remove();
    this.el.dataset.state = "failed";
    const signIn =
      error.status === 401
        ? el("a", { class: "button", href: "/login.html" }, t("chat.sign_in"))
        : null;
    this.footer.replaceChildren(
      el(
        "div",
        { class: "notice error", role: "alert" },
        el("b", {}, t("chat.failed")),
        el("span", {}, error.message),
        signIn,
      ),
    );
  }
}

// A part written from code is shown as code, as the reader shows such an answer.
function codeClass(part) {
  return writtenFromCode(part) ? "answer-text from-code" : null;
}

// The answer's parts, each with its route; a reopened turn's answer (a thread's) has none
// and stands for its one part (the server keeps the route of a one-part answer).
function partsOf(answer) {
  return answer.parts ?? [{ ...answer, sources: answer.sources.map((s) => s.number) }];
}

// The answer's text with its chips, each part written from code in a stretch shown as code.
function answerText(text, parts, byNumber) {
  return codeStretches(text, parts).flatMap(({ text: piece, code }) =>
    code
      ? [el("span", { class: "answer-text from-code" }, withChips(piece, byNumber))]
      : withChips(piece, byNumber),
  );
}

// The sources a part written from code cites: lines of code, quoted as code.
function codeSources(parts) {
  return new Set(parts.filter(writtenFromCode).flatMap((part) => part.sources ?? []));
}

function sourceList(sources, code = new Set()) {
  if (!sources.length) return [];
  const item = (source) => sourceItem(source, code.has(source.number));
  return [
    el("h3", { class: "chat-sources-title" }, tn("chat.sources", sources.length)),
    el("ol", { class: "chat-source-list" }, sources.map(item)),
  ];
}

function sourceItem(source, code) {
  const view = verdictView(source.verdict);
  const where = [
    source.page ? t("where.page", { page: source.page }) : "",
    (source.sectionPath ?? []).join(" › "),
  ].filter(Boolean);
  return el(
    "li",
    { class: "chat-source", dataset: { number: source.number, verdict: source.verdict } },
    el(
      "a",
      {
        class: "chat-source-link",
        href: readerUrl(source),
        target: "_blank",
        rel: "noopener",
        title: t("chat.open_source"),
      },
      el("span", { class: "cite-chip" }, `[${source.number}]`),
      icon("doc", 14),
      el("span", { class: "chat-source-title" }, shorten(source.title || t("chat.untitled"), 80)),
    ),
    where.length ? el("span", { class: "chat-source-where muted" }, where.join(" · ")) : "",
    el("span", { class: `badge ${view.tone}`, title: view.note }, view.label),
    el("blockquote", { class: code ? "code" : null }, shorten(source.text, 400, { lines: code })),
  );
}

function limitWords(limit) {
  return t("chat.limit", { limit });
}

// The answer as it is pasted elsewhere: the text, then each source on its own line.
function copyText(answer) {
  const lines = answer.sources.map((s) => {
    const page = s.page ? `, ${t("where.page", { page: s.page })}` : "";
    return `[${s.number}] ${s.title}${page}: “${shorten(s.text, 300)}”`;
  });
  return [answer.answer, ...(lines.length ? ["", ...lines] : [])].join("\n");
}
