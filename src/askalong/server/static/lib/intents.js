// How the reader shows the server's intents (lib/contract.js): a label for each quick
// intent, and which questions are only an intent's canned phrasing.

import { INTENT_QUESTIONS } from "./contract.js";
import { t } from "./i18n.js";

const LABELS = { explain: "intent.explain", example: "intent.example", compare: "intent.compare" };

// The intents that are a whole question by themselves (the server phrases them), in its
// order. An intent without a label here still shows, under its own name.
export const QUICK_INTENTS = Object.freeze(
  Object.keys(INTENT_QUESTIONS).map((id) => ({ id, label: intentLabel(id) ?? id })),
);

const CANNED = new Set(Object.values(INTENT_QUESTIONS).flat());

// The label of an intent; null for plain "ask".
export function intentLabel(id) {
  return Object.hasOwn(LABELS, id) ? t(LABELS[id]) : null;
}

// The question to show for a turn: null when it is only its intent's canned phrasing
// (the intent tag already says it).
export function shownQuestion(question, intent) {
  const canned = intentLabel(intent) != null && CANNED.has(question);
  return question && !canned ? question : null;
}
