// The reader's keyboard: the block cursor (j/k or the arrow keys in the document, Shift
// to extend, Enter to ask about it, Esc to leave it), a few moves to the toolbar and the
// panel, and the `?` sheet listing them all (lib/shortcuts.js).

import { BlockCursor } from "./block-cursor.js";
import { Shortcuts } from "../lib/shortcuts.js";

// `onAsk(current, near)` is the selection watcher's: the cursor's blocks open the ask box
// exactly as a selection of them would.
export class ReaderKeys {
  constructor({ scroller, root, view, blocks, onAsk, askBoxOpen }) {
    this.scroller = scroller;
    this.cursor = new BlockCursor(scroller, root, view, blocks);
    this.shortcuts = new Shortcuts({ fallback: scroller });
    const inDocument = (event) => scroller.contains(event.target);
    const step = (delta, extend) => () => this.step(delta, extend);
    const cursorOn = () => this.cursor.isActive && !askBoxOpen();
    const leave = () => this.cursor.clear();
    const table = [
      [["j"], ["j"], "Next block", step(1, false)],
      [["k"], ["k"], "Previous block", step(-1, false)],
      [["J"], ["Shift+j"], "Extend over the next block", step(1, true)],
      [["K"], ["Shift+k"], "Take the last block back", step(-1, true)],
      [["ArrowDown"], ["↓"], "Next block (in the document)", step(1, false), inDocument],
      [["ArrowUp"], ["↑"], "Previous block (in the document)", step(-1, false), inDocument],
      [["Shift+ArrowDown"], ["Shift+↓"], "Extend over the next block", step(1, true), inDocument],
      [["Shift+ArrowUp"], ["Shift+↑"], "Take the last block back", step(-1, true), inDocument],
      [["Enter"], ["Enter"], "Ask about the framed blocks", () => this.ask(onAsk), cursorOn],
      [["Escape"], ["Esc"], "Close the ask box or this sheet; leave the blocks", leave, cursorOn],
      [["/"], ["/"], "Search this document", () => focus("#search")],
      [["a"], ["a"], "Go to the panel's question box", () => focus(".composer-input, .panel .tab")],
      [["p"], ["p"], "Show or hide the answer panel", () => click("#toggle-panel")],
    ];
    for (const [keys, shown, what, run, when] of table)
      this.shortcuts.add({ keys, shown, what, run, when });
    this.shortcuts.describe(["Tab"], "Move through every control (inside the ask box while open)");
  }

  // Moves the cursor, bringing focus into the document so the arrows and Esc follow.
  step(delta, extend) {
    if (!this.scroller.contains(document.activeElement))
      this.scroller.focus({ preventScroll: true });
    this.cursor.move(delta, { extend });
  }

  ask(onAsk) {
    const selection = this.cursor.selection();
    const near = this.cursor.rect();
    if (!selection || !near) return false;
    onAsk({ range: null, selection }, near);
  }

  destroy() {
    this.shortcuts.destroy();
    this.cursor.destroy();
  }
}

function focus(selector) {
  const target = [...document.querySelectorAll(selector)].find((n) => n.getClientRects().length);
  if (!target) return false;
  target.focus();
}

function click(selector) {
  document.querySelector(selector)?.click();
}
