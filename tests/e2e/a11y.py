"""Accessibility checks in the real Chromium: the vendored axe-core (tests/e2e/vendor/, tests
only, never served) run over the whole page, and its serious or critical violations listed
one line each. Injected through the DevTools protocol, so the page's CSP stays as served."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
BLOCKING = frozenset({"serious", "critical"})
# WCAG 2.1 A and AA plus axe's best practices (landmarks, one main, headings).
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
RUN = """async (tags) => {
  const result = await axe.run(document, {runOnly: {type: "tag", values: tags}});
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({target: n.target.join(" "), summary: n.failureSummary})),
  }));
}"""


@cache
def _axe_source() -> str:
    return AXE.read_text(encoding="utf-8")


def violations(page: Page) -> list[dict[str, Any]]:
    """Every axe violation on the page as it is now (all impacts)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(_axe_source())
    found: list[dict[str, Any]] = page.evaluate(RUN, TAGS)
    return found


def blocking(page: Page) -> list[str]:
    """The serious and critical violations, one readable line per element."""
    return [
        f"{v['impact']} {v['id']} ({v['help']}): {node['target']} — {node['summary']}"
        for v in violations(page)
        if v["impact"] in BLOCKING
        for node in v["nodes"]
    ]
