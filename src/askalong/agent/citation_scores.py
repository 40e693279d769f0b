"""Citation precision and recall of one answer, in the manner of ALCE (Gao et al. 2023,
"Enabling Large Language Models to Generate Text with Citations", section 2.2), pure.

Recall: the share of the answer's statements (claims) whose citations together support
them. Precision: the share of citations that are relevant: the claim they are cited for is
supported and the cited passage itself backs it. ALCE judges support with an NLI model;
here the verdicts are the existing checks' (``verify/claims``: the quote located, its
numbers, names and terms present, drift), so "supported" or "weak" counts as support.
An answer without statements has neither (``None``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from askalong.types import Claim, Verdict
from askalong.values.chat_answers import CitationScores

BACKING: frozenset[Verdict] = frozenset({"supported", "weak"})


def citation_scores(claims: Sequence[Claim], verdicts: Mapping[int, Verdict]) -> CitationScores:
    """``claims`` with the numbers they cite; ``verdicts`` each cited number's own check."""
    backed = [c for c in claims if c.quote_numbers and c.verdict in BACKING]
    pairs = [(c, n) for c in claims for n in c.quote_numbers]
    relevant = [
        (c, n)
        for c, n in pairs
        if c.verdict in BACKING and verdicts.get(n, "unverified") in BACKING
    ]
    return CitationScores(
        precision=len(relevant) / len(pairs) if pairs else None,
        recall=len(backed) / len(claims) if claims else None,
        statements=len(claims),
        citations=len(pairs),
    )
