"""What follows a selection in reading order, and what delivers an announcement (pure).

A selection that announces something ("We consider two sets of negative examples:",
"as follows", "three approaches", "得到以下结论：") is explained by the sentences that
deliver it, which come after it in the same section, often across a column or page
break. Between them a PDF puts footnotes, captions, tables, page headers and bare page
numbers: none of those is the continuation of running text, so ``following`` skips them
and stops where the section ends.

``delivered`` picks the delivering sentences among those following: right after a
colon or "as follows" the next ones; after a count or an ordinal ("two sets", "the
first set") the ones that go on counting ("a second set", "The third instance", "其次")
or name the selection's terms, with the definition that comes right after them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from askalong.context.definitions import definition_strength, mentions
from askalong.context.material import Material, Passage, Selection, sentences
from askalong.context.units import Piece, trimmed
from askalong.text.announce import announces, counts_ahead
from askalong.types import BlockSpan

# kinds that carry running text; a formula's text is unreadable, so it is stepped over
RUNNING_KINDS = frozenset({"paragraph", "list_item", "code", ""})  # "": kind unknown
_PAGE_NUMBER = re.compile(r"\W*(?:\d{1,5}|[ivxlc]{1,6})\W*", re.IGNORECASE)
_FOLLOWING = 8  # sentences looked at after the selection
_DELIVERED = 3
_FINAL = frozenset(".!?;:。！？；：")
_GOES_ON = re.compile(
    r"\b(?:second|secondly|third|fourth|another|other|finally|lastly|ii\)|iii\))\W"
    r"|\b(?:two|three|four)\b"
    r"|第二|第三|其次|再次|最后|另一|[(（][2-9][)）]",
    re.IGNORECASE,
)
_DEFINES_NEW = re.compile(
    r"\b(?:we\s+(?:call|denote|term|name|refer\s+to)|(?:is|are)\s+called|known\s+as)\b"
    r"|[“\"][^”\"]{2,40}[”\"]|称为|称作|定义为",
    re.IGNORECASE,
)
# a footnote mark ("paper:⁵") is no word to start at
_WORD_START = re.compile(r"(?![⁰¹²³⁴⁵⁶⁷⁸⁹])[\w\u3400-\u9fff\\(（“\"‘'\[]")


def running(passage: Passage) -> bool:
    """Whether ``passage`` is running text: no footnote, caption, table, formula, page
    furniture or a bare page number ("2270")."""
    return passage.kind in RUNNING_KINDS and _PAGE_NUMBER.fullmatch(passage.piece.text) is None


def following(selection: Selection, passages: Sequence[Passage]) -> list[Piece]:
    """Up to eight sentences of running text after the selection, in reading order: the
    rest of its last block (from a word on), then the blocks after it while they stay in
    its section (or a part of it). ``passages`` must know their blocks' order."""
    end = selection.spans[-1] if selection.spans else None
    own = next((p for p in passages if end is not None and _holds_end(p, end)), None)
    if end is None or own is None or own.order is None:
        return []
    section = own.section_path
    later = sorted(
        (p for p in passages if p.order is not None and p.order > own.order and running(p)),
        key=lambda p: (p.order, p.piece.span.start),
    )
    out = [s for s in sentences(own) if s.span.end > end.end]
    out = [s for s in (from_word(s, end.end) for s in out) if s is not None]
    seen = {s.span for s in out}
    for passage in later:
        if passage.section_path[: len(section)] != section:
            break
        for sentence in sentences(passage):
            if sentence.span not in seen and not selection.overlaps(sentence.span):
                seen.add(sentence.span)
                out.append(sentence)
        if len(out) >= _FOLLOWING:
            break
    return out[:_FOLLOWING]


def rest_of_sentence(selection: Selection, passages: Sequence[Passage]) -> Piece | None:
    """The rest of the sentence the selection ends inside (from a word on), if any."""
    end = selection.spans[-1] if selection.spans else None
    own = next((p for p in passages if end is not None and _holds_end(p, end)), None)
    if end is None or own is None:
        return None
    for sentence in sentences(own):
        if sentence.span.start < end.end < sentence.span.end:
            return from_word(sentence, end.end)
    return None


def _holds_end(passage: Passage, end: BlockSpan) -> bool:
    span = passage.piece.span
    return span.block_id == end.block_id and span.start <= end.end <= span.end


def from_word(sentence: Piece, cut: int) -> Piece | None:
    """``sentence`` from ``cut`` (a block offset) on, starting at a word, never on the
    ": " or ", " a selection ended before."""
    start = max(cut - sentence.span.start, 0)
    text = sentence.text
    while start < len(text) and _WORD_START.match(text[start]) is None:
        start += 1
    return trimmed(sentence, start, len(text))


def delivered(
    selection: Selection,
    passages: Sequence[Passage],
    terms: Sequence[str],
    *,
    colon_only: bool = False,
) -> list[Material]:
    """The sentences that deliver what the selection announces (none when it announces
    nothing), in reading order; ``colon_only``: only what a colon or "as follows" opens
    (an Example: "A syntax example:", "示例如下：")."""
    text = selection.text
    rest = rest_of_sentence(selection, passages)
    after = following(selection, passages)
    if rest is not None and after and after[0].span == rest.span:
        after = after[1:]  # the rest of the selected sentence is shown as that
    after = [p for p in after if _sentence_like(p.text)]
    if not after:
        return []
    chosen = _chosen(text, rest, after, terms, colon_only, _at_block_end(selection, passages))
    return [Material("continuation", "", piece, 3.0) for piece in chosen]


def _chosen(
    text: str,
    rest: Piece | None,
    after: Sequence[Piece],
    terms: Sequence[str],
    colon_only: bool,
    at_end: bool,
) -> list[Piece]:
    colon = announces(text)
    if rest is not None and announces(rest.text):
        colon = True  # "…（itemize、enumerate），示例如下：" announces in its rest
    if colon_only and not colon and announces(after[0].text):
        colon, after = True, after[1:]  # "… the null value. A syntax example:" then the code
        return [*after[:_DELIVERED]] if after else []
    if colon:
        return list(after[:_DELIVERED])
    if colon_only:
        return []
    finished: list[Piece] = []
    if at_end and _unfinished(text):
        finished = _finished(after)  # "… outperform the state-" goes on past a page break
    if not (announces(text) or counts_ahead(text)):
        return finished
    counted = _counting(after[len(finished) :], terms, adjacent=rest is None)
    return [*finished, *counted][:_DELIVERED]


def _at_block_end(selection: Selection, passages: Sequence[Passage]) -> bool:
    """Whether the selection runs to the end of its last block's text (a hyphen that
    breaks the word at the line's end left out)."""
    end = selection.spans[-1] if selection.spans else None
    own = next((p for p in passages if end is not None and _holds_end(p, end)), None)
    if end is None or own is None:
        return False
    return not own.piece.text[end.end - own.piece.span.start :].strip(" \t\n-\u00ad")


def _unfinished(text: str) -> bool:
    """A selection that stops inside its sentence at its block's end (a column break)."""
    return text.rstrip()[-1:] not in _FINAL


def _finished(after: Sequence[Piece]) -> list[Piece]:
    """The following pieces up to the one that ends the sentence (and, ending on a colon,
    the one it opens)."""
    out: list[Piece] = []
    for piece in after:
        out.append(piece)
        end = piece.text.rstrip()[-1:]
        if (end in _FINAL and end not in ":：") or len(out) == _DELIVERED:
            break
    return out


def _sentence_like(text: str) -> bool:
    """Not a run-in heading ("Candidate selection."): four words, or eight Han characters."""
    han = sum(1 for c in text if "\u3400" <= c <= "\u9fff")
    return han >= 8 or len(text.split()) >= 4 or text.rstrip()[-1:] in ":：,，;；"


def _counting(after: Sequence[Piece], terms: Sequence[str], *, adjacent: bool) -> list[Piece]:
    """The sentences that go on counting or name the terms, best three, each with a new
    term's definition right after it, in reading order (``adjacent``: the sentence right
    after the selection is likelier)."""
    scored = []
    for index, piece in enumerate(after):
        named = sum(1 for t in terms if mentions(piece.text, t))
        # the sentence right after begins the delivery more often than not
        first = adjacent and index == 0
        score = 2.0 * bool(_GOES_ON.search(piece.text)) + named + first - 0.1 * index
        scored.append((score, index))
    best = sorted((pair for pair in scored if pair[0] > 0), reverse=True)[:_DELIVERED]
    picked = {index for _, index in best}
    for index in list(picked):
        nxt = index + 1
        if nxt < len(after) and _defines_new(after[nxt].text, terms):
            picked.add(nxt)
    return [after[k] for k in sorted(picked)][:_DELIVERED]


def _defines_new(sentence: str, terms: Sequence[str]) -> bool:
    return _DEFINES_NEW.search(sentence) is not None or any(
        definition_strength(sentence, t) == 2 for t in terms
    )
