"""Inline mathematics on one printed line, read as it is printed.

TeX sets ``P¹ --cite--> P²`` from separate glyph runs, and pdfium breaks its text at each
change of baseline, so the SPECTER paper's line read "P 1 cite −−→ P2 and P 2 cite −−→
P3 but P 1 6 cite −−→ P3": each script a word of its own, each long arrow drawn as minus
signs and an arrowhead, the arrow's label printed above it but read before it, and the
negation slash (a "6" in TeX's symbol font) a digit. Here the pieces of one line (words,
or single glyphs, each with its box) are tidied by geometry alone:

- stroke glyphs overlapping an arrowhead are one arrow ("−−→" reads "→");
- a piece centred over or under an arrow is its label ("−cite→"); a slash or TeX's "6"
  struck through it negates it ("↛", composed by Unicode normalisation);
- a smaller piece raised or lowered right after its base is its script, joined without
  a space, in Unicode super- or subscript characters when it has them all ("P¹", "x₂"),
  else as plain text ("WQ"); what follows a script close by joins it too ("H₂O", "P³,").
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace

from askalong.parse.pdf.markers import Box

HEADS = "→←↔⇒⇐⇔⟶⟵⟷⟹⟸↦⟼↛↚⇏"  # arrowheads, and arrows drawn whole
_STROKES = "−-–—─⎯="
_ARROW_GLYPHS = frozenset(HEADS + _STROKES)
_ARROW_DRAWING = _ARROW_GLYPHS | {"/"}  # pdfium may put a struck slash among the strokes
_NEGATIONS = frozenset("6/\u0338\u29f8")
_NEGATE = "\u0338"  # combining long solidus overlay: "→" + it is "↛" once composed
# Pieces of one arrow touch or overlap: a gap under this share of the arrow's height.
_ARROW_GAP_SHARE = 0.3
# A script is at most (and at least) this share of the line's text height, starts within
# this share of it after its base (or a little before: italic overhang), and sits this
# share above the text's bottom (a superscript) or ends this share below its top (a
# subscript).
_SCRIPT_HEIGHT_SHARE = 0.85
_MIN_SCRIPT_SHARE = 0.3
_SCRIPT_GAP_SHARE = 0.2
_SCRIPT_OVERLAP_SHARE = 0.2
_RAISE_SHARE = 0.25
_LOWER_SHARE = 0.25
_MAX_SCRIPT_CHARS = 6
# After a script: a word this close (a share of the line's text height) goes on without a
# space, punctuation a little further off too.
_AFTER_SCRIPT_GAP_SHARE = 0.15
_AFTER_SCRIPT_PUNCTUATION_SHARE = 0.5
_CLOSING = ",.;:)]}'’”"
# What ends a piece that takes no script: a relation or operator, an opening bracket.
_OPERATORS = frozenset("=<>≤≥≈≠+−-×·,;:([{")
_SUPERSCRIPTS = dict(zip("0123456789+-−=()ni", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ⁿⁱ", strict=True))
_SUBSCRIPTS = dict(
    zip("0123456789+-−=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ", strict=True)
)


@dataclass(frozen=True, slots=True)
class Piece:
    """A word or glyph of one line: its text, pdfium index, box, and a space before it."""

    text: str
    index: int
    box: Box  # left, bottom, right, top in PDF space (y up)
    spaced: bool
    glued: bool = False  # cut from the piece before it (one run) where its baseline moved


def tidied(pieces: list[Piece]) -> list[Piece]:
    """``pieces`` (one line, in content-stream order) with arrows, their labels and
    scripts read as printed; the same list when the line has none."""
    if len(pieces) < 2:
        return pieces
    return _scripts(_labelled(_arrows(pieces)))


def rejoined(pieces: list[Piece]) -> list[Piece]:
    """Pieces cut from one run at a change of baseline made one again where no script
    was found between them ("address" and ":" set in two fonts are "address:"), so
    that the line keeps the pieces it had before they were cut."""
    out: list[Piece] = []
    for piece in pieces:
        if out and piece.glued and not piece.spaced:
            last = out[-1]
            out[-1] = replace(last, text=last.text + piece.text, box=_union(last.box, piece.box))
        else:
            out.append(piece)
    return out


def _arrows(pieces: list[Piece]) -> list[Piece]:
    """Touching pieces drawn only of strokes and arrowheads made one arrow."""
    if not any(_ARROW_DRAWING.issuperset(piece.text) for piece in pieces):
        return pieces
    out: list[Piece] = []
    for piece in pieces:
        previous = out[-1] if out else None
        if previous and _arrow_part(previous) and _arrow_part(piece) and _touch(previous, piece):
            text, box = previous.text + piece.text, _union(previous.box, piece.box)
            out[-1] = replace(previous, text=text, box=box)
        else:
            out.append(piece)
    return [_one_arrow(piece) if _ARROW_DRAWING.issuperset(piece.text) else piece for piece in out]


def _arrow_part(piece: Piece) -> bool:
    return bool(piece.text) and _ARROW_GLYPHS.issuperset(piece.text)


def _one_arrow(piece: Piece) -> Piece:
    """ "−−→" as "→", "←−→" as "↔", "−−/→" as "↛"; strokes with no head stay as they are."""
    heads = "".join(char for char in piece.text if char in HEADS)
    if not heads or heads == piece.text:
        return piece
    head = "↔" if heads == "←→" else heads
    if "/" in piece.text:
        head = unicodedata.normalize("NFC", head + _NEGATE)
    return replace(piece, text=head)


def _touch(one: Piece, two: Piece) -> bool:
    height = max(one.box[3] - one.box[1], two.box[3] - two.box[1], 1.0)
    return two.box[0] <= one.box[2] + _ARROW_GAP_SHARE * height


def _labelled(pieces: list[Piece]) -> list[Piece]:
    """Each arrow with the label set over or under it and any slash struck through it."""
    arrows = [i for i, piece in enumerate(pieces) if _is_arrow(piece)]
    if not arrows:
        return pieces
    taken: set[int] = set()
    changed = {i: _with_marks(pieces, i, taken) for i in arrows}
    return [changed.get(i, piece) for i, piece in enumerate(pieces) if i not in taken]


def _is_arrow(piece: Piece) -> bool:
    return len(piece.text) == 1 and (piece.text in HEADS or piece.text in "↛↚⇍⇏⇎↮")


def _with_marks(pieces: list[Piece], at: int, taken: set[int]) -> Piece:
    """The arrow at ``at`` with its label and negation read in; their indices ``taken``."""
    arrow = pieces[at]
    left, bottom, right, top = arrow.box
    middle = (bottom + top) / 2
    label, negated, first = "", False, at
    for i, piece in enumerate(pieces):
        centre = (piece.box[0] + piece.box[2]) / 2
        if i == at or i in taken or not left <= centre <= right:
            continue
        if piece.text in _NEGATIONS and piece.box[1] <= middle <= piece.box[3]:
            negated = True
        elif not label and (piece.box[1] >= middle or piece.box[3] <= middle):
            label = piece.text
        else:
            continue
        taken.add(i)
        first = min(first, i)
    head = unicodedata.normalize("NFC", arrow.text + _NEGATE) if negated else arrow.text
    text = f"−{label}{head}" if label else head
    return replace(arrow, text=text, spaced=pieces[first].spaced)


def _scripts(pieces: list[Piece]) -> list[Piece]:
    """Scripts set against their base with no space between, in script characters; a
    piece close after a script goes on without a space too. Each stays a piece of its
    own, so the line keeps its pieces (and their pdfium indices)."""
    body = _body(pieces)
    out: list[Piece] = []
    scripts: list[tuple[Piece, str]] = []  # the scripts of the last base, with their kind
    for piece in pieces:
        kind = _script_of(body, out, scripts, piece)
        if kind:
            scripts.append((piece, kind))
            continue
        if scripts:
            goes_on = _goes_on(body, scripts[-1][0].box[2], piece)
            # Set on by more small type ("D−" + "1/2"): a script read only in part.
            out += _written(scripts, plain=goes_on and _small(body, piece))
            if goes_on:
                piece = replace(piece, spaced=False)
            scripts = []
        out.append(piece)
    return out + _written(scripts, plain=False)


def _script_of(
    body: tuple[float, float], out: list[Piece], scripts: list[tuple[Piece, str]], piece: Piece
) -> str:
    """``piece``'s kind of script to ``out[-1]`` (after its ``scripts``), or ""."""
    if not out:
        return ""
    reach = _SCRIPT_GAP_SHARE * (body[1] - body[0])
    if scripts:  # the next script, or one stacked under or over the last
        last = scripts[-1][0].box
        return _script_kind(body, last[0] - reach, last[2] + reach, piece)
    base = out[-1]
    if base.text[-1:] in _OPERATORS or _script_kind(body, base.box[0], base.box[0], base):
        return ""  # no base: an operator, or a script itself ("13" opening a note)
    return _script_kind(body, base.box[2] - reach, base.box[2] + reach, piece)


def _body(pieces: list[Piece]) -> tuple[float, float]:
    """The bottom and top of the line's ordinary text: the middle values of its pieces'
    boxes, each piece weighed by its length (pdfium's loose boxes span a font's whole
    height, so the text of one font shares them; a math font's are taller)."""
    return _weighted_middle(pieces, 1), _weighted_middle(pieces, 3)


def _weighted_middle(pieces: list[Piece], side: int) -> float:
    values = sorted((piece.box[side], len(piece.text)) for piece in pieces)
    half, seen = sum(weight for _, weight in values) / 2, 0
    for value, weight in values:
        seen += weight
        if seen >= half:
            return value
    return values[-1][0]


def _script_kind(body: tuple[float, float], low: float, high: float, piece: Piece) -> str:
    """ "sup" or "sub" when ``piece`` is set as a script starting between ``low`` and
    ``high``, else ""."""
    body_bottom, body_top = body
    height = body_top - body_bottom
    left, bottom, _, top = piece.box
    text = piece.text.strip(" ")
    if height <= 0 or not text or len(text) > _MAX_SCRIPT_CHARS or " " in text:
        return ""
    if top - bottom < _MIN_SCRIPT_SHARE * height or not _small(body, piece):
        return ""  # a rule (a dash's tight box), or as tall as the text
    if not low <= left <= high:
        return ""
    if bottom >= body_bottom + _RAISE_SHARE * height:
        return "sup"
    if top <= body_top - _LOWER_SHARE * height and bottom < body_bottom:
        return "sub"
    return ""


def _written(scripts: list[tuple[Piece, str]], plain: bool) -> list[Piece]:
    """One base's scripts, set on without a space: all in super- and subscript characters
    when each has one ("x²ᵢ"), else (or when ``plain``) all as plain text ("D−1/2", not
    "D⁻1/2")."""
    texts = [(piece.text.strip(" "), kind) for piece, kind in scripts]
    forms = [_SUPERSCRIPTS if kind == "sup" else _SUBSCRIPTS for _, kind in texts]
    pairs = list(zip(texts, forms, strict=True))
    if not plain and all(_has_forms(text, form) for (text, _), form in pairs):
        shown = ["".join(form.get(char, char) for char in text) for (text, _), form in pairs]
    else:
        shown = [text for text, _ in texts]
    return [
        replace(piece, text=text, spaced=False)
        for (piece, _), text in zip(scripts, shown, strict=True)
    ]


def _has_forms(text: str, forms: dict[str, str]) -> bool:
    return all(char in forms or char in forms.values() for char in text)


def _small(body: tuple[float, float], piece: Piece) -> bool:
    return piece.box[3] - piece.box[1] <= _SCRIPT_HEIGHT_SHARE * (body[1] - body[0])


def _goes_on(body: tuple[float, float], script_end: float, piece: Piece) -> bool:
    """Whether ``piece``, after a script, continues the same word ("H₂O", "P³,")."""
    height = body[1] - body[0]
    closing = piece.text[0] in _CLOSING
    share = _AFTER_SCRIPT_PUNCTUATION_SHARE if closing else _AFTER_SCRIPT_GAP_SHARE
    return piece.box[0] - script_end < share * height


def _union(a: Box, b: Box) -> Box:
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
