// Where things are in the reading column: the last of a document-ordered list of items
// whose top lies at or above a line (binary search, so a 700-page document or a long
// outline costs a few rectangle reads per scroll), and scrolling a rectangle to the middle.

// The index of the last item (0..count-1) whose top (from `topOf(index)`, any coordinate
// that grows down the document) is at or above `y`; 0 when every item lies below it.
export function lastAtOrAbove(count, topOf, y) {
  let low = 0;
  let high = count - 1;
  let found = 0;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (topOf(middle) <= y) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}

// The line a person reads at: the middle of the scroller's viewport (where a highlight or
// an outline entry's heading is scrolled to, so the section clicked is the one marked).
export function readingLine(scroller) {
  const box = scroller.getBoundingClientRect();
  return box.top + box.height / 2;
}

// Scroll `scroller` so that the client rectangle `rect` sits in the middle of its viewport.
export function scrollToMiddle(scroller, rect) {
  const view = scroller.getBoundingClientRect();
  const top = scroller.scrollTop + (rect.top + rect.bottom) / 2 - view.top - view.height / 2;
  const left = scroller.scrollLeft + (rect.left + rect.right) / 2 - view.left - view.width / 2;
  // Sideways only when it is out of view (a page zoomed wider than the view).
  const across = rect.left < view.left || rect.right > view.right;
  scroller.scrollTo({
    top: Math.max(top, 0),
    left: across ? Math.max(left, 0) : scroller.scrollLeft,
    behavior: "instant",
  });
}

// Run `update` once per animation frame while `scroller` scrolls (reading rectangles on
// every scroll event would force layout many times a frame).
export function onScrollFrame(scroller, update, signal) {
  let queued = false;
  const onScroll = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      update();
    });
  };
  scroller.addEventListener("scroll", onScroll, { signal, passive: true });
}
