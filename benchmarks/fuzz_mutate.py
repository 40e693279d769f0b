"""The parser fuzz's mutations: one case's bytes from its format, run seed and number.

``case_bytes(seeds, fmt, seed, number)`` is a pure function of its arguments (its random
generator is seeded with all three), so any case is made again from the three numbers a
report names. A case is a seed file of the format with one to three mutations applied:

- any format: bytes flipped, a cut, a slice repeated, a splice of another seed (of any
  format), a huge line, invalid encoding (stray UTF-8 continuation bytes, a lone
  surrogate's bytes, the text re-encoded as UTF-16 / GB18030 / Shift-JIS / cp1252),
  hostile prefix runs (the ``<!---->`` of issue 11, item 1);
- HTML: tag soup (unclosed, misnested and unknown tags, wrong ``charset`` declarations)
  and deep nesting (``div``, ``li``, ``table``, ``blockquote``, ``dl``);
- Markdown: nested quotes and lists, unclosed fences, wide tables, front matter;
- PDF: numbers in the page's objects and content stream changed (sizes, positions,
  rotation, counts), operators repeated or dropped;
- DOCX: the ZIP opened and an entry edited (document.xml mutated, nested, a style made
  to loop, an entry dropped or duplicated), then written again.
"""

from __future__ import annotations

import io
import random
import re
import warnings
import zipfile
from collections.abc import Callable, Sequence

MAX_CASE = 2**19  # bytes: a case is cut to this (detection's cases: DETECT_CASE)
DETECT_CASE = 4 * 2**20  # detection reads little of a file: large cases test its linearity
Seeds = dict[str, tuple[bytes, ...]]
Mutation = Callable[[bytes, random.Random, Seeds], bytes]


def case_bytes(seeds: Seeds, fmt: str, seed: int, number: int) -> bytes:
    """Case ``number`` of format ``fmt`` in the run seeded ``seed``."""
    rng = random.Random(f"{seed}/{fmt}/{number}")
    data = rng.choice(seeds[fmt])
    mutations = GENERIC + SPECIFIC.get(fmt, ())
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        data = rng.choice(mutations)(data, rng, seeds) or data  # never empty
    return data[: DETECT_CASE if fmt == "detect" else MAX_CASE]


# --- any format ------------------------------------------------------------------------


def flip(data: bytes, rng: random.Random, seeds: Seeds) -> bytes:
    out = bytearray(data)
    for _ in range(rng.choice((1, 4, 20, 200))):
        out[rng.randrange(len(out))] = rng.randrange(256)
    return bytes(out)


def cut(data: bytes, rng: random.Random, seeds: Seeds) -> bytes:
    start = rng.randrange(len(data)) if rng.random() < 0.3 else 0
    return data[start : rng.randrange(start + 1, len(data) + 1)]


# Sizes: mostly small, so cases stay fast; the large ones a few cases in a hundred.
REPEATS = (2, 2, 2, 2, 50, 50, 50, 500, 500, 5000)


def repeat(data: bytes, rng: random.Random, seeds: Seeds) -> bytes:
    start = rng.randrange(len(data))
    piece = data[start : start + rng.choice((1, 8, 64, 512))]
    return data[:start] + piece * rng.choice(REPEATS) + data[start:]


def splice(data: bytes, rng: random.Random, seeds: Seeds) -> bytes:
    other = rng.choice(rng.choice(list(seeds.values())))
    at, there = rng.randrange(len(data) + 1), rng.randrange(len(other) + 1)
    return data[:at] + other[there : there + rng.randint(1, 20_000)] + data[at:]


HUGE = (1000, 1000, 1000, 10_000, 10_000, 10_000, 100_000, 300_000)  # characters


def huge_line(data: bytes, rng: random.Random, seeds: Seeds) -> bytes:
    unit = rng.choice((b"a", b"word ", "中文".encode(), b"<b>", b"|", b"-", b"*", b"\t"))
    at = rng.randrange(len(data) + 1)
    return data[:at] + unit * (rng.choice(HUGE) // len(unit)) + data[at:]


ENCODINGS = ("utf-16", "utf-16-le", "utf-16-be", "gb18030", "shift_jis", "cp1252", "utf-32")


def bad_encoding(data: bytes, rng: random.Random, seeds: Seeds) -> bytes:
    if rng.random() < 0.5:
        text = data.decode("utf-8", "replace")
        return text.encode(rng.choice(ENCODINGS), "replace")
    junk = rng.choice((b"\x80", b"\xbf\xbf", b"\xed\xa0\x80", b"\xc3", b"\xff\xfe", b"\x00"))
    out = bytearray(data)
    for _ in range(rng.choice((1, 10, 100))):
        at = rng.randrange(len(out) + 1)
        out[at:at] = junk
    return bytes(out)


PREFIXES = (b"<!---->", b"<!--", b" ", b"#", b"|", b"-", b"=", b"<p", b"\n", b"\xef\xbb\xbf")


def prefix(data: bytes, rng: random.Random, seeds: Seeds) -> bytes:
    return rng.choice(PREFIXES) * rng.choice((1, 40, 4000)) + data


GENERIC: tuple[Mutation, ...] = (flip, cut, repeat, splice, huge_line, bad_encoding, prefix)


# --- HTML and Markdown -----------------------------------------------------------------

TAGS = (
    "div", "p", "span", "li", "ul", "ol", "table", "tr", "td", "th", "caption", "pre", "code",
    "h1", "h3", "h6", "dl", "dt", "dd", "blockquote", "br", "br", "hr", "header", "footer",
    "nav", "script", "style", "figure", "figcaption", "details", "summary", "article",
    "a", "b", "font", "center", "svg", "math", "template", "frameset", "xmp", "plaintext",
)  # fmt: skip
ATTRIBUTES = (
    "", ' class="note"', ' class="footnote"', ' class="title"', ' role="navigation"',
    ' hidden', ' aria-hidden="true"', ' id="toc"', ' class="table"', ' role="presentation"',
)  # fmt: skip


def _tag(rng: random.Random) -> bytes:
    name = rng.choice(TAGS)
    kind = rng.randrange(4)
    if kind == 0:
        return f"</{name}>".encode()
    if kind == 1:
        return f"<{name}{rng.choice(ATTRIBUTES)}".encode()  # never closed
    return f"<{name}{rng.choice(ATTRIBUTES)}>".encode()


def tag_soup(data: bytes, rng: random.Random, seeds: Seeds) -> bytes:
    out = bytearray(data)
    for _ in range(rng.choice((1, 10, 100, 1000))):
        at = rng.randrange(len(out) + 1)
        out[at:at] = _tag(rng) + (b"text" if rng.random() < 0.3 else b"")
    return bytes(out)


NESTS = (
    (b"<div>", b"</div>"), (b"<li>", b""), (b"<table><tr><td>", b"</td></tr></table>"),
    (b"<blockquote>", b"</blockquote>"), (b"<dl><dt>t</dt><dd>", b"</dd></dl>"),
    (b"<span>", b"</span>"), (b"<div class=note>", b""), (b"<b><i>", b"</i></b>"),
    (b"> ", b""), (b"- ", b""), (b"  * ", b""), (b"1. ", b""), (b"[", b"](x)"),
)  # fmt: skip


def nest(data: bytes, rng: random.Random, seeds: Seeds) -> bytes:
    opening, closing = rng.choice(NESTS)
    depth = rng.choice((20, 20, 50, 50, 300, 300, 3000, 10_000))
    at = rng.randrange(len(data) + 1)
    return data[:at] + opening * depth + b"deep" + closing * depth + data[at:]


CHARSETS = (b"utf-16", b"gb2312", b"shift_jis", b"x-unknown", b"utf-32", b"latin-1", b"")


def charset(data: bytes, rng: random.Random, seeds: Seeds) -> bytes:
    label = rng.choice(CHARSETS)
    declaration = rng.choice((b'<meta charset="%s">', b'<?xml version="1.0" encoding="%s"?>'))
    return declaration % label + data


MARKDOWN = (
    b"```", b"~~~", b"\n---\n", b"+++\n", b"| a | b |\n|---|---|\n", b"|" * 200 + b"\n",
    b"\n# ", b"\n###### ", b"\n====\n", b"\n----\n", b"<div>", b"[x]: /url\n", b"\n    code",
    b"\\", b"*", b"_", b"`", b"<!--", b"&#0;", b"&#xD800;", b"\n\n", b"\t",
)  # fmt: skip


def markdown_syntax(data: bytes, rng: random.Random, seeds: Seeds) -> bytes:
    out = bytearray(data)
    for _ in range(rng.choice((1, 10, 200))):
        at = rng.randrange(len(out) + 1)
        out[at:at] = rng.choice(MARKDOWN)
    return bytes(out)


# --- PDF -------------------------------------------------------------------------------

_NUMBER = re.compile(rb"-?\d+(?:\.\d+)?")
ODD_NUMBERS = (b"0", b"-1", b"1e9", b"99999999", b"0.0001", b"-0", b"90", b"45", b"nan", b"2")
OPERATORS = (b" Tj", b" Td", b" Tf", b" TJ", b" BT", b" ET", b" q", b" Q", b" cm", b" re f")


def pdf_numbers(data: bytes, rng: random.Random, seeds: Seeds) -> bytes:
    """Change some numbers: a font size, a position, a MediaBox side, a /Rotate, a length."""
    spans = [m.span() for m in _NUMBER.finditer(data, 0, 200_000)]
    if not spans:
        return data
    out = bytearray(data)
    for start, end in sorted(rng.sample(spans, min(len(spans), rng.choice((1, 5, 50)))))[::-1]:
        out[start:end] = rng.choice(ODD_NUMBERS)
    return bytes(out)


def pdf_operators(data: bytes, rng: random.Random, seeds: Seeds) -> bytes:
    out = bytearray(data)
    for _ in range(rng.choice((1, 20, 500))):
        at = rng.randrange(len(out) + 1)
        out[at:at] = rng.choice(OPERATORS) if rng.random() < 0.7 else b" /Rotate 90"
    return bytes(out)


# --- DOCX ------------------------------------------------------------------------------

DOCX_FRAGMENTS = (
    b"<w:p><w:pPr><w:outlineLvl w:val=\"99999\"/></w:pPr><w:r><w:t>x</w:t></w:r></w:p>",
    b"<w:p><w:pPr><w:pStyle w:val=\"Heading7\"/><w:numPr/></w:pPr></w:p>",
    b"<w:tbl><w:tr><w:tc><w:tcPr><w:gridSpan w:val=\"-3\"/></w:tcPr></w:tc></w:tr></w:tbl>",
    b"<w:tbl><w:tr></w:tr></w:tbl>", b"<w:tbl/>", b"<w:sdt><w:sdtContent>", b"</w:sdtContent>",
    b"<w:tbl><w:tr><w:tc><w:tcPr><w:vMerge/></w:tcPr><w:p/></w:tc></w:tr></w:tbl>",
    b"<w:p><w:r><w:t xml:space=\"preserve\">\xe4\xb8\xad</w:t></w:r></w:p>", b"<w:body>",
)  # fmt: skip
STYLE_LOOP = (
    b'<w:style w:type="paragraph" w:styleId="A"><w:name w:val="A"/><w:basedOn w:val="B"/>'
    b'</w:style><w:style w:type="paragraph" w:styleId="B"><w:name w:val="B"/>'
    b'<w:basedOn w:val="A"/></w:style>'
)


def docx_entries(data: bytes, rng: random.Random, seeds: Seeds) -> bytes:
    """Open the ZIP, edit an entry, write it again (a damaged ZIP: flip bytes instead)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            entries = [(info.filename, archive.read(info)) for info in archive.infolist()]
    except Exception:  # zipfile raises zlib, key, value and runtime errors on damage
        return flip(data, rng, seeds)
    entries = _edited(entries, rng, seeds)
    buffer = io.BytesIO()
    with (
        warnings.catch_warnings(),  # an entry twice is the point: zipfile warns of it
        zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive,
    ):
        warnings.simplefilter("ignore")
        for name, body in entries:
            archive.writestr(name, body)
    return buffer.getvalue()


def _edited(
    entries: list[tuple[str, bytes]], rng: random.Random, seeds: Seeds
) -> list[tuple[str, bytes]]:
    kind = rng.randrange(5)
    index = rng.randrange(len(entries))
    name, body = entries[index]
    if kind == 0:
        return entries[:index] + entries[index + 1 :]  # an entry dropped
    if kind == 1:
        return [*entries, (name, body)]  # an entry twice
    if kind == 2:
        edit: Sequence[Mutation] = (flip, cut, repeat, nest, tag_soup, bad_encoding, huge_line)
        entries[index] = (name, rng.choice(edit)(body, rng, seeds) or body)
        return entries
    target = "word/styles.xml" if kind == 3 else "word/document.xml"
    return [(n, _inserted(n, b, target, rng)) for n, b in entries]


def _inserted(name: str, body: bytes, target: str, rng: random.Random) -> bytes:
    if name != target:
        return body
    if target == "word/styles.xml":
        return body.replace(b"</w:styles>", STYLE_LOOP + b"</w:styles>")
    at = body.find(b"<w:body>")
    at = rng.randrange(at + 8, len(body)) if at >= 0 else rng.randrange(len(body) + 1)
    fragment = rng.choice(DOCX_FRAGMENTS) * rng.choice((1, 10, 1000))
    return body[:at] + fragment + body[at:]


SPECIFIC: dict[str, tuple[Mutation, ...]] = {
    "html": (tag_soup, tag_soup, nest, nest, charset),
    "markdown": (markdown_syntax, markdown_syntax, nest, tag_soup),
    "text": (markdown_syntax, nest),
    "pdf": (pdf_numbers, pdf_numbers, pdf_operators),
    "docx": (docx_entries,) * 6,
    "detect": (tag_soup, nest, markdown_syntax, charset, docx_entries, pdf_numbers),
}
