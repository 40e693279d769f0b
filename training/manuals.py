"""Self-supervised English pairs from documents the scorer is never measured on: the
PostgreSQL 15 HTML manual (``$ASKALONG_EVALDATA/manuals/postgresql-15-html``) and the
docstrings of Python's standard library on this machine.

Each yields ``(Paragraph, [(question, {gold sentence})])`` like ``prepare.SOURCES``:

- a heading → its section's first sentence (the question is the heading's words);
- a term (a setting, an option, a function) → its definition, the first sentence of its
  entry ("What is shared_buffers?", "What does json.dumps do?");
- "what is the default of X" → the sentence of X's entry that states the default (it
  holds a value: a digit or a literal); the definition, in the same paragraph, is then the
  hard negative, as are the other sentences naming X without its value.

Templates are chosen by a seeded generator, so every run makes the same pairs.
"""

from __future__ import annotations

import html
import importlib
import inspect
import random
import re
from collections.abc import Iterator
from typing import Any

from prepare import EVALDATA, Paragraph, sentence_spans

SEED = 32
PG_MANUAL = EVALDATA / "manuals" / "postgresql-15-html"
BLOCK = re.compile(r"<(h[1-4])[^>]*>(.*?)</h[1-4]>|<(dt)[^>]*>(.*?)</dt>|<(p)>(.*?)</p>", re.DOTALL)
TAG = re.compile(r"<[^>]+>")
NUMBERING = re.compile(r"^[\dA-Z]+(\.\d+)*\.\s+")
DEFAULT = re.compile(r"\bdefaults?\b", re.IGNORECASE)
VALUE = re.compile(r"\d|\b(on|off|true|false|none|empty)\b", re.IGNORECASE)
ASK_DEFINITION = ("What is {t}?", "What does {t} do?", "{t}", "What is {t} for?")
ASK_DEFAULT = (
    "What is the default of {t}?",
    "What is the default value of {t}?",
    "What does {t} default to?",
    "{t} default value",
)
MIN_SENTENCES = 2  # an entry of one sentence gives no choice to learn from


def _text(fragment: str) -> str:
    return " ".join(html.unescape(TAG.sub("", fragment)).split())


def _sentences(text: str) -> list[str]:
    return [text[a:b].strip() for a, b in sentence_spans(text)]


def _blocks(page: str) -> Iterator[tuple[str, str]]:
    """("heading" | "term" | "p", text) in reading order."""
    for m in BLOCK.finditer(page):
        if m.group(1):
            yield "heading", NUMBERING.sub("", _text(m.group(2)))
        elif m.group(3):
            yield "term", _text(m.group(4))
        else:
            yield "p", _text(m.group(6))


def _term(text: str) -> str:
    """A term as a reader names it: ``shared_buffers (integer)`` → ``shared_buffers``."""
    return re.sub(r"\s*\([^)]*\)$", "", text).strip()


def pg_manual() -> Iterator[tuple[Paragraph, list]]:
    """Every paragraph of the manual, with the questions its heading or term asks."""
    rng = random.Random(SEED)
    for path in sorted(PG_MANUAL.glob("*.html")):
        page = path.read_text(encoding="utf-8", errors="replace")
        yield from _page_pairs(path.stem, page, rng)


def _page_pairs(article: str, page: str, rng: random.Random) -> Iterator[tuple[Paragraph, list]]:
    heading, term, first = "", "", True  # first: the next paragraph opens the entry
    for kind, text in _blocks(page):
        if kind != "p":
            heading, term = (text, "") if kind == "heading" else (heading, _term(text))
            first = True
            continue
        sentences = _sentences(text)
        if not sentences:
            continue
        asked = _asked(term or heading, bool(term), sentences, first, rng)
        first = False
        yield Paragraph("pgdocs", article, sentences), asked


def _asked(
    name: str, is_term: bool, sentences: list[str], first: bool, rng: random.Random
) -> list[tuple[str, set[int]]]:
    """The definition question of an entry's first paragraph, the default question of
    any paragraph stating its default with a value."""
    asked: list[tuple[str, set[int]]] = []
    if len(sentences) < MIN_SENTENCES or not name or len(name) > 60:
        return asked
    if first and (is_term or len(name.split()) >= 2):
        template = rng.choice(ASK_DEFINITION) if is_term else "{t}"
        asked.append((template.format(t=name), {0}))
    if is_term:
        stated = {k for k, s in enumerate(sentences) if DEFAULT.search(s) and VALUE.search(s)}
        if stated and min(stated) > 0:
            asked.append((rng.choice(ASK_DEFAULT).format(t=name), stated))
    return asked


# ------------------------------------------------------------------- Python docstrings

PY_MODULES = (
    "argparse", "array", "base64", "bisect", "calendar", "collections", "colorsys",
    "configparser", "contextlib", "copy", "csv", "datetime", "decimal", "difflib",
    "email.utils", "enum", "filecmp", "fnmatch", "fractions", "ftplib", "functools",
    "getopt", "gettext", "glob", "gzip", "hashlib", "heapq", "hmac", "html", "http.client",
    "imaplib", "inspect", "ipaddress", "itertools", "json", "locale", "logging",
    "mailbox", "mimetypes", "operator", "os", "os.path", "pathlib", "pickle", "pprint",
    "queue", "random", "re", "sched", "secrets", "selectors", "shelve", "shlex", "shutil",
    "smtplib", "socket", "sqlite3", "ssl", "statistics", "string", "struct", "subprocess",
    "tarfile", "tempfile", "textwrap", "threading", "time", "timeit", "tokenize",
    "traceback", "turtle", "typing", "unittest", "urllib.parse", "urllib.request", "uuid",
    "warnings", "wave", "weakref", "webbrowser", "xml.dom.minidom", "zipfile", "zlib",
)  # fmt: skip


def python_docs() -> Iterator[tuple[Paragraph, list]]:
    """Each public function's or class's docstring paragraphs (the first asked by its
    name), per module; the module is the article."""
    rng = random.Random(SEED)
    for name in PY_MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        for attr, obj in sorted(vars(module).items()):
            yield from _doc_pairs(name, attr, obj, rng)


def _doc_pairs(module: str, attr: str, obj: Any, rng: random.Random) -> Iterator[tuple]:
    if attr.startswith("_") or not (inspect.isfunction(obj) or inspect.isclass(obj)):
        return
    if getattr(obj, "__module__", "") != module:
        return  # imported from elsewhere: asked where it is defined
    doc = inspect.getdoc(obj) or ""
    for k, block in enumerate(re.split(r"\n\s*\n", doc)):
        if block.lstrip().startswith((">>>", "-", "*", ":")):
            continue
        sentences = _sentences(" ".join(block.split()))
        if not sentences:
            continue
        asked = _asked(f"{module}.{attr}", True, sentences, k == 0, rng)
        yield Paragraph("pydocs", module, sentences), asked
