"""The e5 tokenizer's walk stops where no piece starts, and still finds every piece."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np

from askalong.providers.local.e5.edge_table import BULK_CHARACTERS, EDGES_FILE, EdgeTable
from askalong.providers.local.e5.file import (
    PieceTable,
    Vocabulary,
    _code_points,
    read_model_file,
)
from askalong.providers.local.e5.model import PackageModel
from askalong.providers.local.e5.tokenizer import Tokenizer, piece_edges

PIECES = ("<unk>", "<s>", "</s>", "<pad>", "▁", "a", "b", "c", "d", "▁ab", "▁abcd", "cd")


def _tokenizer(scores: dict[str, float]) -> Tokenizer:
    vocabulary = Vocabulary(
        pieces=PIECES,
        scores=np.array([scores.get(p, -5.0) for p in PIECES], dtype=np.float32),
        bos=1,
        eos=2,
        pad=3,
        unk=0,
        normalise={},
    )
    return Tokenizer(vocabulary)


def test_a_piece_reached_through_a_prefix_that_is_no_piece_is_found() -> None:
    # "▁abc" is no piece, only the way to "▁abcd": a walk that stopped at the first
    # missing lookup instead of the first run no piece starts with would miss it
    tokenizer = _tokenizer({"▁abcd": -1.0})
    assert tokenizer.content_ids("abcd") == [PIECES.index("▁abcd")]


def test_the_best_path_wins_over_the_longest_piece() -> None:
    tokenizer = _tokenizer({"▁abcd": -9.0, "▁ab": -1.0, "cd": -1.0})
    assert tokenizer.content_ids("abcd") == [PIECES.index("▁ab"), PIECES.index("cd")]


def test_characters_no_piece_holds_are_unknown_one_each() -> None:
    tokenizer = _tokenizer({})
    ids = tokenizer.content_ids("ab xz")
    assert ids[-2:] == [0, 0]  # "x" and "z"
    assert ids[: ids.index(PIECES.index("▁"))] == [PIECES.index("▁ab")]


def _vocabulary() -> Vocabulary:
    return Vocabulary(
        pieces=PIECES,
        scores=np.array([-5.0] * len(PIECES), dtype=np.float32),
        bos=1,
        eos=2,
        pad=3,
        unk=0,
        normalise={},
    )


def test_the_edges_are_kept_in_the_cache_and_read_a_text_at_a_time(tmp_path: Path) -> None:
    built = Tokenizer(_vocabulary(), tmp_path)
    assert (tmp_path / EDGES_FILE).is_file()
    table = EdgeTable(tmp_path, _never_built)  # a later start: nothing loaded
    lookup = table.lookup("▁abcd")
    assert table._edges is None and table.longest == 5
    assert lookup("▁abc") == -1 and lookup("▁abcd") == PIECES.index("▁abcd")
    assert lookup("zz") is None
    again = Tokenizer(_vocabulary(), tmp_path)
    assert again.content_ids("abcd ab") == built.content_ids("abcd ab")


def test_a_texts_edges_are_the_whole_tables_for_each_of_its_runs(tmp_path: Path) -> None:
    # Read level by level, a run is asked for only when its shorter runs from the same
    # start are edges; every prefix of an edge is one, so the others are None in both.
    whole = piece_edges(_vocabulary())
    EdgeTable(tmp_path, lambda: whole)
    for text in ("▁abcd▁ab", "▁▁abcdcd", "dcba▁abc▁a", "▁ab▁abcd▁abcdx", "x"):
        lookup = EdgeTable(tmp_path, _never_built).lookup(text)
        runs = {text[i:j] for i in range(len(text)) for j in range(i + 1, len(text) + 1)}
        assert {run: lookup(run) for run in runs} == {run: whole.get(run) for run in runs}


def test_bulk_text_loads_the_whole_table_once(tmp_path: Path) -> None:
    EdgeTable(tmp_path, lambda: piece_edges(_vocabulary()))
    table = EdgeTable(tmp_path, _never_built)
    table.lookup("a" * BULK_CHARACTERS)  # still read a text at a time
    assert table._edges is None
    lookup = table.lookup("b")
    assert isinstance(getattr(lookup, "__self__", None), dict)  # a dict's get from now on
    assert lookup("▁abcd") == PIECES.index("▁abcd")


def test_an_unreadable_cache_is_built_again(tmp_path: Path) -> None:
    (tmp_path / EDGES_FILE).write_bytes(b"\x00not sqlite")
    made = []
    table = EdgeTable(tmp_path, lambda: made.append(1) or piece_edges(_vocabulary()))
    assert made == [1] and table.lookup("▁ab")("▁ab") == PIECES.index("▁ab")
    assert EdgeTable(tmp_path, _never_built).lookup("▁ab")("▁ab") == PIECES.index("▁ab")


def test_an_unwritable_cache_only_means_memory(tmp_path: Path) -> None:
    folder = tmp_path / "gone"  # missing: the table cannot be written there
    table = EdgeTable(folder, lambda: piece_edges(_vocabulary()))
    assert table.lookup("cd")("cd") == PIECES.index("cd")


def _never_built() -> dict[str, int]:
    raise AssertionError("the edges were built again")


def test_the_model_files_pieces_are_decoded_only_when_read() -> None:
    vocabulary = read_model_file(PackageModel.installed().path).vocabulary
    pieces = vocabulary.pieces
    assert isinstance(pieces, PieceTable)  # no 250k strings made at start
    listed = list(pieces)
    assert len(listed) == len(pieces) == len(vocabulary.scores)
    assert [pieces[i] for i in (0, 1, 2, -1)] == [listed[0], listed[1], listed[2], listed[-1]]
    assert pieces[vocabulary.bos] == "<s>" and pieces[vocabulary.eos] == "</s>"
    assert list(pieces[5:8]) == listed[5:8]


def test_a_replacements_code_points_read_as_chr_reads_them() -> None:
    # UTF-32 in one call where it can; a lone surrogate (chr takes it) one by one.
    assert _code_points(struct.pack("<3I", 0x61, 0x4E2D, 0x1F600)) == "a中😀"
    assert _code_points(struct.pack("<2I", 0x61, 0xD800)) == "a\ud800"
    assert _code_points(b"") == ""
