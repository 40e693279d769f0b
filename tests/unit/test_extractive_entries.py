"""Where a sentence sits, in the offline answerer: a later sentence of a definition entry
("work_mem (integer) — …. The default value is four megabytes (4MB).") is about the entry's
term though it does not name it, and a reference page's closing "Compatibility" section
does not say what a command does. The texts are the PostgreSQL 15 manual's, verbatim."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from askalong.answer.extractive.cues import entry_term
from askalong.answer.extractive.select import answer_extractively
from askalong.context.units import ContextUnit, places_of
from askalong.text.analysed import analysed
from askalong.types import Block, BlockSpan

MEMORY = (
    "hash_mem_multiplier (floating point) — Used to compute the maximum amount of memory "
    "that hash-based operations can use. The final limit is determined by multiplying "
    "work_mem by hash_mem_multiplier. The default value is 2.0, which makes hash-based "
    "operations use twice the usual work_mem base amount.",
    "work_mem (integer) — Sets the base maximum amount of memory to be used by a query "
    "operation (such as a sort or hash table) before writing to temporary disk files. If "
    "this value is specified without units, it is taken as kilobytes. The default value is "
    "four megabytes (4MB).",
)
REFRESH = (
    ("Description", "REFRESH MATERIALIZED VIEW completely replaces the contents of a "
     "materialized view. To execute this command you must be the owner of the materialized "
     "view. The old contents are discarded."),
    ("Compatibility", "REFRESH MATERIALIZED VIEW is a PostgreSQL extension."),
)  # fmt: skip


def units_in(sections: Sequence[tuple[str, str]]) -> list[ContextUnit]:
    """One block and unit per (section, text), each block under its section."""
    units = []
    for k, (section, text) in enumerate(sections):
        path = ("REFRESH MATERIALIZED VIEW", section)
        block = Block(f"b{k}", "paragraph", text, k, path, page=1)
        span = (BlockSpan(block.id, 0, len(text)),)
        unit = ContextUnit("doc", (), text, span, span, path, 1, 1, "retrieved", 1.0)
        units.append(replace(unit, places=places_of([block])))
    return units


def test_an_entrys_term() -> None:
    assert entry_term(MEMORY[1]) == "work_mem (integer)"
    assert entry_term("The default value is 2.0 — twice work_mem.") == ""
    assert entry_term("No entry here.") == ""


def test_a_later_sentence_of_the_subjects_own_entry_answers_for_it() -> None:
    units = units_in([("20.4.1. Memory", text) for text in MEMORY])
    result = answer_extractively(analysed("What does work_mem default to?"), units)
    assert result.status == "answered"
    assert "four megabytes (4MB)" in result.answer, result.answer


def test_what_a_command_does_is_not_its_compatibility_note() -> None:
    result = answer_extractively(
        analysed("What does REFRESH MATERIALIZED VIEW do?"), units_in(REFRESH)
    )
    assert result.status == "answered"
    assert "completely replaces the contents" in result.answer, result.answer
