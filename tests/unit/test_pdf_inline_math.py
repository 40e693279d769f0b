"""The pieces of one printed line tidied by geometry alone (``parse/pdf/inline_math``):
what is not inline mathematics stays exactly as it was."""

from __future__ import annotations

from askalong.parse.pdf.inline_math import Piece, tidied


def _text(pieces: list[Piece]) -> str:
    return "".join((" " if p.spaced and i else "") + p.text for i, p in enumerate(pieces))


def _word(text: str, left: float, spaced: bool = True, bottom: float = 100.0) -> Piece:
    """A word of body text: 10 points tall, 5 points a character."""
    return Piece(text, 0, (left, bottom, left + 5 * len(text), bottom + 10), spaced)


def _small(text: str, left: float, bottom: float) -> Piece:
    """A script: 6 points tall, 3 points a character."""
    return Piece(text, 0, (left, bottom, left + 3 * len(text), bottom + 6), True)


def test_prose_stays_as_it_is() -> None:
    pieces = [_word("the", 0, False), _word("query", 20), _word("paper,", 50), _word("i.e.", 85)]
    assert tidied(pieces) == pieces


def test_a_raised_digit_after_its_base_is_a_superscript() -> None:
    pieces = [_word("if", 0, False), _word("P", 15), _small("1", 20.5, 104), _word("and", 30)]
    assert _text(tidied(pieces)) == "if P¹ and"


def test_a_lowered_script_and_what_follows_it_close_by() -> None:
    pieces = [_word("H", 0, False), _small("2", 5.2, 97), _word("O.", 8.5), _word("So", 25)]
    assert _text(tidied(pieces)) == "H₂O. So"


def test_a_script_without_unicode_forms_is_joined_plainly() -> None:
    pieces = [_word("paper", 0, False), _word("P", 30), _small("Q", 35.5, 104), _word(",", 39)]
    assert _text(tidied(pieces)) == "paper PQ,"


def test_a_word_on_the_baseline_is_no_script_even_when_short() -> None:
    pieces = [_word("P", 0, False), Piece("a", 0, (7, 100, 11, 106), True), _word("b", 14)]
    assert _text(tidied(pieces)) == "P a b"


def test_arrow_pieces_label_and_slash_read_as_one_arrow() -> None:
    label = _small("cite", 12, 108)
    slash = Piece("6", 0, (15, 97, 19, 113), True)
    minus = Piece("−−", 0, (10, 104, 22, 105), True)
    head = Piece("→", 0, (21, 100, 30, 109), False)
    pieces = [_word("P", 0, False), slash, label, minus, head, _word("Q", 34)]
    assert _text(tidied(pieces)) == "P −cite↛ Q"


def test_strokes_without_a_head_stay() -> None:
    pieces = [_word("a", 0, False), Piece("−−", 0, (8, 104, 20, 105), True), _word("b", 24)]
    assert tidied(pieces) == pieces
