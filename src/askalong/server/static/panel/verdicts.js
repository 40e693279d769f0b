// Every verdict and every reason the server's checks give (verify/claims.py, judge.py,
// planted.py), said in plain words, in one place. A reason is matched by its wording
// (the server sends sentences, some with a number or a name in them); one the reader
// does not know is shown as the server wrote it, never dropped.

// The verdicts (lib/contract.js VERDICTS).
export const VERDICT_VIEW = Object.freeze({
  supported: {
    label: "Supported",
    tone: "good",
    note: "The quote says what the answer says.",
  },
  weak: {
    label: "Partly supported",
    tone: "warn",
    note: "The quote backs only part of what the answer says.",
  },
  suspicious: {
    label: "Doubtful",
    tone: "bad",
    note: "The quote may not say what the answer says: read it yourself.",
  },
  unverified: {
    label: "Not checked",
    tone: "muted",
    note: "No sentence of the answer rests on this quote, so it was not checked.",
  },
});

// The reader's own verdict, until a quote's arrives.
export const PENDING = Object.freeze({
  label: "Checking…",
  tone: "muted",
  note: "Checking the quote against the answer…",
});

// [the server's wording, what it means in plain words]; `$1` is the part in brackets.
export const REASONS = Object.freeze([
  [/^cites no source$/, "no passage in the document supports this sentence"],
  [/^source (\d+) does not exist$/, "it points to a quote ($1) that the answer does not have"],
  [/^(.+) not in the cited text$/, "the quote does not contain “$1”, which the answer states"],
  [
    /^the cited text covers (\d+%) of the claim$/,
    "the quote holds only $1 of the sentence's words",
  ],
  [
    /^the cited source drifted$/,
    "the quote comes from another part of the document than the one you asked about",
  ],
  [
    /^the cited text does not mention what the question asks about \((.+)\)$/,
    "the quote does not mention what you asked about ($1)",
  ],
  [
    /^the judge found it unsupported by its source$/,
    "a second reading found the quote does not back it",
  ],
  [
    /^the cited text is an instruction planted in the document, not evidence$/,
    "the quote is an instruction written into the document, not evidence",
  ],
  [
    /^repeats what an instruction planted in the document says \((.+)\)$/,
    "it repeats an instruction written into the document ($1)",
  ],
]);

export function verdictView(verdict) {
  return Object.hasOwn(VERDICT_VIEW, verdict) ? VERDICT_VIEW[verdict] : PENDING;
}

// A server reason in plain words.
export function plainReason(reason) {
  for (const [pattern, plain] of REASONS) {
    if (pattern.test(reason)) return reason.replace(pattern, plain);
  }
  return reason;
}

// How one sentence of the answer was checked, in plain words: the server's reasons when
// it doubts the sentence; else what holds (every quote is word-for-word in the document:
// the server only quotes text it found there).
export function howChecked(claim, quotes) {
  if (claim.reasons?.length) return claim.reasons.map(plainReason);
  if (!claim.quotes?.length) return [plainReason("cites no source")];
  const cited = claim.quotes.map((n) => quotes.get(n)?.text ?? "").join("\n");
  const numbers = claim.text.match(/\d[\d,.]*\d|\d/g) ?? [];
  const held = numbers.filter((n) => cited.includes(n));
  const said = ["this quote is word-for-word in the document"];
  if (numbers.length && held.length === numbers.length)
    said.unshift(`this quote contains the number${plural(numbers)} the answer states`);
  if (claim.verdict === "supported") said.push("it says what the answer says");
  return said;
}

function plural(items) {
  return items.length > 1 ? "s" : "";
}
