"""Near-duplicate passages collapsed in a ranking (``retrieve/distinct``): a chunk whose
text a better-ranked chunk holds goes; a chunk sharing a sentence or a title with it
stays; Chinese works as English does."""

from __future__ import annotations

from askalong.retrieve.cutoff import fuse
from askalong.retrieve.distinct import near_duplicates
from askalong.retrieve.policy import RetrievalPolicy
from askalong.types import Hit

PAGE = (
    "为什么网络测速很快,但实际上网很慢?_百度知道 网速慢原因 1.病毒木马原因导致的,"
    "会导致导致网速慢。2.由于使用了p2p下载软件导致占用带宽资源很大,导致网速变慢了"
)
AGAIN = "网速慢原因 1.病毒木马原因导致的 ,会导致导致网速慢。 2.由于使用了P2P下载软件导致占用带宽"
OTHER = "网络测速很快,但实际上网却很慢。_百度知道 我估计的原因有几个:1、同时使用的人多,拉慢了网速"


def _hits(*ids: str) -> list[Hit]:
    return [Hit(cid, "d", 1.0 - n / 10, "keyword") for n, cid in enumerate(ids)]


def test_a_repeated_paragraph_goes_a_different_one_stays() -> None:
    texts = {"page": PAGE, "again": AGAIN, "other": OTHER}
    assert near_duplicates(_hits("page", "again", "other"), texts) == {"again"}
    # the better-ranked copy is the one kept
    assert near_duplicates(_hits("again", "page", "other"), texts) == frozenset()


def test_sharing_a_sentence_is_not_a_duplicate() -> None:
    first = "The default is 128 megabytes. shared_buffers sets the memory for shared buffers."
    second = "The default is 128 megabytes. wal_buffers sets the memory for WAL not yet written."
    texts = {"a": first, "b": second, "c": first.upper() + "  "}
    assert near_duplicates(_hits("a", "b", "c"), texts) == {"c"}  # folded, spaces ignored


def test_fuse_leaves_the_dropped_out_and_keeps_the_count_from_the_rest() -> None:
    keyword = [Hit(c, "d", 10.0 - n, "keyword") for n, c in enumerate("abcdef")]
    fused = fuse(keyword, None, RetrievalPolicy(), k_max=3, dropped={"b"})
    assert [h.chunk_id for h in fused] == ["a", "c", "d"]
