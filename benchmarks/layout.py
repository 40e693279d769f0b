"""PDF layout quality against ground truth made by others, and parse speed.

Per document with ground truth:

- the two ACL papers against their GROBID TEI parses: section-title recall, reading order
  (Kendall tau between the TEI paragraph order and where each paragraph's first eight
  words occur in our text), footnote splicing (TEI footnote text found inside one of our
  body blocks) and caption recall (TEI figure/table descriptions found in our captions);
- OCR on ``scanned/linn_2col_scan.pdf`` against its ground-truth text, and on page 1 of
  ``scanned/mineru_small_ocr_zh.pdf`` against ``ZH_PAGE_1`` (transcribed by hand for this
  benchmark): CER with and without white space, and WER;
- pages per second with OCR off (every text PDF, CPU time) and on (the scans);
- per text PDF, the tables, formulas, footnotes and superscript markers found, and how
  many table captions sit next to their table and how many markers have their note.

Prints a markdown table and writes ``benchmarks/results/layout-<date>.md``.

    python benchmarks/layout.py
"""

from __future__ import annotations

import datetime
import io
import itertools
import os
import re
import sys
import time
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium
from lxml import etree

from _table import write_results
from askalong.parse.ocr.quality import ErrorRates, error_rates
from askalong.parse.pdf.parser import parse
from askalong.types import FURNITURE_KINDS, ParsedDocument
from evaldata import EVALDATA

ROOT = Path(__file__).resolve().parents[1]
ACL_PAPERS = ("2020.acl-main.207", "N18-3011")
TEI = {"t": "http://www.tei-c.org/ns/1.0"}
_WINDOW = 5  # words in a footnote shingle
_SPLICED_SHARE = 0.3  # a footnote counts as spliced when this share of its shingles is in body text

# Page 1 of scanned/mineru_small_ocr_zh.pdf (a Chinese translation of Capital), read off
# the rendered page: running head, body, the margin number, footnotes (3) to (6).
ZH_PAGE_1 = """12 第一篇 商品和货币
史的事情。(3)为有用物的量找到社会尺度，也是这样。商品的这些尺度之所以不同，部分是由于被计量的物的性质不同，部分是由于约定俗成。
14(1)
物的有用性使物成为使用价值。(4)但这种有用性不是飘忽不定的。它决定于商品体的属性，离开了商品体就不存在。因此，商品体本身，例如铁、小麦、金钢石等等，就是使用价值。赋予商品体以这种性质的，不是人为了取得它的有用性质所耗费的劳动的多少。在谈到使用价值时，总是指一定的量而言，如一打表，一米布，一吨铁等等。商品的使用价值为商品学和商业成规这种专门的知识提供材料。(5)使用价值只是在使用或消费中得到实现。不论财富的社会形式如何，使用价值构成财富的物质。在我们所要考察的社会形式中，使用价值同时又是交换价值的物质承担者。
交换价值首先表现为量的关系，表现为不同种使用价值彼此相交换的比例(6)，即随着时间和地点的不同而不断改变的关系。因此，交换价值好象是一种任意的、纯粹相对的东西；商品固有的、
(3)“物都有内在的长处(这是巴尔本用来表示使用价值的专门用语)，这种长处在任何地方都具有同样的性质，如磁石吸铁的长处就是如此。”(尼古拉·巴尔本《新币轻铸论。答洛克先生关于提高货币价值的意见》1696年伦敦版第16页)磁石吸铁的属性只是在通过它发现了磁极性以后才成为有用的。
(4)“物的自然价值产生于它能满足需要，或者给人类生活带来方便。”约翰·洛克：《论降低利息的后果》(1691年)。在十七世纪，我们还常常看到英国著作家用worth表示使用价值，用value表示交换价值；这完全符合英语的精神，英语喜欢用日耳曼语源的词表示直接的东西，用罗马语源的词表示被反射的东西。
(5)在资产阶级社会中“任何人都不能推托不知道法律”。——按照经济法的假定，每个买者都具有百科全书般的商品知识。
(6)“价值就是一物和另一物、一定量的这种产品和一定量的别种产品之间的交换关系。”(列特隆《论社会利益》，德尔编《重农学派》1846年巴黎版第889页)
"""


@dataclass(frozen=True)
class PaperScores:
    name: str
    sections_found: int
    sections: int  # section titles in the TEI
    order_tau: float
    order_found: float  # share of TEI paragraphs whose start we found at all
    footnotes: int  # TEI footnote notes
    spliced: int  # of those, found inside one of our body blocks
    caption_recall: float | None  # None: the TEI has no labelled figure or table

    @property
    def section_recall(self) -> float:
        return self.sections_found / max(self.sections, 1)


@dataclass(frozen=True)
class OcrScores:
    name: str
    pages: int
    seconds: float
    rates: ErrorRates
    spaced: bool  # a language written with spaces between words: WER means something


def norm(text: str) -> str:
    """Lower case, no section numbers, no punctuation, single spaces."""
    text = re.sub(r"\b\d+(?:\.\d+)*\.?", " ", text.lower())
    return " ".join(re.sub(r"[^\w\s]", " ", text).split())


def kendall_tau(positions: Sequence[int]) -> float:
    """Kendall's tau-a between the given order and the order of ``positions``."""
    pairs = list(itertools.combinations(positions, 2))
    if not pairs:
        return 1.0
    concordant = sum(a < b for a, b in pairs)
    discordant = sum(a > b for a, b in pairs)
    return (concordant - discordant) / len(pairs)


def paper_scores(name: str) -> PaperScores:
    folder = EVALDATA / "pdf" / "en_2col"
    parsed = parse((folder / f"{name}.pdf").read_bytes(), source=f"{name}.pdf")
    tei = etree.parse(str(folder / f"{name}.tei.xml"))
    positions, wanted = _paragraph_positions(parsed, tei)
    spliced, footnotes = _spliced(parsed, tei)
    found, sections = section_titles(parsed, tei)
    return PaperScores(
        name=name,
        sections_found=found,
        sections=sections,
        order_tau=kendall_tau(positions),
        order_found=len(positions) / max(wanted, 1),
        footnotes=footnotes,
        spliced=spliced,
        caption_recall=caption_recall(parsed, tei),
    )


def section_titles(parsed: ParsedDocument, tei: etree._ElementTree) -> tuple[int, int]:
    """(TEI section titles among our headings, TEI section titles)."""
    headings = [norm(b.text) for b in parsed.blocks if b.kind == "heading"]
    # GROBID sometimes merges a section title with the next one ("Model 2.1 Overview").
    known = set(headings) | {f"{a} {b}" for a, b in itertools.pairwise(headings)}
    titles = [norm("".join(h.itertext())) for h in tei.iterfind(".//t:body//t:div/t:head", TEI)]
    return sum(title in known for title in titles), len(titles)


def _paragraph_positions(parsed: ParsedDocument, tei: etree._ElementTree) -> tuple[list[int], int]:
    ours = norm(" ".join(b.text for b in parsed.blocks if b.kind not in FURNITURE_KINDS))
    starts = [
        " ".join(norm("".join(p.itertext())).split()[:8])
        for p in tei.iterfind(".//t:body//t:div/t:p", TEI)
    ]
    starts = [start for start in starts if len(start.split()) == 8]
    positions = [ours.find(start) for start in starts]
    return [p for p in positions if p >= 0], len(starts)


def _shingles(text: str) -> set[str]:
    words = norm(text).split()
    return {" ".join(words[i : i + _WINDOW]) for i in range(len(words) - _WINDOW + 1)}


def _spliced(parsed: ParsedDocument, tei: etree._ElementTree) -> tuple[int, int]:
    """(footnotes found inside body blocks, footnotes in the TEI)."""
    body_kinds = {"paragraph", "heading", "list_item"}
    body = set().union(*(_shingles(b.text) for b in parsed.blocks if b.kind in body_kinds))
    notes = ["".join(note.itertext()) for note in tei.iterfind(".//t:note[@place='foot']", TEI)]
    spliced = 0
    for note in notes:
        shingles = _shingles(note)
        if shingles and len(shingles & body) > _SPLICED_SHARE * len(shingles):
            spliced += 1
    return spliced, len(notes)


def caption_recall(parsed: ParsedDocument, tei: etree._ElementTree) -> float | None:
    captions = " | ".join(norm(b.text) for b in parsed.blocks if b.kind == "caption")
    wanted = []
    for figure in tei.iterfind(".//t:figure", TEI):
        label = "".join(figure.findtext("t:label", "", TEI)).strip()
        text = " ".join(norm(figure.findtext("t:figDesc", "", TEI)).split()[:5])
        if label and len(text.split()) == 5:
            wanted.append(text)
    return sum(text in captions for text in wanted) / len(wanted) if wanted else None


@dataclass(frozen=True)
class Regions:
    """What the layout found in one text PDF besides prose."""

    name: str
    tables: int
    table_captions: int
    captions_beside: int  # table captions next to a table block in reading order
    formulas: int
    footnotes: int
    markers: int  # superscript markers in body text
    markers_linked: int  # of those, with a footnote opening with the same marker


_TABLE_CAPTION = re.compile(r"^\s*(?:Table|TABLE|表)\s*[0-9IVX]")
_MARKER = re.compile(r"(?<=[^\W\d_])[.,:;)]?([⁰¹²³⁴⁵⁶⁷⁸⁹]+)")


def regions(path: Path) -> Regions:
    blocks = parse(path.read_bytes(), source=path.name, ocr=False).blocks
    tables = {b.order for b in blocks if b.kind == "table"}
    captions = [b for b in blocks if b.kind == "caption" and _TABLE_CAPTION.match(b.text)]
    beside = sum(bool({c.order - 1, c.order + 1} & tables) for c in captions)
    notes = [b for b in blocks if b.kind == "footnote"]
    openers = {note.text.split(" ", 1)[0] for note in notes}
    body = " ".join(b.text for b in blocks if b.kind == "paragraph")
    markers = set(_MARKER.findall(body))
    return Regions(
        name=f"{path.parent.name}/{path.name}",
        tables=len(tables),
        table_captions=len(captions),
        captions_beside=beside,
        formulas=sum(b.kind == "formula" for b in blocks),
        footnotes=len(notes),
        markers=len(markers),
        markers_linked=len(markers & openers),
    )


def one_page(path: Path, index: int) -> bytes:
    """A PDF of page ``index`` of ``path`` alone."""
    source = pdfium.PdfDocument(path.read_bytes())
    target = pdfium.PdfDocument.new()
    try:
        target.import_pages(source, [index])
        buffer = io.BytesIO()
        target.save(buffer)
        return buffer.getvalue()
    finally:
        target.close()
        source.close()


def page_text(parsed: ParsedDocument) -> str:
    return "\n".join(block.text for block in parsed.blocks)


def ocr_scores(name: str, data: bytes, reference: str, *, fold: bool = False) -> OcrScores:
    """OCR error rates; ``fold`` compares NFKC forms (full-width and half-width
    punctuation alike), as a Chinese transcription cannot tell them apart reliably."""
    start = time.perf_counter()
    parsed = parse(data, source=name)
    seconds = time.perf_counter() - start
    text = page_text(parsed)
    if fold:
        text, reference = (
            unicodedata.normalize("NFKC", text),
            unicodedata.normalize("NFKC", reference),
        )
    rates = error_rates(text, reference)
    return OcrScores(name, parsed.page_count, seconds, rates, spaced=not fold)


def linn_scores() -> OcrScores:
    folder = EVALDATA / "pdf" / "scanned"
    reference = (folder / "linn_2col_scan.gt.txt").read_text(encoding="utf-8")
    return ocr_scores("linn_2col_scan", (folder / "linn_2col_scan.pdf").read_bytes(), reference)


def zh_scores() -> OcrScores:
    data = one_page(EVALDATA / "pdf" / "scanned" / "mineru_small_ocr_zh.pdf", 0)
    return ocr_scores("mineru_small_ocr_zh p.1", data, ZH_PAGE_1, fold=True)


def text_speed(paths: Iterable[Path]) -> tuple[int, float]:
    """(pages, CPU seconds) parsing every text PDF with OCR off."""
    pages, seconds = 0, 0.0
    for path in paths:
        data = path.read_bytes()
        start = time.process_time()
        pages += parse(data, source=path.name, ocr=False).page_count
        seconds += time.process_time() - start
    return pages, seconds


def text_pdfs() -> list[Path]:
    paths = [p for p in sorted((EVALDATA / "pdf").glob("*/*.pdf")) if p.parent.name != "scanned"]
    return [*paths, EVALDATA / "manuals" / "gnuplot-5.4.pdf"]


def pooled_section_recall(papers: Sequence[PaperScores]) -> float:
    """Section recall over all papers' titles together."""
    return sum(p.sections_found for p in papers) / max(sum(p.sections for p in papers), 1)


def _share(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def region_table(found: Sequence[Regions]) -> list[str]:
    lines = [
        "",
        "| text PDF | tables | table captions | beside a table | formulas | footnotes"
        " | body markers | with their note |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in found:
        lines.append(
            f"| {r.name} | {r.tables} | {r.table_captions} | {r.captions_beside} | {r.formulas} "
            f"| {r.footnotes} | {r.markers} | {r.markers_linked} |"
        )
    fields = ("tables", "table_captions", "captions_beside", "formulas", "footnotes")
    totals = [sum(getattr(r, field) for r in found) for field in (*fields, "markers")]
    linked = sum(r.markers_linked for r in found)
    lines.append("| **total** | " + " | ".join(map(str, totals)) + f" | {linked} |")
    return lines


def report(
    papers: Sequence[PaperScores],
    ocr: Sequence[OcrScores],
    speed: tuple[int, float],
    found: Sequence[Regions] = (),
) -> str:
    lines = [
        f"PDF layout against GROBID TEI and OCR ground truth, {os.cpu_count()} cores,"
        f" load average {os.getloadavg()[0]:.1f} at the end (the machine is shared).",
        "",
        "| paper | section recall | order tau | paragraphs found | footnotes spliced"
        " | caption recall |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for p in papers:
        lines.append(
            f"| {p.name} | {p.section_recall:.3f} | {p.order_tau:.3f} | {p.order_found:.3f} "
            f"| {p.spliced} of {p.footnotes} | {_share(p.caption_recall)} |"
        )
    lines.append(f"| **pooled** | {pooled_section_recall(papers):.3f} | | | | |")
    lines += [
        "",
        "| OCR | pages | s | pages/s | CER | CER no space | WER |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for o in ocr:
        r = o.rates
        lines.append(
            f"| {o.name} | {o.pages} | {o.seconds:.1f} | {o.pages / o.seconds:.2f} "
            f"| {r.cer:.3f} | {r.cer_no_space:.3f} | {_share(r.wer if o.spaced else None)} |"
        )
    pages, seconds = speed
    lines += [
        "",
        f"Text PDFs, OCR off: {pages} pages in {seconds:.2f} s = {pages / seconds:.0f} pages/s"
        " (CPU time of this process, so other work on the machine does not count).",
    ]
    if found:
        lines += region_table(found)
    return "\n".join(lines) + "\n"


def main() -> int:
    papers = [paper_scores(name) for name in ACL_PAPERS]
    ocr = [linn_scores(), zh_scores()]
    paths = text_pdfs()
    text = report(papers, ocr, text_speed(paths), [regions(path) for path in paths[:-1]])
    out = write_results(text, f"layout-{datetime.date.today().isoformat()}.md", None)
    print(f"written to {out.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
