// What of an answer is written from code (its route is one of lib/contract.js
// FROM_CODE_ROUTES: the code's lines, the call graph's finding, a call tree): shown as code,
// in the monospace font with its indents (app.css `.answer-text.from-code`), alike in the
// reader's panel (panel/turn-view.js) and in the chat (chat/turn.js), whose parts carry the
// route of the answer each was drawn from.

import { FROM_CODE_ROUTES } from "./contract.js";

const CODE_ROUTES = new Set(FROM_CODE_ROUTES);

// An answer or a chat part (both have `status` and `route`): a refusal is prose.
export function writtenFromCode(answer) {
  return answer?.status === "answered" && CODE_ROUTES.has(answer.route);
}

// The answer's text as stretches `{ text, code }`, each part written from code its own
// stretch: the text holds its parts' answers in order (one part: the text is its answer;
// several: each under its question), so each is found after the one before. A part not
// found (a refusal's text stands for them all) leaves the text as prose.
export function codeStretches(text, parts) {
  const stretches = [];
  let at = 0;
  for (const part of parts.filter(writtenFromCode)) {
    const found = part.answer ? text.indexOf(part.answer, at) : -1;
    if (found < 0) continue;
    stretches.push({ text: text.slice(at, found), code: false }, { text: part.answer, code: true });
    at = found + part.answer.length;
  }
  stretches.push({ text: text.slice(at), code: false });
  return stretches.filter((stretch) => stretch.text);
}
