// The current thread's bar above its turns: its title, and rename (in place), export as
// Markdown (export.js) and delete (asked to confirm first). Hidden until the thread is
// stored (it has an id once its first answer is done).

import * as api from "../lib/api.js";
import { el, sendOnEnter, shorten } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { exportLink } from "./export.js";

export class ThreadMenu {
  // `onDeleted()` after the server removed the thread; `onRenamed(title)` after a rename.
  /** @param {{onDeleted: Function, onRenamed?: (title: string) => void}} options */
  constructor({ onDeleted, onRenamed = () => {} }) {
    this.onDeleted = onDeleted;
    this.onRenamed = onRenamed;
    this.thread = null; // {id, title}
    this.el = el("div", { class: "thread-bar", hidden: true, "aria-label": t("thread.bar") });
  }

  // Shows the bar for `thread` ({id, title?}; the title is fetched when not given), or hides it.
  async show(thread) {
    if (!thread?.id) {
      this.thread = null;
      this.el.hidden = true;
      return;
    }
    if (this.thread?.id === thread.id && !thread.title) return;
    this.thread = { id: thread.id, title: thread.title ?? "" };
    this.renderTitle();
    if (!thread.title) {
      const stored = await api.getThread(thread.id).catch(() => null);
      if (stored && this.thread?.id === thread.id) {
        this.thread = { id: thread.id, title: stored.title };
        this.renderTitle();
      }
    }
  }

  renderTitle() {
    const { id, title } = this.thread;
    const name = el("span", { class: "thread-name", title }, shorten(title, 80));
    this.el.hidden = false;
    this.el.replaceChildren(
      name,
      el(
        "span",
        { class: "thread-actions" },
        this.action(t("thread.rename"), "thread-rename", () => this.startRename()),
        exportLink(id),
        this.action(t("thread.delete"), "thread-delete", () => this.confirmDelete()),
      ),
    );
  }

  action(label, kind, onclick) {
    return el("button", { class: `thread-action ${kind}`, type: "button", onclick }, label);
  }

  startRename() {
    const input = el("input", {
      class: "thread-title-input",
      type: "text",
      maxlength: 2000,
      "aria-label": t("thread.title"),
      onkeydown: (event) => {
        if (event.key === "Escape") this.renderTitle();
        else sendOnEnter(() => this.rename(input.value))(event);
      },
    });
    input.value = this.thread.title;
    this.el.replaceChildren(
      input,
      el(
        "span",
        { class: "thread-actions" },
        this.action(t("thread.save"), "thread-save", () => this.rename(input.value)),
        this.action(t("common.cancel"), "thread-cancel", () => this.renderTitle()),
      ),
    );
    input.focus();
    input.select();
  }

  async rename(title) {
    if (!title.trim()) return this.renderTitle();
    try {
      const renamed = await api.renameThread(this.thread.id, title);
      this.thread = { id: renamed.id, title: renamed.title };
      this.renderTitle();
      this.onRenamed(renamed.title);
    } catch (error) {
      this.fail(error);
    }
  }

  confirmDelete() {
    const keep = this.action(t("thread.keep"), "thread-keep", () => this.renderTitle());
    this.el.replaceChildren(
      el("span", { class: "thread-confirm", role: "alert" }, t("thread.confirm_delete")),
      el(
        "span",
        { class: "thread-actions" },
        this.action(t("thread.delete"), "thread-delete-confirm danger", () => this.remove()),
        keep,
      ),
    );
    keep.focus();
  }

  async remove() {
    try {
      await api.deleteThread(this.thread.id);
    } catch (error) {
      if (error.status !== 404) return this.fail(error); // already gone: done all the same
    }
    this.show(null);
    this.onDeleted();
  }

  fail(error) {
    this.renderTitle();
    this.el.append(el("span", { class: "thread-error", role: "alert" }, error.message));
  }

  destroy() {
    this.thread = null;
    this.el.remove();
  }
}
