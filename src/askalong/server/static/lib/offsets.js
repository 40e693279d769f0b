// The API counts character offsets in Unicode code points (as Python does); the DOM
// counts UTF-16 units. They differ only for characters outside the BMP.

const SURROGATE = /[\uD800-\uDFFF]/;

export function cpLength(text) {
  return SURROGATE.test(text) ? Array.from(text).length : text.length;
}

export function cpToUnits(text, cp) {
  if (!SURROGATE.test(text)) return cp;
  let units = 0;
  let count = 0;
  for (const ch of text) {
    if (count === cp) break;
    units += ch.length;
    count += 1;
  }
  return units;
}

export function unitsToCp(text, units) {
  return SURROGATE.test(text) ? Array.from(text.slice(0, units)).length : units;
}

export function cpSlice(text, start, end) {
  return text.slice(cpToUnits(text, start), cpToUnits(text, end));
}
