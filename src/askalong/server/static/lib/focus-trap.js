// Focus for a box that floats over the page (the ask box): Tab and Shift+Tab cycle through
// its controls while it is open, and focus goes back where it came from when it is dismissed.

const FOCUSABLE = [
  "a[href]",
  "button:not([disabled])",
  "input:not([disabled]):not([type=hidden])",
  "select:not([disabled])",
  "textarea:not([disabled])",
  "[tabindex]:not([tabindex='-1'])",
].join(",");

// The controls inside `container` that Tab can reach, in order (hidden ones left out).
export function focusables(container) {
  return [...container.querySelectorAll(FOCUSABLE)].filter(
    (node) => node.tabIndex >= 0 && node.getClientRects().length > 0,
  );
}

// Keeps Tab inside `container`; returns the function that lets it go.
export function trapFocus(container) {
  const onKey = (event) => {
    if (event.key !== "Tab") return;
    const items = focusables(container);
    if (!items.length) return;
    const first = items[0];
    const last = items[items.length - 1];
    const active = document.activeElement;
    const outside = !container.contains(active);
    if (event.shiftKey && (active === first || outside)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || outside)) {
      event.preventDefault();
      first.focus();
    }
  };
  container.addEventListener("keydown", onKey);
  return () => container.removeEventListener("keydown", onKey);
}

// Where focus is now, and the function that puts it back there (or on `fallback` when that
// element has gone or is hidden by then).
export function rememberFocus(fallback = null) {
  const before = document.activeElement;
  return () => {
    const back = isShown(before) && before !== document.body ? before : fallback;
    back?.focus({ preventScroll: true });
  };
}

function isShown(node) {
  return node instanceof HTMLElement && node.isConnected && node.getClientRects().length > 0;
}
