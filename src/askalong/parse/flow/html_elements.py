"""What an HTML element is to the walk in ``html``: furniture to drop (scripts, forms,
navigation, banners), a block or inline text, a layout table or a data table, a box whose
headings label it only, a bare wrapper to look through; the kind of the text inside it;
and its visible text (a table row's cells, a caption)."""

from __future__ import annotations

import re

from lxml import etree

from askalong.parse.flow.builder import clean_text
from askalong.types import BlockKind


def _names(words: str) -> frozenset[str]:
    return frozenset(words.split())


_DROP_TAGS = _names(
    "script style noscript template nav form aside iframe object embed canvas svg "
    "button select input textarea audio video map head title meta link"
)
_PAGE_FURNITURE = frozenset({"header", "footer"})
_BLOCK_TAGS = _names(
    "address article aside blockquote body caption center dd details dialog dir div dl "
    "dt fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr html "
    "li main menu nav ol p pre section summary table tbody td tfoot th thead tr ul"
)
_NAV_ROLES = _names("navigation banner contentinfo complementary search menu menubar toolbar")
_NAV_WORDS = re.compile(
    r"^(nav|navbar|navheader|navfooter|navigation|menu|toc|sidebar|breadcrumbs?|"
    r"skip-?link|site-?(header|footer|nav)|social|share|sharing|pagination)$"
    r"|cookie|consent|gdpr|breadcrumb|navbar"
)
# Headings inside these boxes label the box only; the outline resumes after it.
_SCOPING_TAGS = _names("blockquote figure details li td th")
_SCOPING_CLASSES = _names("note tip warning caution important admonition callout")
_WRAPPERS = _names("div section article main span font center")
_MARKED_CLASSES = _SCOPING_CLASSES | {"footnote", "title"}
_CAPTIONED = frozenset({"table", "informaltable", "example", "figure", "equation"})
_KIND_OF_TAG: dict[str, BlockKind] = {
    "li": "list_item",
    "figcaption": "caption",
    "caption": "caption",
    "dd": "paragraph",
    "blockquote": "paragraph",
}


def dropped(el: etree._Element) -> bool:
    """Scripts, forms, navigation and banners: nothing a reader would quote."""
    tag = el.tag
    if not isinstance(tag, str) or tag in _DROP_TAGS:
        return True
    if tag in _PAGE_FURNITURE and next(el.iterancestors("article", "main"), None) is None:
        return True
    role = el.get("role")
    if role and role.lower() in _NAV_ROLES:
        return True
    if el.get("hidden") is not None or el.get("aria-hidden") == "true":
        return True
    return _navigational_name(el.get("class")) or _navigational_name(el.get("id"))


def _navigational_name(value: str | None) -> bool:
    if not value:
        return False
    return any(_NAV_WORDS.search(word) for word in value.lower().split())


def is_block(el: etree._Element) -> bool:
    """Block tags, inline tags wrapping blocks, and multi-line code standing alone."""
    if el.tag in _BLOCK_TAGS:
        return True
    if el.tag == "code" and "\n" in (el.text or ""):
        alone = not (el.getparent().text or "").strip() and not (el.tail or "").strip()
        if alone:
            return True
    return next(el.iterdescendants(*_BLOCK_TAGS), None) is not None


def is_layout_table(el: etree._Element) -> bool:
    """A table holding headings or other tables lays out a page; it is not data."""
    if el.get("role") == "presentation":
        return True
    return next(el.iterdescendants("table", *(f"h{n}" for n in range(1, 7))), None) is not None


def is_scoping_box(el: etree._Element) -> bool:
    """A note, a list item, a cell...: a box whose headings label it and close nothing."""
    return el.tag in _SCOPING_TAGS or bool(_class_words(el) & _SCOPING_CLASSES)


def _class_words(el: etree._Element | None) -> set[str]:
    return set((el.get("class") or "").split()) if el is not None else set()


def unwrap(el: etree._Element) -> etree._Element:
    """Skip chains of bare wrapper divs in a loop: deep div soup must not recurse."""
    while len(el) == 1 and not (el.text or "").strip():
        child = el[0]
        plain = child.tag in _WRAPPERS and not (child.tail or "").strip()
        if not plain or dropped(child) or _class_words(child) & _MARKED_CLASSES:
            break
        el = child
    return el


def child_kind(el: etree._Element, inherited: BlockKind) -> BlockKind:
    """The kind of the inline text inside ``el``: list items stay list items below."""
    titled = el.tag == "p" and "title" in _class_words(el)
    if titled and _class_words(el.getparent()) & _CAPTIONED:
        return "caption"  # DocBook's "Table 9.1. ..." titles
    if "footnote" in _class_words(el):
        return "footnote"
    if inherited in ("list_item", "caption") and el.tag not in _KIND_OF_TAG:
        return inherited
    return _KIND_OF_TAG.get(el.tag, inherited)


def row_text(tr: etree._Element) -> str:
    cells = [clean_text(visible_text(cell)) for cell in tr if cell.tag in ("td", "th")]
    return " | ".join(cells) if any(cells) else ""


def spacer(el: etree._Element) -> str:
    """Line breaks and block boundaries separate words even where the source has no space."""
    return " " if el.tag == "br" or el.tag in _BLOCK_TAGS else ""


def visible_text(el: etree._Element) -> str:
    parts: list[str] = [el.text or ""]
    for child in el:
        if not dropped(child):
            space = spacer(child)
            parts.append(space + visible_text(child) + space)
        parts.append(child.tail or "")
    return "".join(parts)
