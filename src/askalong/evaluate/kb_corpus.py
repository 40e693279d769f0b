"""The KB evaluation's corpus: which evaluation files make the knowledge base, who owns
each one and who may see it, and the accounts that ask (``benchmarks/kb/corpus.json``).

A document is a path relative to the evaluation data folder, ingested as it is, or a
path with a ``select`` naming one record inside a data set, written to a text file at run
time (so that non-commercial text, RGB's, is read from the evaluation data only and never
kept in the repository):

- ``qa/dureader2_demo/search.dev.json`` with ``"select": "<question_id>/<n>"``: that
  question's ``n``-th web document (title, then its paragraphs);
- ``retrieval/scifact/corpus_train.csv`` with ``"select": "<doc_id>"``: that abstract;
- ``rag/rgb/<set>.json`` with ``"select": "<id>/<positive|negative|positive_wrong>/<n>"``:
  one passage.

A document's ``key`` (the path, ``#select`` when there is one) is what an item's gold
evidence names. The corpus ``digest`` hashes the file and the sizes of what it names:
the knowledge base built from it is cached under that digest.
"""

from __future__ import annotations

import csv
import hashlib
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, cast, get_args

from askalong.errors import InputError
from askalong.evaluate.datasets import parse_sentence_list
from askalong.evaluate.kb_items import first_repeat
from askalong.types import Visibility

VISIBILITIES: tuple[str, ...] = get_args(Visibility)
DERIVED = ("qa/dureader2_demo/", "retrieval/scifact/", "rag/rgb/")


@dataclass(frozen=True)
class KbUser:
    name: str
    orgs: tuple[str, ...] = ()  # direct memberships


@dataclass(frozen=True)
class KbDocument:
    path: str  # relative to the evaluation data folder
    owner: str
    visibility: Visibility
    select: str = ""

    @property
    def key(self) -> str:
        return f"{self.path}#{self.select}" if self.select else self.path


@dataclass(frozen=True)
class KbCorpus:
    source: str  # the corpus file, for messages
    orgs: tuple[str, ...]
    users: tuple[KbUser, ...]
    documents: tuple[KbDocument, ...]
    digest: str

    def user(self, name: str) -> KbUser:
        for user in self.users:
            if user.name == name:
                return user
        raise InputError(f"no user {name!r} in the corpus", source=self.source)


def load_kb_corpus(path: Path, evaldata: Path) -> KbCorpus:
    """The corpus file, checked: every owner a user, every org known, no key twice."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"cannot read the corpus: {exc}", source=str(path)) from exc
    if not isinstance(data, dict):
        raise InputError("the corpus must be a JSON object", source=str(path))
    orgs = tuple(str(o) for o in data.get("orgs", ()))
    users = tuple(_user(u, orgs, str(path)) for u in data.get("users", ()))
    names = {u.name for u in users}
    documents = tuple(_document(d, names, str(path)) for d in data.get("documents", ()))
    twice = first_repeat(d.key for d in documents)
    if twice is not None:
        raise InputError(f"document {twice!r} is listed twice", source=str(path))
    if not documents:
        raise InputError("the corpus lists no documents", source=str(path))
    digest = _digest(path.read_bytes(), documents, evaldata)
    return KbCorpus(str(path), orgs, users, documents, digest)


def _user(raw: Any, orgs: tuple[str, ...], source: str) -> KbUser:
    if not isinstance(raw, dict) or not isinstance(raw.get("name"), str):
        raise InputError(f"a user must be an object with a name: {raw!r}", source=source)
    member = tuple(str(o) for o in raw.get("orgs", ()))
    unknown = [o for o in member if o not in orgs]
    if unknown:
        raise InputError(f"user {raw['name']!r}: unknown org {unknown[0]!r}", source=source)
    return KbUser(raw["name"], member)


def _document(raw: Any, users: set[str], source: str) -> KbDocument:
    if not isinstance(raw, dict) or not isinstance(raw.get("path"), str):
        raise InputError(f"a document must be an object with a path: {raw!r}", source=source)
    owner, visibility = raw.get("owner"), raw.get("visibility", "public")
    if owner not in users:
        raise InputError(f"{raw['path']}: owner {owner!r} is not a corpus user", source=source)
    if visibility not in VISIBILITIES:
        raise InputError(
            f"{raw['path']}: visibility {visibility!r}; valid: {', '.join(VISIBILITIES)}",
            source=source,
        )
    select = str(raw.get("select", ""))
    if select and not raw["path"].startswith(DERIVED):
        raise InputError(f"{raw['path']}: select works only under {DERIVED}", source=source)
    return KbDocument(raw["path"], owner, cast(Visibility, visibility), select)


def _digest(text: bytes, documents: tuple[KbDocument, ...], evaldata: Path) -> str:
    digest = hashlib.sha256(text)
    for path in sorted({d.path for d in documents}):
        file = evaldata / path
        if not file.is_file():
            raise InputError(f"corpus document not found: {file}", source=path)
        digest.update(f"{path}:{file.stat().st_size}\n".encode())
    return digest.hexdigest()[:16]


# -- documents written at run time -----------------------------------------------------


def materialised(document: KbDocument, evaldata: Path, folder: Path) -> Path:
    """The file to ingest: the evaluation file itself, or the selected record as text."""
    if not document.select:
        return evaldata / document.path
    name = hashlib.sha256(document.key.encode()).hexdigest()[:16] + ".txt"
    target = folder / name
    if not target.exists():
        folder.mkdir(parents=True, exist_ok=True)
        target.write_text(record_text(document, evaldata), encoding="utf-8")
    return target


def record_text(document: KbDocument, evaldata: Path) -> str:
    """The selected record's text: a title line, then paragraphs at blank lines."""
    path, select = document.path, document.select
    try:
        if path.startswith("qa/dureader2_demo/"):
            qid, index = select.split("/")
            doc = _dureader(str(evaldata / path))[qid]["documents"][int(index)]
            return _paragraphs(doc["title"], doc["paragraphs"])
        if path.startswith("retrieval/scifact/"):
            row = _scifact(str(evaldata / path))[select]
            return _paragraphs(
                row["title"], [" ".join(parse_sentence_list(row["abstract"], source=path))]
            )
        record, field, index = select.split("/")
        passage = _rgb(str(evaldata / path))[record][field][int(index)]
        return _paragraphs(f"{document.key} passage", [passage])
    except (KeyError, IndexError, ValueError) as exc:
        raise InputError(f"no record {select!r} in {path}: {exc}", source=path) from exc


def _paragraphs(title: str, paragraphs: Any) -> str:
    body = [" ".join(str(p).split()) for p in paragraphs if str(p).strip()]
    return "\n\n".join([" ".join(title.split()), *body]) + "\n"


@cache
def _dureader(path: str) -> Mapping[str, Any]:
    return {str(row["question_id"]): row for row in _json_lines(path)}


@cache
def _rgb(path: str) -> Mapping[str, Any]:
    return {str(row["id"]): row for row in _json_lines(path)}


@cache
def _scifact(path: str) -> Mapping[str, Mapping[str, str]]:
    with open(path, encoding="utf-8", newline="") as handle:
        return {row["doc_id"]: row for row in csv.DictReader(handle)}


def _json_lines(path: str) -> Iterator[Any]:
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)
