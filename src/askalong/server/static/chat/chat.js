// The chat page: ask the knowledge base (POST /api/chat) in conversations kept as threads.
// The conversations list (conversations.js) beside the log of questions and answers
// (turn.js); the collections to ask, from the library's; the address keeps the open
// conversation (`chat.html?c=<id>`), so a reload comes back to it.

import * as api from "../lib/api.js";
import { el, sendOnEnter } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { showIdentity } from "../lib/identity.js";
import { setUpLanguage } from "../lib/language-switch.js";
import { chat } from "./chat-api.js";
import { ConversationList } from "./conversations.js";
import { ChatTurn } from "./turn.js";

const $ = (selector) => document.querySelector(selector);

class ChatPage {
  constructor() {
    this.log = $("#chat-log");
    this.input = $("#chat-input");
    this.send = $("#chat-send");
    this.stop = $("#chat-stop");
    this.conversationId = null;
    this.titles = new Map();
    this.picked = new Set();
    this.asking = null; // the AbortController of the stream under way
    this.list = new ConversationList($("#conversations"), {
      onOpen: (id) => this.open(id),
      onDeleted: (id) => id === this.conversationId && this.startNew(),
    });
    $("#chat-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.ask();
    });
    this.input.addEventListener(
      "keydown",
      sendOnEnter(() => this.ask()),
    );
    this.stop.addEventListener("click", () => this.asking?.abort());
    $("#new-conversation").addEventListener("click", () => this.startNew());
  }

  async load() {
    const [documents, collections] = await Promise.all([
      api.listDocuments().catch(() => []),
      api.listCollections().catch(() => []),
    ]);
    this.titles = new Map(documents.map((d) => [d.id, d.title]));
    this.showCollections(collections);
    const wanted = new URLSearchParams(location.search).get("c");
    await (wanted ? this.open(wanted) : this.startNew());
    await this.list.refresh(this.conversationId);
  }

  showCollections(collections) {
    $("#chat-scope-all").hidden = collections.length > 0;
    const boxes = collections.map((c) =>
      el(
        "label",
        { class: "chat-collection" },
        el("input", {
          type: "checkbox",
          value: c.id,
          onchange: (event) =>
            event.target.checked ? this.picked.add(c.id) : this.picked.delete(c.id),
        }),
        c.name,
      ),
    );
    $("#chat-collections").replaceChildren(...boxes);
  }

  startNew() {
    this.asking?.abort();
    this.conversationId = null;
    this.remember();
    this.log.replaceChildren(
      el(
        "div",
        { class: "empty chat-empty" },
        el("h2", {}, t("chat.empty.title")),
        el("p", {}, t("chat.empty.text")),
      ),
    );
    this.list.refresh(null);
    this.input.focus();
  }

  async open(id) {
    this.asking?.abort();
    let thread;
    try {
      thread = await api.getThread(id);
    } catch (error) {
      this.conversationId = null;
      this.remember();
      this.log.replaceChildren(el("p", { class: "notice error", role: "alert" }, error.message));
      return;
    }
    this.conversationId = thread.id;
    this.remember();
    this.log.replaceChildren(
      ...thread.turns.map((turn) => {
        const view = new ChatTurn({ question: turn.question, titles: this.titles });
        view.stored(turn);
        return view.el;
      }),
    );
    this.list.refresh(thread.id);
    this.log.lastElementChild?.scrollIntoView({ block: "start" });
  }

  // The open conversation in the address (replaced, not pushed: the list is the history).
  remember() {
    const id = this.conversationId;
    const url = id ? `?c=${encodeURIComponent(id)}` : location.pathname;
    history.replaceState(null, "", url);
  }

  async ask() {
    const question = this.input.value.trim();
    if (!question || this.asking) return;
    this.log.querySelector(".chat-empty")?.remove();
    const turn = new ChatTurn({
      question,
      titles: this.titles,
      onStarted: (data) => {
        this.conversationId = data.conversation_id;
        this.remember();
      },
    });
    this.log.append(turn.el);
    turn.el.scrollIntoView({ block: "start" });
    this.input.value = "";
    const controller = new AbortController();
    this.asking = controller;
    this.busy(true);
    const body = { question, conversationId: this.conversationId, collections: [...this.picked] };
    try {
      for await (const event of chat(body, controller.signal)) turn.on(event);
      if (turn.el.dataset.state === "asking") turn.stopped(); // the stream ended early
    } catch (error) {
      if (controller.signal.aborted) turn.stopped();
      else turn.fail(error);
    } finally {
      this.asking = null;
      this.busy(false);
    }
    this.list.refresh(this.conversationId);
  }

  busy(asking) {
    this.send.disabled = asking;
    this.stop.hidden = !asking;
    if (asking) this.stop.focus();
    else this.input.focus();
  }
}

setUpLanguage();
showIdentity();
const page = new ChatPage();
window.askalong = page; // for tests and the console
page.load().finally(() => document.body.classList.add("ready"));
