// Every verdict and every reason the server's checks give (verify/claims.py, judge.py,
// planted.py), said in plain words, in one place. A reason is matched by its wording
// (the server sends sentences, some with a number or a name in them); one the reader
// does not know is shown as the server wrote it, never dropped.

import { t } from "../lib/i18n.js";

// The verdicts (lib/contract.js VERDICTS): their words are lib/strings' verdict.<name>.
const view = (name, tone) =>
  Object.freeze({ label: t(`verdict.${name}`), tone, note: t(`verdict.${name}.note`) });

export const VERDICT_VIEW = Object.freeze({
  supported: view("supported", "good"),
  weak: view("weak", "warn"),
  suspicious: view("suspicious", "bad"),
  unverified: view("unverified", "muted"),
});

// The reader's own verdict, until a quote's arrives.
export const PENDING = view("pending", "muted");

// [the server's wording, the key of what it means in plain words]; `{1}` is the part in
// brackets.
export const REASONS = Object.freeze([
  [/^cites no source$/, "reason.no_source"],
  [/^source (\d+) does not exist$/, "reason.missing_source"],
  [/^(.+) not in the cited text$/, "reason.not_in_text"],
  [/^the cited text covers (\d+%) of the claim$/, "reason.coverage"],
  [/^the cited source drifted$/, "reason.drifted"],
  [
    /^the cited text does not mention what the question asks about \((.+)\)$/,
    "reason.off_question",
  ],
  [/^the judge found it unsupported by its source$/, "reason.judge"],
  [/^the cited text is an instruction planted in the document, not evidence$/, "reason.planted"],
  [/^repeats what an instruction planted in the document says \((.+)\)$/, "reason.repeats_planted"],
]);

export function verdictView(verdict) {
  return Object.hasOwn(VERDICT_VIEW, verdict) ? VERDICT_VIEW[verdict] : PENDING;
}

// A server reason in plain words.
export function plainReason(reason) {
  for (const [pattern, key] of REASONS) {
    const found = reason.match(pattern);
    if (found) return t(key, { 1: found[1] ?? "" });
  }
  return reason;
}

// How one sentence of the answer was checked, in plain words: the server's reasons when
// it doubts the sentence; else what holds (every quote is word-for-word in the document:
// the server only quotes text it found there).
export function howChecked(claim, quotes) {
  if (claim.reasons?.length) return claim.reasons.map(plainReason);
  if (!claim.quotes?.length) return [plainReason("cites no source")]; // i18n-ignore: the server's
  const cited = claim.quotes.map((n) => quotes.get(n)?.text ?? "").join("\n");
  const numbers = claim.text.match(/\d[\d,.]*\d|\d/g) ?? [];
  const held = numbers.filter((n) => cited.includes(n));
  const said = [t("checked.verbatim")];
  if (numbers.length && held.length === numbers.length)
    said.unshift(t(`checked.number.${numbers.length > 1 ? "other" : "one"}`));
  if (claim.verdict === "supported") said.push(t("checked.supported"));
  return said;
}
