"""The contradiction test on real manual text: a changed default, version or negation is
found with the tokens that changed; the same text, a paraphrase with the same values and
an extra sentence are not contradictions."""

from __future__ import annotations

from pathlib import Path

import pytest
from manual_versions import entries_html, paraphrased, plain, with_defaults_changed

from askalong.verify.contradictions import bigram_dice, difference


@pytest.fixture
def entry(evaldata: Path) -> str:
    return plain(entries_html(evaldata, ("GUC-FULL-PAGE-WRITES",)))


def test_a_changed_default_is_a_setting_difference(evaldata: Path) -> None:
    old = plain(entries_html(evaldata))
    new = plain(with_defaults_changed(evaldata))
    assert bigram_dice(old, new) > 0.99
    found = difference(old, new)
    assert found is not None
    assert set(found.kinds) == {"setting", "number"}
    assert found.tokens_a == ("on", "64") and found.tokens_b == ("off", "128")
    start, end = found.span_a
    assert old[start:end].startswith("on") and old[start:end].endswith("64")


def test_a_changed_version_is_a_version_difference(entry: str) -> None:
    old = f"{entry} Available since PostgreSQL 15.2."
    found = difference(old, old.replace("15.2", "15.3"))
    assert found is not None and found.kind == "version"
    assert (found.tokens_a, found.tokens_b) == (("15.2",), ("15.3",))


def test_a_negation_added_is_found(entry: str) -> None:
    negated = entry.replace("does not affect use of", "does affect use of")
    assert negated != entry
    found = difference(entry, negated)
    assert found is not None and found.kind == "negation"
    assert "not" in found.tokens_a


def test_the_same_text_is_no_contradiction(entry: str) -> None:
    assert difference(entry, entry) is None
    assert bigram_dice(entry, entry) == 1.0


def test_a_paraphrase_with_the_same_values_is_no_contradiction(evaldata: Path) -> None:
    old, reworded = plain(entries_html(evaldata)), plain(paraphrased(evaldata))
    assert bigram_dice(old, reworded) > 0.9  # close enough to be compared
    assert difference(old, reworded) is None


def test_values_in_another_order_are_no_contradiction(entry: str) -> None:
    a = f"{entry} The floor is 32kB and the ceiling 16MB."
    b = f"{entry} The ceiling 16MB and the floor is 32kB."
    assert difference(a, b) is None


def test_an_extra_sentence_with_a_number_is_no_contradiction(entry: str) -> None:
    assert difference(entry, f"{entry} Typically 8kB.") is None


def test_numbers_are_compared_as_values(entry: str) -> None:
    a = f"{entry} It allows 1,000 files."
    assert difference(a, f"{entry} It allows 1000 files.") is None
    assert difference(a, f"{entry} It allows 2000 files.") is not None


def test_chinese_negation_and_dates() -> None:
    text = "该参数只能在服务器启动时设置。默认情况下开启该功能，以保证崩溃后能够恢复数据页。"
    found = difference(text, text.replace("默认情况下开启", "默认情况下不开启"))
    assert found is not None and found.kind == "negation" and "不" in found.tokens_b
    dated = "该版本于2022年10月13日发布，包含若干修复，建议所有用户尽快升级到此版本。"
    found = difference(dated, dated.replace("10月13日", "11月10日"))
    assert found is not None and found.kind == "date"


# Near-identical chunks of the PostgreSQL 15 manual that the scan once took for pairs.
NO_PASSWORD = (
    "-w --no-password — {} a password prompt. If the server requires password "
    "authentication and a password is not available by other means such as a .pgpass "
    "file, the connection attempt will fail."
)
VIEW = (
    "37.{}. {} The view {} identifies all privileges granted on tables or views. "
    "Table 37.{}. {} Columns Column Type Description grantor sql_identifier Name of the role"
)


def test_other_words_around_a_negation_are_a_rewording() -> None:
    never = NO_PASSWORD.format("Never issue")
    prevents = NO_PASSWORD.format("Prevents issuing")
    assert difference(never, prevents) is None


def test_section_and_table_numbers_name_things() -> None:
    grants = VIEW.format(37, "role_table_grants", "role_table_grants", 35, "role_table_grants")
    privileges = VIEW.format(53, "table_privileges", "table_privileges", 51, "table_privileges")
    assert difference(grants, privileges, names={"37.37", "37.53"}) is None
    renumbered = grants.replace("37.37.", "37.38.", 1)
    assert difference(grants, renumbered) is not None  # a number, unless it is a heading's
    assert difference(grants, renumbered, names={"37.37", "37.38"}) is None


def test_digits_of_identifiers_and_references_are_names(entry: str) -> None:
    a = f"{entry} The column is int4, template1 is used (see Section 38.16.5)."
    b = f"{entry} The column is int8, template0 is used (see Section 38.16.1)."
    assert difference(a, b) is None
    assert difference(f"{entry} At least 64kB.", f"{entry} At least 32kB.") is not None
