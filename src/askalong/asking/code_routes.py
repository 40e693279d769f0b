"""The routes of drafts written from code, not by an answerer: a call tree
(``call_paths``), the call graph's finding and the code's own lines (``code_answers``).
The asker tells such drafts apart by these names alone, so a question about prose loads
neither module nor the call graph beneath them (~10 CPU ms, issue 28)."""

from __future__ import annotations

CALL_TREE_ROUTE = "call_tree"  # written from the call graph, not by an answerer
GRAPH_ROUTE = "code_graph"
LINES_ROUTE = "code_lines"
CODE_ANSWER_ROUTES = frozenset({GRAPH_ROUTE, LINES_ROUTE})
FROM_CODE_ROUTES = frozenset({CALL_TREE_ROUTE, *CODE_ANSWER_ROUTES})
