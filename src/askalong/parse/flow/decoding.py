"""Bytes of a text format (plain text, Markdown, HTML) to ``str``, and how sure we are.

Certain, in this order: a byte-order mark, strict UTF-8 (for HTML a declared charset comes
first, ``decode_html``). Then rules for the legacy encodings people actually have,
each accepted only when the decoded text looks like its language:

- Japanese (Shift-JIS as cp932, then EUC-JP): the decoded text has kana. Japanese prose is
  full of hiragana, and neither Chinese bytes read as Japanese nor Japanese bytes read as
  GB18030 (the kanji bytes land on other Han characters) give that mix;
- GB18030 (a superset of GBK and GB2312, with the four-byte forms that carry Ext-B
  characters): the non-ASCII characters are at least 80% Han;
- Western European (cp1252, which contains Latin-1's printable characters): every
  non-ASCII character is a Latin-1 letter or common punctuation, and they are a minority
  of the letters (accents, not a whole script). charset-normalizer
  would often pick a Baltic or Central European code page for French or German, whose
  letters differ exactly where the accents are.

Failing those, charset-normalizer's best guess is taken and a notice says that it was a
guess, so the document shows a warning instead of silent mojibake.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

import charset_normalizer

from askalong.errors import CorruptDocument
from askalong.text.scripts import HAN

_BOMS: tuple[tuple[bytes, str], ...] = (
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f\ufffd]")
_HAN_CHAR = re.compile(f"[{HAN}\u3000-\u303f\uff01-\uff5e]")  # with CJK punctuation
_KANA = re.compile("[\u3040-\u30ff]")
_WESTERN = re.compile(
    "[\u00a0-\u00ff\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u2013-\u2026\u20ac]"
)
_JAPANESE_CODECS = ("cp932", "euc_jp")
MIN_KANA_SHARE = 0.1
MIN_HAN_SHARE = 0.8
MAX_WESTERN_SHARE = 0.3  # French runs at ~5% accented letters, Portuguese at ~10%


@dataclass(frozen=True)
class Decoded:
    text: str
    encoding: str
    guessed: bool = False  # charset-normalizer's guess, confirmed by no rule

    @property
    def notices(self) -> tuple[str, ...]:
        if not self.guessed:
            return ()
        return (
            f"the text's encoding was guessed as {self.encoding} (no byte-order mark, not "
            "UTF-8, no declared charset): some characters may be shown wrongly",
        )


def decode(data: bytes, *, source: str) -> Decoded:
    """Bytes of a text format -> text, or ``CorruptDocument`` when it is not text."""
    decoded = _decode(data)
    if decoded is None or _looks_binary(decoded.text):
        raise CorruptDocument("cannot decode the text (unknown encoding or binary)", source=source)
    return decoded


def _decode(data: bytes) -> Decoded | None:
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return _strict(data[len(bom) :], encoding)
    for rule in (_utf8, _japanese, _gb18030, _western):
        decoded = rule(data)
        if decoded is not None:
            return decoded
    return _guess(data)


def _strict(data: bytes, encoding: str) -> Decoded | None:
    try:
        return Decoded(data.decode(encoding), encoding)
    except (UnicodeDecodeError, LookupError):
        return None


def _utf8(data: bytes) -> Decoded | None:
    return _strict(data, "utf-8")


def _wide(text: str) -> list[str]:
    return [char for char in text if ord(char) > 0x7F]


def _japanese(data: bytes) -> Decoded | None:
    for codec in _JAPANESE_CODECS:
        decoded = _strict(data, codec)
        if decoded is None:
            continue
        wide = _wide(decoded.text)
        kana = sum(1 for char in wide if _KANA.match(char))
        if wide and kana >= MIN_KANA_SHARE * len(wide):
            return decoded
    return None


def _gb18030(data: bytes) -> Decoded | None:
    """GB18030 decodes many byte strings; accept it only when the result is mostly Han."""
    decoded = _strict(data, "gb18030")
    if decoded is None:
        return None
    wide = _wide(decoded.text)
    han = sum(1 for char in wide if _HAN_CHAR.match(char))
    return decoded if wide and han >= MIN_HAN_SHARE * len(wide) else None


def _western(data: bytes) -> Decoded | None:
    """cp1252 when every non-ASCII character is Western and they are few among the letters:
    Cyrillic or Big5 bytes read as cp1252 are Latin-1 letters too, but nearly all of them."""
    decoded = _strict(data, "cp1252")
    if decoded is None:
        return None
    wide = _wide(decoded.text)
    letters = sum(1 for char in decoded.text if char.isalpha())
    if len(wide) > MAX_WESTERN_SHARE * letters:
        return None
    return decoded if all(_WESTERN.match(char) for char in wide) else None


def _guess(data: bytes) -> Decoded | None:
    best = charset_normalizer.from_bytes(data).best()
    if best is None:
        return None
    return Decoded(str(best), best.encoding, guessed=True)


def _looks_binary(text: str) -> bool:
    sample = text[:65536]
    return len(_CONTROL.findall(sample)) > max(1, len(sample) // 200)


# --- HTML: a declared charset before the guesses ------------------------------------

_META_CHARSET = re.compile(rb"""<meta[^<>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.I)
_XML_ENCODING = re.compile(rb"""^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9_.:-]+)""", re.I)
# Browsers read these labels as the wider encodings that contain them.
_WIDER = {"gb2312": "gb18030", "gbk": "gb18030", "latin-1": "cp1252", "ascii": "cp1252"}


def decode_html(data: bytes, *, source: str) -> Decoded:
    """Decode by byte-order mark, then the declared charset, then by guessing."""
    declared = _declared_codec(data[:4096])
    if declared and not data.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")):
        try:
            return Decoded(data.decode(declared), declared)
        except UnicodeDecodeError:
            pass  # a wrong declaration: guess instead
    return decode(data, source=source)


def _declared_codec(head: bytes) -> str | None:
    match = _META_CHARSET.search(head) or _XML_ENCODING.search(head)
    if not match:
        return None
    try:
        name = codecs.lookup(match.group(1).decode("ascii")).name
    except LookupError:
        return None
    if name.startswith("utf-16") or name.startswith("utf-32"):
        return None  # an ASCII-compatible file cannot really be UTF-16
    return _WIDER.get(name, name)
