// Exact find's matching: a block's text and the query folded alike (NFKC, lower case,
// every run of white space one space), and each folded character mapped back to the code
// point offset it came from, so a hit is a block span [start, end) like a quote's.

const SPACE = /\s/u;
export const MAX_HITS = 10_000;

// The folded text of `text` and, for each of its UTF-16 units, the code point offset of
// the character it came from (one more entry: the end).
export function fold(text) {
  const units = [];
  const from = [];
  let offset = 0;
  let spaced = false;
  for (const ch of text) {
    if (SPACE.test(ch)) {
      if (!spaced) {
        units.push(" ");
        from.push(offset);
      }
      spaced = true;
    } else {
      spaced = false;
      const folded = ch < "\u0080" ? ch.toLowerCase() : ch.normalize("NFKC").toLowerCase();
      units.push(folded);
      for (let i = 0; i < folded.length; i += 1) from.push(offset);
    }
    offset += 1;
  }
  from.push(offset);
  return { text: units.join(""), from };
}

// The query as it is matched: folded, without white space at its ends.
export function foldQuery(query) {
  return fold(query.trim()).text.trim();
}

// Every hit of `query` in `blocks` (document order): [{blockId, start, end}], code points;
// at most MAX_HITS. `folded` caches each block's folded text between queries.
export function findAll(blocks, query, folded = new Map()) {
  const needle = foldQuery(query);
  const hits = [];
  if (!needle) return hits;
  for (const block of blocks) {
    if (!folded.has(block.id)) folded.set(block.id, fold(block.text));
    const { text, from } = folded.get(block.id);
    let at = text.indexOf(needle);
    while (at >= 0) {
      hits.push({ blockId: block.id, start: from[at], end: from[at + needle.length - 1] + 1 });
      if (hits.length >= MAX_HITS) return hits;
      at = text.indexOf(needle, at + needle.length);
    }
  }
  return hits;
}
