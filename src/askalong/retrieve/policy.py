"""The knobs of retrieval: routes' limits, the fusion and its shares, thresholds, top-K.

``RetrievalPolicy`` is a value (settings build it); the fusions (``retrieve/fusion.py``)
and the cut-offs (``retrieve/cutoff.py``) read it. The defaults are the measured starting
points the comments cite.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from askalong.errors import ConfigError

Fusion = Literal["zscore", "rrf", "weighted"]
FUSIONS: tuple[str, ...] = get_args(Fusion)


@dataclass(frozen=True)
class RetrievalPolicy:
    """The knobs of retrieval; the defaults are the issue's measured starting point."""

    keyword_limit: int = 150
    vector_limit: int = 150
    rrf_k: int = 60
    fusion: Fusion = "zscore"
    # Keyword share of z-score fusion by query language (tuned on XQuAD en / zh and the
    # CMRC trial set; "mixed" queries take the mean of the two).
    zscore_keyword_share_en: float = 0.3
    zscore_keyword_share_zh: float = 0.5
    # ... and when the question is in the other language than the documents it names (a
    # Chinese question over English text, ``AskedQuestion.across``): BM25 then matches
    # only the Latin terms the question borrows (names, identifiers, numbers), the vector
    # route the meaning. Chosen on the DEV sets' 231 cross-lingual questions (gold in the
    # evidence, each set left out: 179 -> 189; shares 0 / 0.1 / 0.2 / 0.3 / 0.5 on all
    # sets: 190 / 189 / 186 / 183 / 176), checked on XQuAD across (R@1 en -> zh 0.689 ->
    # 0.713, zh -> en 0.682 -> 0.680): benchmarks/results/cross-lingual-search-DEV-2026-12-07.md.
    zscore_keyword_share_across: float = 0.1
    zscore_threshold: float = 1.0
    # How far the keyword share moves toward 1 when the vector route looks weak for the
    # query (``WeakVector``); 0 keeps the share fixed (the fusion before this knob). The
    # z-score margin by which the keyword route's best hit must stand out more than the
    # vector route's before the shift begins, and the span over which it grows. Chosen
    # on the cached route lists of DRCD, XQuAD zh and en (R@1, paragraph chunks): fixed
    # share 0.936 / 0.954 / 0.964, these 0.944 / 0.955 / 0.965 (keyword 0.944 / 0.940 /
    # 0.936); shift 0.6 gave DRCD 0.948 but XQuAD zh 0.952.
    weak_vector_shift: float = 0.3
    weak_vector_margin: float = 0.0
    weak_vector_span: float = 1.0
    # A document's title chunk (title and byline, no sentence) ranks after the document's
    # next chunk (``retrieve/titles.py``): KB dev search MRR 0.645 -> 0.689; False: as the
    # fusion ranks it.
    title_chunks_last: bool = True
    # Route weights of weighted RRF: plain RRF loses to BM25 alone on Chinese, so the
    # keyword route may be given more say.
    keyword_weight: float = 1.0
    vector_weight: float = 1.0
    # Keyword share of ``weighted_fusion`` (the vector route gets the rest).
    weighted_keyword_share: float = 0.5
    fused_threshold: float = 0.028
    single_route_threshold: float = 0.014
    keyword_only_threshold: float | None = None  # None: the single-route threshold
    weighted_threshold: float = 0.0  # weighted fusion scores are in [0, 1]
    # A question naming at least this many documents (a collection: a manual's pages)
    # is ranked page by page (``retrieve/pages.py``); None: chunk by chunk always. A
    # page's score counts its next best chunks at ``page_share``.
    pages_from: int | None = 20
    page_share: float = 0.2
    k_max_read_along: int = 4
    k_max_knowledge_base: int = 5
    top_k_min_ratio: float = 0.25
    top_k_max_gap: float = 0.5

    def __post_init__(self) -> None:
        if self.fusion not in FUSIONS:
            raise ConfigError(f"fusion {self.fusion!r}; valid choices: {', '.join(FUSIONS)}")
        counts = ("keyword_limit", "vector_limit", "k_max_read_along", "k_max_knowledge_base")
        for name in counts:
            if getattr(self, name) < 1:
                raise ConfigError(f"{name}={getattr(self, name)}; must be at least 1")
        if self.weak_vector_span <= 0:
            raise ConfigError(f"weak_vector_span={self.weak_vector_span}; must be positive")
        if self.rrf_k < 0 or self.keyword_weight < 0 or self.vector_weight < 0:
            raise ConfigError("rrf_k and the route weights must not be negative")
        if self.pages_from is not None and self.pages_from < 1:
            raise ConfigError(f"pages_from={self.pages_from}; must be at least 1 (or None)")
        shares = (
            "page_share",
            "weighted_keyword_share",
            "zscore_keyword_share_en",
            "zscore_keyword_share_zh",
            "zscore_keyword_share_across",
            "weak_vector_shift",
        )
        for name in (*shares, "top_k_min_ratio", "top_k_max_gap"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ConfigError(f"{name}={getattr(self, name)}; must be between 0 and 1")

    def threshold_for(self, mode: str) -> float:
        """The score a hit needs in a list produced in ``mode``."""
        if mode == "hybrid":
            return {
                "zscore": self.zscore_threshold,
                "rrf": self.fused_threshold,
                "weighted": self.weighted_threshold,
            }[self.fusion]
        if mode == "keyword" and self.keyword_only_threshold is not None:
            return self.keyword_only_threshold
        return self.single_route_threshold

    def by_pages(self, documents: int) -> bool:
        """Whether a question naming ``documents`` documents is ranked page by page."""
        return self.pages_from is not None and documents >= self.pages_from

    def keyword_share(self, language: str, *, across: bool = False) -> float:
        """The keyword route's share in z-score fusion for a query in ``language``;
        ``across``: asked of documents in the other language."""
        if across:
            return self.zscore_keyword_share_across
        if language == "zh":
            return self.zscore_keyword_share_zh
        if language == "mixed":
            return (self.zscore_keyword_share_en + self.zscore_keyword_share_zh) / 2
        return self.zscore_keyword_share_en
