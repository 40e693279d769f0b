"""Writes the KB evaluation's corpus (``corpus.json``) and items (``items.jsonl``).

The items are the hand-written ones (``authored.jsonl``: single facts, colloquial
paraphrases, summaries and private-document questions on the manuals and papers, and
no-answer questions) plus items derived from public data sets whose licences allow
keeping them (DuReader, Apache-2.0; SciFact, CC BY / ODC-By):

- paraphrase: DuReader's real search questions with one selected document: colloquial
  wording against a web page's own;
- conflict: DuReader questions whose selected documents (two or three web pages) give
  different answers: every side is gold evidence;
- distractor: SciFact claims asked against their abstract among the three abstracts
  whose words overlap the claim most;
- no_answer: DuReader questions none of whose documents is in the corpus.

RGB passages join the corpus as noise only (non-commercial: their text is read from the
evaluation data at run time and never written here). Deterministic: run it again and the
files come out the same.

    python benchmarks/kb/build.py
"""

from __future__ import annotations

import csv
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
EVALDATA = Path(os.environ.get("ASKALONG_EVALDATA") or HERE.parents[2] / "shared" / "evaldata")
DUREADER = "qa/dureader2_demo/search.dev.json"
SCIFACT = "retrieval/scifact/corpus_train.csv"
PG = "manuals/postgresql-15-html/"
PG_PAGES = [
    "runtime-config-resource",
    "runtime-config-wal",
    "runtime-config-connection",
    "runtime-config-autovacuum",
    "runtime-config-query",
    "runtime-config-logging",
    "runtime-config-client",
    "runtime-config-locks",
    "transaction-iso",
    "mvcc-intro",
    "explicit-locking",
    "sql-createtable",
    "sql-altertable",
    "sql-vacuum",
    "sql-createindex",
    "sql-select",
    "sql-copy",
    "sql-begin",
    "sql-explain",
    "sql-analyze",
    "sql-cluster",
    "sql-truncate",
    "sql-reindex",
    "sql-createview",
    "sql-grant",
    "sql-insert",
    "sql-update",
    "sql-delete",
    "sql-lock",
    "routine-vacuuming",
    "indexes-types",
    "indexes-multicolumn",
    "indexes-unique",
    "indexes-partial",
    "datatype-numeric",
    "datatype-character",
    "datatype-datetime",
    "datatype-json",
    "datatype-boolean",
    "datatype-uuid",
    "wal-intro",
    "backup-dump",
    "app-pgdump",
    "app-pgrestore",
    "app-psql",
    "app-initdb",
    "ddl-constraints",
    "ddl-partitioning",
    "functions-string",
    "textsearch-intro",
    "populate",
    "performance-tips",
    "auth-pg-hba-conf",
]
PAPERS = (
    ("pdf/en_2col/ALCE.pdf", "alice", "private"),
    ("pdf/en_2col/N18-3011.pdf", "alice", "org"),
    ("pdf/en_2col/2020.acl-main.207.pdf", "kb", "public"),
    ("pdf/en_2col/tracemonkey-pldi-09.pdf", "kb", "public"),
    ("pdf/zh/elegantpaper-cn.pdf", "bob", "private"),
    ("pdf/zh_long/alibaba_java_manual_huangshan.pdf", "kb", "public"),
)
RGB = (("rag/rgb/en_fact.json", 12), ("rag/rgb/zh_fact.json", 12))
PARAPHRASES, CONFLICTS, UNANSWERED, CLAIMS = 20, 18, 10, 20
SNIPPET = 60  # characters of a gold paragraph kept as its evidence snippet


def main() -> None:
    dureader = [json.loads(line) for line in (EVALDATA / DUREADER).open(encoding="utf-8")]
    documents = _fixed_documents()
    items: list[dict[str, Any]] = [json.loads(x) for x in (HERE / "authored.jsonl").open()]
    single = [r for r in dureader if _selected(r) == 1 and r["answers"]][:PARAPHRASES]
    multi = [r for r in dureader if _selected(r) > 1 and len(set(r["answers"])) > 1]
    for row in single + multi[:CONFLICTS]:
        documents += [_record(DUREADER, f"{row['question_id']}/{i}") for i in _docs(row)]
    items += [_dureader_item(r, "paraphrase") for r in single]
    items += [_dureader_item(r, "conflict") for r in multi[:CONFLICTS]]
    items += [_unanswered(r) for r in multi[CONFLICTS : CONFLICTS + UNANSWERED]]
    claims, abstracts = _scifact_items()
    items += claims
    documents += [_record(SCIFACT, doc_id) for doc_id in abstracts]
    for path, count in RGB:
        documents += [_record(path, f"{i}/negative/0") for i in range(count)]
    corpus = {
        "orgs": ["research", "sales"],
        "users": [
            {"name": "kb"},
            {"name": "alice", "orgs": ["research"]},
            {"name": "dave", "orgs": ["research"]},
            {"name": "bob", "orgs": ["sales"]},
        ],
        "documents": documents,
    }
    (HERE / "corpus.json").write_text(json.dumps(corpus, indent=1, ensure_ascii=False) + "\n")
    with (HERE / "items.jsonl").open("w", encoding="utf-8") as out:
        for item in items:
            out.write(json.dumps(item, ensure_ascii=False) + "\n")
    print(f"{len(documents)} documents, {len(items)} items", file=sys.stderr)


def _fixed_documents() -> list[dict[str, Any]]:
    pages = [{"path": f"{PG}{p}.html", "owner": "kb", "visibility": "public"} for p in PG_PAGES]
    papers = [{"path": p, "owner": o, "visibility": v} for p, o, v in PAPERS]
    return pages + papers


def _record(path: str, select: str) -> dict[str, Any]:
    return {"path": path, "select": select, "owner": "kb", "visibility": "public"}


def _selected(row: dict[str, Any]) -> int:
    return sum(1 for d in row["documents"] if d["is_selected"])


def _docs(row: dict[str, Any]) -> list[int]:
    """The question's documents that have text (a few web pages came back empty)."""
    return [i for i, d in enumerate(row["documents"]) if any(p.strip() for p in d["paragraphs"])]


def _dureader_item(row: dict[str, Any], category: str) -> dict[str, Any]:
    evidence = []
    for i, doc in enumerate(row["documents"]):
        if doc["is_selected"] and i in _docs(row):
            para = " ".join(doc["paragraphs"][doc["most_related_para"]].split())
            evidence.append(
                {"document": f"{DUREADER}#{row['question_id']}/{i}", "text": _snippet(para)}
            )
    note = "DuReader search question; its selected page"
    if category == "conflict":
        note = "DuReader: the selected pages give different answers; every side is gold"
    return _item(f"dr-{row['question_id']}", row["question"], category, "answer", evidence, note)


def _unanswered(row: dict[str, Any]) -> dict[str, Any]:
    note = "DuReader question none of whose documents is in the corpus"
    return _item(f"dr-{row['question_id']}", row["question"], "no_answer", "refuse", [], note)


def _snippet(text: str) -> str:
    """The paragraph's first sentence, at most SNIPPET characters (cut at a boundary)."""
    head = re.split(r"(?<=[。！？!?；;])", text)[0]
    return head[:SNIPPET].strip()


def _scifact_items() -> tuple[list[dict[str, Any]], list[str]]:
    rows = list(csv.DictReader((EVALDATA / SCIFACT).open(encoding="utf-8", newline="")))
    abstracts = {r["doc_id"]: r for r in rows}
    claims = csv.DictReader(
        (EVALDATA / "retrieval/scifact/claims_validation.csv").open(encoding="utf-8")
    )
    items, wanted = [], []
    for claim in claims:
        if len(items) == CLAIMS:
            break
        doc = claim["evidence_doc_id"]
        if claim["evidence_label"] != "SUPPORT" or doc not in abstracts:
            continue
        if any(i["id"] == f"sf-{claim['id']}" for i in items):
            continue
        sentences = _sentences(abstracts[doc]["abstract"])
        index = int(claim["evidence_sentences"].strip("[]").split()[0])
        evidence = [{"document": f"{SCIFACT}#{doc}", "text": sentences[index][:150].strip()}]
        near = _nearest(claim["claim"], abstracts, exclude=doc)
        wanted += [doc, *near]
        note = f"SciFact claim against its abstract and distractors {', '.join(near)}"
        items.append(
            _item(f"sf-{claim['id']}", claim["claim"], "distractor", "answer", evidence, note)
        )
    return items, list(dict.fromkeys(wanted))


def _sentences(abstract: str) -> list[str]:
    sys.path.insert(0, str(HERE.parents[1] / "src"))
    from askalong.evaluate.datasets import parse_sentence_list

    return parse_sentence_list(abstract, source=SCIFACT)


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if len(w) > 3}


def _nearest(claim: str, abstracts: dict[str, dict[str, str]], exclude: str) -> list[str]:
    words = _words(claim)
    scored = sorted(
        (
            (len(words & _words(r["title"] + " " + r["abstract"])), -int(k), k)
            for k, r in abstracts.items()
            if k != exclude
        ),
        reverse=True,
    )
    return [k for _, _, k in scored[:3]]


def _item(
    item_id: str, question: str, category: str, expected: str, evidence: list[Any], note: str
) -> dict[str, Any]:
    return {
        "id": item_id,
        "question": question,
        "category": category,
        "expected": expected,
        "gold_chunk_ids": [],
        "gold_evidence": evidence,
        "asker": None,
        "source": "authored",
        "note": note,
    }


if __name__ == "__main__":
    main()
