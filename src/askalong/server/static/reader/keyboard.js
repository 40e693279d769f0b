// The reader's keyboard: the block cursor (j/k or the arrow keys in the document, Shift
// to extend, Enter to ask about it, Esc to leave it), a few moves to the toolbar and the
// panel, and the `?` sheet listing them all (lib/shortcuts.js).

import { BlockCursor } from "./block-cursor.js";
import { t } from "../lib/i18n.js";
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
    /** @type {[string[], string[], string, (event: KeyboardEvent) => unknown, ((event: KeyboardEvent) => boolean)?][]} */
    const table = [
      [["j"], ["j"], "keys.next", step(1, false)],
      [["k"], ["k"], "keys.previous", step(-1, false)],
      [["J"], ["Shift+j"], "keys.extend", step(1, true)],
      [["K"], ["Shift+k"], "keys.take_back", step(-1, true)],
      [["ArrowDown"], ["↓"], "keys.next_in_doc", step(1, false), inDocument],
      [["ArrowUp"], ["↑"], "keys.previous_in_doc", step(-1, false), inDocument],
      [["Shift+ArrowDown"], ["Shift+↓"], "keys.extend", step(1, true), inDocument],
      [["Shift+ArrowUp"], ["Shift+↑"], "keys.take_back", step(-1, true), inDocument],
      [["Enter"], ["Enter"], "keys.ask", () => this.ask(onAsk), cursorOn],
      [["Escape"], ["Esc"], "keys.escape", leave, cursorOn],
      [["/"], ["/"], "keys.search", () => focus("#search")],
      // `a`: the question box itself, not the panel's tabs above it
      [["a"], ["a"], "keys.composer", () => focus(".composer-input") || focus(".panel .tab")],
      [["p"], ["p"], "keys.panel", () => click("#toggle-panel")],
    ];
    for (const [keys, shown, what, run, when] of table)
      this.shortcuts.add({ keys, shown, what: t(what), run, when });
    // Keys the find bar and zoom handle themselves (find.js, zoom.js), listed on the sheet.
    const described = [
      [["Ctrl+F"], "keys.find"],
      [["Enter"], "keys.next_match"],
      [["Ctrl +", "Ctrl ="], "keys.zoom_in"],
      [["Ctrl −"], "keys.zoom_out"],
      [["Ctrl 0"], "keys.zoom_fit"],
      [[t("keys.wheel")], "keys.zoom_wheel"],
      [["Tab"], "keys.tab"],
    ];
    for (const [shown, what] of described) this.shortcuts.describe(shown, t(what));
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
  return true;
}

function click(selector) {
  document.querySelector(selector)?.click();
}
