"""Retrieval test collections: real public data read into typed, frozen values.

Two layouts are read:

- **SciFact** (a folder): ``corpus_train.csv`` holds the 5183 abstracts, one document
  each; ``claims_validation.csv`` holds the 300 validation claims (several rows per
  claim, one per evidence), whose ``cited_doc_ids`` give 339 claim–document pairs, the
  same as BEIR SciFact's test qrels. Relevance is judged per document.
- **SQuAD format** (a JSON file: ``data`` → ``paragraphs`` → ``qas``): XQuAD, CMRC 2018,
  DRCD. Each article is one document made of its paragraphs in order; a question's
  relevant unit is the paragraph it was asked on, so relevance is judged per paragraph.
"""

from __future__ import annotations

import ast
import csv
import io
import json
import re
import tokenize
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from askalong.errors import CorruptDocument, InputError, Unreadable
from askalong.text.scripts import detect_language

Granularity = Literal["document", "paragraph"]

SCIFACT_CORPUS = "corpus_train.csv"
# SciFact's validation split is BEIR SciFact's test split (300 claims, 339 qrels).
SCIFACT_QUERIES = "claims_validation.csv"
_LANGUAGE_SAMPLE_CHARS = 20_000
_LIST_PUNCTUATION = frozenset({"[", "]", ","})
_LIST_TOKEN_TYPES = frozenset(
    {tokenize.STRING, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT}
    | {tokenize.ENDMARKER}
)
_EXPECTED = (
    f"a SciFact folder ({SCIFACT_CORPUS} and {SCIFACT_QUERIES}) or a SQuAD-format "
    "JSON file ({'data': [{'title', 'paragraphs': [{'context', 'qas'}]}]})"
)


@dataclass(frozen=True)
class Unit:
    """A judged retrieval unit: a whole document (``paragraph`` None) or one paragraph."""

    document: str
    paragraph: int | None = None

    def __str__(self) -> str:
        return self.document if self.paragraph is None else f"{self.document}#{self.paragraph}"


@dataclass(frozen=True)
class GoldAnswer:
    """A gold answer span: ``text`` as written at character ``start`` of the paragraph.

    Kept as the data gives it; CMRC 2018 dev has ~200 answers whose ``start`` is off.
    """

    text: str
    start: int


@dataclass(frozen=True)
class CorpusDocument:
    """One document of a test collection: a stable key, a title and its paragraphs."""

    key: str
    title: str
    paragraphs: tuple[str, ...]


@dataclass(frozen=True)
class EvalQuery:
    """A question with its judged relevant units and, for QA sets, its gold answers."""

    id: str
    text: str
    relevant: frozenset[Unit]
    answers: tuple[GoldAnswer, ...] = ()


@dataclass(frozen=True)
class RetrievalCorpus:
    """A test collection: documents, judged queries, a name and a language."""

    name: str
    language: str
    granularity: Granularity
    documents: tuple[CorpusDocument, ...]
    queries: tuple[EvalQuery, ...]

    @property
    def paragraph_count(self) -> int:
        return sum(len(doc.paragraphs) for doc in self.documents)

    @property
    def judgement_count(self) -> int:
        """Query–unit pairs judged relevant (SciFact: 339)."""
        return sum(len(query.relevant) for query in self.queries)


# ------------------------------------------------------------------------------ dispatch


def load_dataset(path: Path) -> RetrievalCorpus:
    """Read the collection at ``path``, its layout told by its content, not its name."""
    if path.is_dir():
        if (path / SCIFACT_CORPUS).is_file() and (path / SCIFACT_QUERIES).is_file():
            return load_scifact(path)
        raise InputError(f"unknown dataset layout; expected {_EXPECTED}", source=str(path))
    if not path.is_file():
        raise Unreadable("no such file or folder", source=str(path))
    return squad_corpus(_read_json(path), name=path.stem, source=str(path))


# ------------------------------------------------------------------------------ SciFact


def load_scifact(folder: Path) -> RetrievalCorpus:
    """SciFact: one document per abstract (title + its sentences as one paragraph)."""
    documents = tuple(
        _scifact_document(row, source=str(folder / SCIFACT_CORPUS))
        for row in _read_csv(folder / SCIFACT_CORPUS)
    )
    claims = str(folder / SCIFACT_QUERIES)
    queries = _scifact_queries(_read_csv(folder / SCIFACT_QUERIES), source=claims)
    _check_judged_documents(queries, documents, source=claims)
    return RetrievalCorpus(
        name="scifact",
        language=_language(documents),
        granularity="document",
        documents=documents,
        queries=queries,
    )


def _scifact_document(row: Mapping[str, str], *, source: str) -> CorpusDocument:
    sentences = parse_sentence_list(_field(row, "abstract", source), source=source)
    key = _field(row, "doc_id", source)
    return CorpusDocument(
        key=key, title=_field(row, "title", source), paragraphs=(" ".join(sentences),)
    )


def parse_sentence_list(text: str, *, source: str) -> list[str]:
    """The strings of a printed list of strings, e.g. ``['a.'\\n 'b.']``.

    SciFact's abstracts are NumPy-printed arrays: the items are separated by whitespace,
    not commas, so ``ast.literal_eval`` of the whole would glue the sentences together
    (implicit string concatenation). Each string token is evaluated on its own instead,
    still only by ``ast.literal_eval``: nothing is executed.
    """
    bad = CorruptDocument(f"not a list of strings: {text[:60]!r}", source=source)
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
        if not all(_is_list_token(tok) for tok in tokens):
            raise bad
        items = [ast.literal_eval(tok.string) for tok in tokens if tok.type == tokenize.STRING]
    except (tokenize.TokenError, SyntaxError, ValueError) as exc:  # f"…" is no literal
        raise bad from exc
    if not all(isinstance(item, str) for item in items):  # b'…' is a STRING token too
        raise bad
    return items


def _is_list_token(token: tokenize.TokenInfo) -> bool:
    if token.type == tokenize.OP:
        return token.string in _LIST_PUNCTUATION
    return token.type in _LIST_TOKEN_TYPES


def _scifact_queries(rows: Iterable[Mapping[str, str]], *, source: str) -> tuple[EvalQuery, ...]:
    # Several rows per claim (one per evidence); the first row fixes the order.
    texts: dict[str, str] = {}
    cited: dict[str, set[Unit]] = {}
    for row in rows:
        claim_id = _field(row, "id", source)
        texts.setdefault(claim_id, _field(row, "claim", source))
        # NumPy-printed, e.g. "[ 5152028 11705328]": no commas, so read the numbers.
        doc_ids = re.findall(r"\d+", _field(row, "cited_doc_ids", source))
        cited.setdefault(claim_id, set()).update(Unit(doc_id) for doc_id in doc_ids)
    return tuple(EvalQuery(cid, text, frozenset(cited[cid])) for cid, text in texts.items())


def _check_judged_documents(
    queries: Iterable[EvalQuery], documents: Iterable[CorpusDocument], *, source: str
) -> None:
    keys = {doc.key for doc in documents}
    missing = sorted({u.document for q in queries for u in q.relevant} - keys)
    if missing:
        raise CorruptDocument(f"judged documents not in the corpus: {missing[:5]}", source=source)


# ------------------------------------------------------------------------------ SQuAD


def squad_corpus(data: Any, *, name: str, source: str) -> RetrievalCorpus:
    """A SQuAD-format collection: one document per article, judged per paragraph."""
    if not _is_squad(data):
        raise InputError(f"unknown dataset layout; expected {_EXPECTED}", source=source)
    articles = data["data"]
    keys = _article_keys(articles)
    pairs = list(zip(articles, keys, strict=True))
    try:
        documents = tuple(_squad_document(article, key) for article, key in pairs)
        queries = tuple(q for article, key in pairs for q in _squad_queries(article, key))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise CorruptDocument(f"malformed SQuAD entry ({exc!r})", source=source) from exc
    return RetrievalCorpus(
        name=name,
        language=_language(documents),
        granularity="paragraph",
        documents=documents,
        queries=queries,
    )


def _is_squad(data: Any) -> bool:
    articles = data.get("data") if isinstance(data, dict) else None
    if not isinstance(articles, list) or not articles:
        return False
    first = articles[0]
    paragraphs = first.get("paragraphs") if isinstance(first, dict) else None
    return (
        isinstance(paragraphs, list)
        and bool(paragraphs)
        and isinstance(paragraphs[0], dict)
        and {"context", "qas"} <= paragraphs[0].keys()
    )


def _article_keys(articles: list[Any]) -> list[str]:
    """The article's ``id`` (CMRC, DRCD) or else its title (XQuAD), made unique."""
    keys: list[str] = []
    seen: set[str] = set()
    for index, article in enumerate(articles):
        key = str(article.get("id") or article.get("title") or index)
        if key in seen:  # CMRC repeats titles, so a title alone is no key
            key = f"{key}~{index}"
        seen.add(key)
        keys.append(key)
    return keys


def _squad_document(article: Mapping[str, Any], key: str) -> CorpusDocument:
    paragraphs = tuple(str(p["context"]) for p in article["paragraphs"])
    return CorpusDocument(key=key, title=str(article.get("title") or ""), paragraphs=paragraphs)


def _squad_queries(article: Mapping[str, Any], key: str) -> Iterator[EvalQuery]:
    for index, paragraph in enumerate(article["paragraphs"]):
        for qa in paragraph["qas"]:
            answers = tuple(
                GoldAnswer(text=str(a["text"]), start=int(a["answer_start"]))
                for a in qa.get("answers") or ()
            )
            # SQuAD 2.0 style unanswerable questions have no paragraph to find.
            if qa.get("is_impossible") or not answers:
                continue
            yield EvalQuery(
                id=str(qa["id"]),
                text=str(qa["question"]),
                relevant=frozenset({Unit(key, index)}),
                answers=answers,
            )


# ------------------------------------------------------------------------------ helpers


def _language(documents: Iterable[CorpusDocument]) -> str:
    """The collection's language from a sample of its text (titles and paragraphs)."""
    parts: list[str] = []
    size = 0
    for doc in documents:
        for part in (doc.title, *doc.paragraphs):
            parts.append(part)
            size += len(part)
        if size >= _LANGUAGE_SAMPLE_CHARS:
            break
    return detect_language("\n".join(parts))


def _field(row: Mapping[str, str], name: str, source: str) -> str:
    value = row.get(name)
    if value is None:
        raise CorruptDocument(f"missing column {name!r}", source=source)
    return value


def _read_csv(path: Path) -> list[dict[str, str]]:
    try:
        with path.open(encoding="utf-8", newline="") as handle:
            return list(csv.DictReader(handle))
    except OSError as exc:
        raise Unreadable(str(exc), source=str(path)) from exc
    except (csv.Error, UnicodeDecodeError) as exc:
        raise CorruptDocument(f"not a readable CSV file: {exc}", source=str(path)) from exc


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise Unreadable(str(exc), source=str(path)) from exc
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(
            f"not a JSON file ({exc}); expected {_EXPECTED}", source=str(path)
        ) from exc
