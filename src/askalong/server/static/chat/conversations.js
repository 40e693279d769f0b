// The conversations list beside the chat (GET /api/conversations, newest first): each opens
// its conversation; rename in place (Enter saves, Escape cancels) and delete after a
// confirmation, both through the thread routes.

import * as api from "../lib/api.js";
import { el, sendOnEnter, shorten } from "../lib/dom.js";
import { t, tn } from "../lib/i18n.js";
import { listConversations } from "./chat-api.js";

export class ConversationList {
  // `onOpen(id)` when one is chosen; `onDeleted(id)` once the server removed one.
  constructor(root, { onOpen, onDeleted }) {
    this.root = root;
    this.onOpen = onOpen;
    this.onDeleted = onDeleted;
    this.current = null;
    this.conversations = [];
  }

  async refresh(current = this.current) {
    this.current = current;
    try {
      this.conversations = await listConversations();
    } catch (error) {
      this.root.replaceChildren(el("li", { class: "notice error" }, error.message));
      return;
    }
    this.render();
  }

  render() {
    if (!this.conversations.length) {
      this.root.replaceChildren(el("li", { class: "muted chat-none" }, t("chat.none")));
      return;
    }
    this.root.replaceChildren(...this.conversations.map((c) => this.item(c)));
  }

  item(conversation) {
    const li = el("li", {
      class: "conversation",
      dataset: { id: conversation.id },
      "aria-current": conversation.id === this.current ? "true" : null,
    });
    this.showTitle(li, conversation);
    return li;
  }

  showTitle(li, conversation) {
    const named = (key) => t(key, { title: shorten(conversation.title, 70) });
    const meta = `${tn("chat.turns", conversation.turns)} · ${conversation.updated.slice(0, 10)}`;
    li.replaceChildren(
      el(
        "button",
        {
          class: "conversation-open",
          type: "button",
          title: conversation.title,
          onclick: () => this.onOpen(conversation.id),
        },
        el("span", { class: "conversation-title" }, shorten(conversation.title, 70)),
        el("span", { class: "conversation-meta" }, meta),
      ),
      el(
        "span",
        { class: "conversation-actions" },
        this.action(t("thread.rename"), "conversation-rename", named("chat.rename_named"), () =>
          this.startRename(li, conversation),
        ),
        this.action(t("thread.delete"), "conversation-delete", named("chat.delete_named"), () =>
          this.confirmDelete(li, conversation),
        ),
      ),
    );
  }

  action(text, kind, label, onclick) {
    const props = { class: `thread-action ${kind}`, type: "button", "aria-label": label, onclick };
    return el("button", props, text);
  }

  startRename(li, conversation) {
    const back = () => this.showTitle(li, conversation);
    const input = el("input", {
      class: "thread-title-input",
      type: "text",
      maxlength: 2000,
      "aria-label": t("chat.title"),
      onkeydown: (event) => {
        if (event.key === "Escape") back();
        else sendOnEnter(() => this.rename(li, conversation, input.value))(event);
      },
    });
    input.value = conversation.title;
    li.replaceChildren(
      input,
      el(
        "span",
        { class: "conversation-actions" },
        this.action(t("thread.save"), "conversation-save", null, () =>
          this.rename(li, conversation, input.value),
        ),
        this.action(t("common.cancel"), "conversation-cancel", null, back),
      ),
    );
    input.focus();
    input.select();
  }

  async rename(li, conversation, title) {
    if (!title.trim()) return this.showTitle(li, conversation);
    try {
      const renamed = await api.renameThread(conversation.id, title);
      conversation.title = renamed.title;
      this.showTitle(li, conversation);
    } catch (error) {
      this.fail(li, conversation, error);
    }
  }

  confirmDelete(li, conversation) {
    const keep = this.action(t("thread.keep"), "conversation-keep", null, () =>
      this.showTitle(li, conversation),
    );
    li.replaceChildren(
      el("span", { class: "thread-confirm", role: "alert" }, t("chat.confirm_delete")),
      el(
        "span",
        { class: "conversation-actions" },
        this.action(t("thread.delete"), "conversation-delete-confirm danger", null, () =>
          this.remove(li, conversation),
        ),
        keep,
      ),
    );
    keep.focus();
  }

  async remove(li, conversation) {
    try {
      await api.deleteThread(conversation.id);
    } catch (error) {
      if (error.status !== 404) return this.fail(li, conversation, error); // 404: gone already
    }
    this.conversations = this.conversations.filter((c) => c.id !== conversation.id);
    this.render();
    this.onDeleted(conversation.id);
  }

  fail(li, conversation, error) {
    this.showTitle(li, conversation);
    li.append(el("span", { class: "thread-error", role: "alert" }, error.message));
  }
}
