// The admin page's feedback section: every asker's ratings, newest first, with the triage
// of each thumbs-down (label, reason, evidence), filtered by label, user and date. Shown
// as text nodes only (dom.js `el`); read through api.js's `request`.

import { request } from "../lib/api.js";
import { el } from "../lib/dom.js";
import { t } from "../lib/i18n.js";

const TEXT = {
  title: t("admin.feedback"),
  none: t("admin.feedback_none"),
  label: t("admin.feedback_label"),
  anyLabel: t("admin.feedback_any_label"),
  labels: {
    retrieval_miss: t("admin.feedback_retrieval_miss"),
    retrieval_fault: t("admin.feedback_retrieval_fault"),
    generation_fault: t("admin.feedback_generation_fault"),
  },
  user: t("admin.user"),
  since: t("admin.feedback_since"),
  until: t("admin.feedback_until"),
  filter: t("admin.feedback_filter"),
  question: t("admin.feedback_question"),
  rating: t("admin.feedback_rating"),
  ratings: { up: t("admin.feedback_up"), down: t("admin.feedback_down") },
  reason: t("admin.feedback_reason"),
  triage: t("admin.feedback_triage"),
  when: t("admin.feedback_when"),
};

function query(filters) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  const text = params.toString();
  return `/api/admin/feedback${text ? `?${text}` : ""}`;
}

function row(f) {
  const triage = f.triage
    ? [
        el("strong", {}, TEXT.labels[f.triage.label] ?? f.triage.label),
        el("div", { class: "muted" }, f.triage.reason),
        el(
          "ul",
          { class: "muted" },
          f.triage.evidence.map((e) => el("li", {}, e)),
        ),
      ]
    : "";
  return el(
    "tr",
    { class: "feedback-row", dataset: { id: f.id, label: f.triage?.label ?? "" } },
    el("td", {}, f.created.slice(0, 16).replace("T", " ")),
    el("td", {}, f.owner),
    el("td", {}, TEXT.ratings[f.rating] ?? f.rating),
    el("td", {}, f.judged.question),
    el("td", {}, f.reason),
    el("td", { class: "feedback-triage" }, triage),
  );
}

// The section, drawn at once and filled when its list arrives; the form reloads only it.
export function feedbackSection() {
  const label = el("select", { id: "feedback-label" }, [
    el("option", { value: "" }, TEXT.anyLabel),
    ...Object.entries(TEXT.labels).map(([v, text]) => el("option", { value: v }, text)),
  ]);
  const user = el("input", { id: "feedback-user", maxlength: 64 });
  const since = el("input", { id: "feedback-since", type: "date" });
  const until = el("input", { id: "feedback-until", type: "date" });
  const body = el("div", { class: "table-wrap", "aria-live": "polite" });
  const load = async (event) => {
    event?.preventDefault();
    const filters = {
      label: label.value,
      user: user.value.trim(),
      since: since.value,
      until: until.value,
    };
    try {
      const { feedback } = await request(query(filters));
      const head = [TEXT.when, TEXT.user, TEXT.rating, TEXT.question, TEXT.reason, TEXT.triage];
      const table = () =>
        el(
          "table",
          { class: "data-table" },
          el(
            "tr",
            {},
            head.map((h) => el("th", {}, h)),
          ),
          feedback.map(row),
        );
      body.replaceChildren(feedback.length ? table() : el("p", { class: "muted" }, TEXT.none));
    } catch (error) {
      body.replaceChildren(el("p", { class: "notice error", role: "alert" }, error.message));
    }
  };
  const field = (text, control) => el("label", { class: "admin-field" }, `${text} `, control);
  const form = el(
    "form",
    { class: "admin-form", onsubmit: load },
    field(TEXT.label, label),
    field(TEXT.user, user),
    field(TEXT.since, since),
    field(TEXT.until, until),
    el("button", { id: "feedback-filter", class: "button", type: "submit" }, TEXT.filter),
  );
  load();
  return el("section", { class: "admin-feedback" }, el("h2", {}, TEXT.title), form, body);
}
