"""The reader's UI strings live in one catalogue per language (static/lib/strings/): both
languages have the same keys and the same {placeholders}, every key the code names exists,
and no page or script writes English for a person outside it (a scan of the string
literals of every script and of the HTML's text and labelling attributes)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from js_strings import literals, looks_english

STATIC = Path(__file__).resolve().parents[2] / "src" / "askalong" / "server" / "static"
STRINGS = STATIC / "lib" / "strings"
LANGUAGES = ("en", "zh-Hans")
ENTRY = re.compile(r'^  "([a-z0-9_.]+)": "((?:[^"\\]|\\.)*)",$')
PLACEHOLDER = re.compile(r"\{(\w+)\}")
# Scripts that are not the reader's own words: generated from Python, vendored, the catalogue.
NOT_SCANNED = ("vendor/", "lib/strings/", "lib/contract.js")
# A developer's error (thrown, never shown as UI text) may be English.
THROWN = "new Error("
LABELLING = ("title", "aria-label", "placeholder", "alt")
BRAND = frozenset({"AskAlong", "随"})


def catalogue(language: str) -> dict[str, str]:
    """The catalogue's entries, one `"key": "value",` line each (a line that is neither an
    entry, a comment, blank nor the module's frame is a format error)."""
    path = STRINGS / f"{language}.js"
    entries: dict[str, str] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        found = ENTRY.match(line)
        if found:
            assert found[1] not in entries, f"{path.name}:{number}: {found[1]} twice"
            entries[found[1]] = found[2]
            continue
        frame = line.startswith(("//", "  //", "export default", "})")) or not line.strip()
        assert frame, f"{path.name}:{number}: not one entry per line: {line!r}"
    return entries


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def scripts() -> list[Path]:
    return sorted(
        p
        for p in STATIC.rglob("*.js")
        if not any(p.relative_to(STATIC).as_posix().startswith(n) for n in NOT_SCANNED)
    )


def test_both_catalogues_have_the_same_keys_and_placeholders() -> None:
    english, chinese = (catalogue(language) for language in LANGUAGES)
    assert sorted(english.keys() - chinese.keys()) == [], "missing in zh-Hans"
    assert sorted(chinese.keys() - english.keys()) == [], "missing in en"
    differ = [k for k in english if placeholders(english[k]) != placeholders(chinese[k])]
    assert differ == [], "placeholders differ"
    words = {k: PLACEHOLDER.sub("", v).replace("AskAlong", "") for k, v in english.items()}
    untranslated = [
        k for k in english if english[k] == chinese[k] and re.search("[a-z]{3}", words[k])
    ]
    assert untranslated == [], "the Chinese is the English"


def test_every_key_the_code_names_is_in_the_catalogue() -> None:
    keys = catalogue("en").keys()
    named = re.compile(r"""\bt[n]?\(\s*"([a-z0-9_.]+)"|data-i18n(?:-[a-z-]+)?="([a-z0-9_.]+)\"""")
    missing = []
    for path in [*scripts(), *sorted(STATIC.glob("*.html"))]:
        for found in named.finditer(path.read_text(encoding="utf-8")):
            key = found[1] or found[2]
            counted = path.suffix == ".js" and f"{key}.one" in keys and f"{key}.other" in keys
            if key not in keys and not counted:
                missing.append(f"{path.relative_to(STATIC)}: {key}")
    assert missing == []


def test_no_script_writes_english_outside_the_catalogue() -> None:
    found = []
    for path in scripts():
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        for line, text in literals(source):
            said = lines[line - 1]
            if looks_english(text) and "i18n-ignore" not in said and THROWN not in said:
                found.append(f"{path.relative_to(STATIC)}:{line}: {text!r}")
    assert found == []


class _Labels(HTMLParser):
    """Text and labelling attributes of a page that carry no data-i18n key."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[dict[str, str | None]] = []
        self.bare: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        given = dict(attrs)
        for name in LABELLING:
            if re.search("[A-Za-z]{2}", given.get(name) or "") and f"data-i18n-{name}" not in given:
                self.bare.append(f"<{tag} {name}={given[name]!r}>")
        if tag not in {"meta", "link", "input", "br", "img"}:
            self.open.append(given)

    def handle_endtag(self, tag: str) -> None:
        if self.open:
            self.open.pop()

    def handle_data(self, data: str) -> None:
        text = data.strip()
        keyed = bool(self.open) and "data-i18n" in self.open[-1]
        if text and text not in BRAND and re.search("[A-Za-z]{2}", text) and not keyed:
            self.bare.append(text)


@pytest.mark.parametrize("page", sorted(p.name for p in STATIC.glob("*.html")))
def test_no_page_writes_english_outside_the_catalogue(page: str) -> None:
    labels = _Labels()
    labels.feed((STATIC / page).read_text(encoding="utf-8"))
    assert labels.bare == []


def test_the_scan_sees_english() -> None:
    """The scan itself: it finds a label, a sentence and a lowercase phrase, and passes
    class names, selectors, key names and regular expressions."""
    source = (
        'el("b", {}, "Copy"); x = `Read ${n} passages`; y = "the whole document";\n'
        'el("p", { class: "muted pad" }, z); q(".panel .tab"); k = ["Shift+ArrowDown"];\n'
        "r = /^cites no source$/; // Not this comment\n"
    )
    english = [text for _, text in literals(source) if looks_english(text)]
    assert english == ["Copy", "Read ", "the whole document"]
