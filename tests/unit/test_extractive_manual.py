"""The offline answerer on a manual's reference pages (PostgreSQL 15's own sentences): the
Description's first sentence answers "what does X do", and pointers, compatibility notes,
lists of names and table rows never answer; Chinese answers keep a space before a Latin
word."""

from __future__ import annotations

from collections.abc import Sequence

from askalong.answer.extractive.boilerplate import never_answers
from askalong.answer.extractive.select import ExtractiveResult, answer_extractively
from askalong.context.units import ContextUnit, places_of
from askalong.question.reading import read_question
from askalong.types import CHUNK_JOINER, Block, BlockKind, BlockSpan

Section = tuple[tuple[str, ...], Sequence[tuple[BlockKind, str]]]

ROLLBACK_PAGE: list[Section] = [
    (
        ("ROLLBACK",),
        [("heading", "ROLLBACK"), ("paragraph", "ROLLBACK — abort the current transaction")],
    ),
    (
        ("Description",),
        [
            ("heading", "Description"),
            (
                "paragraph",
                "ROLLBACK rolls back the current transaction and causes all the updates made "
                "by the transaction to be discarded.",
            ),
        ],
    ),
    (
        ("Notes",),
        [
            ("heading", "Notes"),
            (
                "paragraph",
                "Use COMMIT to successfully terminate a transaction. Issuing ROLLBACK outside "
                "of a transaction block emits a warning and otherwise has no effect.",
            ),
        ],
    ),
    (
        ("Compatibility",),
        [
            ("heading", "Compatibility"),
            (
                "paragraph",
                "The command ROLLBACK conforms to the SQL standard. The form ROLLBACK "
                "TRANSACTION is a PostgreSQL extension.",
            ),
        ],
    ),
    (
        ("See Also",),
        [("heading", "See Also"), ("paragraph", "BEGIN, COMMIT, ROLLBACK TO SAVEPOINT")],
    ),
]

GLOSSARY: list[Section] = [
    (
        ("Appendix M. Glossary", "Rollback"),
        [
            (
                "paragraph",
                "Rollback — A command to undo all of the operations performed since the "
                "beginning of a transaction.",
            ),
            ("paragraph", "For more information, see ROLLBACK."),
        ],
    )
]

# The rest of the manual: what makes the question's words rare or common.
OTHER: list[Section] = [
    (
        ("13.2. Transaction Isolation",),
        [
            (
                "paragraph",
                "The SQL standard defines four levels of transaction isolation. "
                "Read Committed is the default isolation level in PostgreSQL.",
            )
        ],
    )
]


def units_of(sections: Sequence[Section], doc: str = "manual") -> list[ContextUnit]:
    """One retrieved unit per section, its blocks of the kinds given."""
    units = []
    for k, (path, blocks) in enumerate(sections):
        made = [
            Block(f"{doc}-{k}-{i}", kind, text, i, path, page=1)
            for i, (kind, text) in enumerate(blocks)
        ]
        text = CHUNK_JOINER.join(b.text for b in made)
        spans = tuple(BlockSpan(b.id, 0, len(b.text)) for b in made)
        unit = ContextUnit(doc, (), text, spans, spans, path, 1, 1, "retrieved", 1.0)
        units.append(ContextUnit(**{**unit.__dict__, "places": places_of(made)}))
    return units


def ask(question: str, *pages: Sequence[Section]) -> ExtractiveResult:
    units = [u for n, page in enumerate(pages) for u in units_of(page, f"doc{n}")]
    return answer_extractively(read_question(question), [*units, *units_of(OTHER, "other")])


def row_security(*paragraphs: str) -> list[Section]:
    """Section 5.8's paragraphs given."""
    return [(("5.8. Row Security Policies",), [("paragraph", p) for p in paragraphs])]


def test_what_a_command_is_for_is_its_description_not_its_compatibility() -> None:
    result = ask("What is ROLLBACK for?", ROLLBACK_PAGE, GLOSSARY)
    assert result.status == "answered"
    assert "ROLLBACK rolls back the current transaction" in result.answer
    for aside in ("For more information", "PostgreSQL extension", "conforms", "BEGIN, COMMIT"):
        assert aside not in result.answer


def test_a_question_about_the_standard_may_quote_the_compatibility_section() -> None:
    result = ask("Does ROLLBACK conform to the SQL standard?", ROLLBACK_PAGE)
    assert "conforms to the SQL standard" in result.answer


def test_pointers_notes_and_cells_are_never_answers() -> None:
    none: frozenset[str] = frozenset()
    for text in (
        "For more information, see ROLLBACK.",
        "See Section 13.2.",
        "REFRESH MATERIALIZED VIEW is a PostgreSQL extension.",
        "The DISTINCT ON clause is not part of the SQL standard and is sometimes considered "
        "bad style because of the potentially indeterminate nature of its results.",
        "CREATE EXTENSION, ALTER EXTENSION",
        "bit_minmax_ops | = (bit,bit)",
    ):
        assert never_answers(text, (), none), text
    assert never_answers(
        "The command ROLLBACK conforms to the SQL standard.", ("Compatibility",), none
    )
    for text in (
        "VACUUM reclaims storage occupied by dead tuples.",
        "The default is typically 128 megabytes (128MB), but might be less if your kernel "
        "settings will not support it (as determined during initdb).",
        "Seeing the plan, EXPLAIN shows the estimated cost.",
    ):
        assert not never_answers(text, ("Description",), none), text


def test_a_list_of_names_is_not_an_answer_but_a_table_row_holding_a_value_is() -> None:
    extension: list[Section] = [
        (
            ("CREATE EXTENSION",),
            [
                ("heading", "CREATE EXTENSION"),
                ("paragraph", "CREATE EXTENSION — install an extension"),
            ],
        ),
        (
            ("Description",),
            [
                ("heading", "Description"),
                ("paragraph", "CREATE EXTENSION loads a new extension into the current database."),
            ],
        ),
        (("See Also",), [("paragraph", "CREATE EXTENSION, ALTER EXTENSION, DROP EXTENSION")]),
    ]
    result = ask("What does CREATE EXTENSION do?", extension)
    assert "loads a new extension into the current database" in result.answer
    assert "ALTER EXTENSION" not in result.answer
    limits: list[Section] = [
        (
            ("Appendix K. PostgreSQL Limits",),
            [
                ("table", "max columns per table | 1600 | further limited by tuple size"),
                (
                    "paragraph",
                    "The maximum number of columns for a table is further reduced as the "
                    "tuple being stored must fit in a single 8192-byte heap page.",
                ),
            ],
        )
    ]
    assert "1600" in ask("How many columns can a table have at most?", limits).answer


def test_an_entry_holding_part_of_the_subject_is_not_the_subject() -> None:
    policies: list[Section] = [
        (
            ("Per-Command Policies", "UPDATE"),
            [
                (
                    "paragraph",
                    "UPDATE — Using UPDATE for a policy means that it will apply to UPDATE, "
                    "SELECT FOR UPDATE, and SELECT FOR SHARE commands.",
                )
            ],
        )
    ]
    locking: list[Section] = [
        (
            ("The Locking Clause",),
            [
                (
                    "paragraph",
                    "FOR UPDATE causes the rows retrieved by the SELECT statement to be "
                    "locked as though for update.",
                )
            ],
        )
    ]
    result = ask("What does SELECT FOR UPDATE do?", policies, locking)
    assert result.answer.startswith("FOR UPDATE causes the rows retrieved")
    assert "Using UPDATE for a policy" not in result.answer


def test_a_chinese_answer_keeps_a_space_before_a_latin_sentence() -> None:
    page: list[Section] = [
        (
            ("pg_dump",),
            [
                ("heading", "pg_dump"),
                (
                    "paragraph",
                    "pg_dump — extract a PostgreSQL database into a script file or other "
                    "archive file",
                ),
            ],
        ),
        (
            ("Description",),
            [
                ("heading", "Description"),
                ("paragraph", "pg_dump is a utility for backing up a PostgreSQL database."),
            ],
        ),
    ]
    result = ask("pg_dump 是做什么的？", page)
    assert result.status == "answered"
    assert "]pg_dump" not in result.answer
    assert "pg_dump is a utility" in result.answer


def test_a_sentence_does_not_end_inside_brackets() -> None:
    page = row_security(
        "When row security is enabled on a table (with ALTER TABLE ... ENABLE ROW LEVEL "
        "SECURITY), all normal access to the table for selecting rows or modifying rows must "
        "be allowed by a row security policy. However, the table owner is typically not "
        "subject to row security policies."
    )
    result = ask("What happens when row security is enabled on a table?", page)
    assert "(with ALTER TABLE ... ENABLE ROW LEVEL SECURITY), all normal access" in result.answer
    assert result.quotes[0].text.endswith("must be allowed by a row security policy.")


# Two settings' entries of 20.4.1: wal_buffers' text names shared_buffers and its default
WAL_BUFFERS = (
    "The amount of shared memory used for WAL data that has not yet been written to disk. "
    "The default setting of -1 selects a size equal to 1/32nd (about 3%) of shared_buffers, "
    "but not less than 64kB nor more than the size of one WAL segment, typically 16MB."
)
SHARED_BUFFERS = (
    "Sets the amount of memory the database server uses for shared memory buffers. The "
    "default is typically 128 megabytes (128MB), but might be less if your kernel settings "
    "will not support it."
)


def test_a_setting_is_answered_from_its_own_entry_not_one_that_mentions_it() -> None:
    settings: list[Section] = [
        (("20.4.1. Memory", "wal_buffers (integer)"), [("paragraph", WAL_BUFFERS)]),
        (("20.4.1. Memory", "shared_buffers (integer)"), [("paragraph", SHARED_BUFFERS)]),
    ]
    result = ask("What is the default value of shared_buffers?", settings)
    assert result.answer.startswith("The default is typically 128 megabytes")


def test_a_block_s_head_line_is_the_context_of_its_sentences() -> None:
    """A knowledge-base note filing each setting under a first line of its own."""
    notes: list[Section] = [
        (
            ("Team notes: memory settings",),
            [
                ("paragraph", f"wal_buffers (integer)\n{WAL_BUFFERS}"),
                ("paragraph", f"shared_buffers (integer)\n{SHARED_BUFFERS}"),
            ],
        )
    ]
    result = ask("What is the default value of shared_buffers?", notes)
    assert result.answer.startswith("The default is typically 128 megabytes")


def test_a_sentence_leaning_back_is_quoted_with_the_one_it_points_to() -> None:
    page = row_security(
        "In addition to the SQL-standard privilege system available through GRANT, tables can "
        "have row security policies that restrict, on a per-user basis, which rows can be "
        "returned by normal queries or inserted, updated, or deleted by data modification "
        "commands. This feature is also known as Row-Level Security.",
        "Row security policies can be specific to commands, or to roles, or to both.",
    )
    result = ask("What is row security?", page)
    assert result.answer.startswith("In addition to the SQL-standard privilege system")
    assert "This feature is also known as Row-Level Security." in result.answer
