"""The places of a repository's code (pure): a source file with its blocks and the path an
answer shows, and a block of one (``Place``): what ``code_graph.Repository`` indexes and
resolves calls between."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePosixPath

from askalong.parse.code.file_names import grammar_for
from askalong.types import Block


@dataclass(frozen=True, eq=False)
class SourceFile:
    """One source document of a repository: its id, its path and its blocks. Two are the
    same file when their document is (the repository keeps its own copies, named by
    ``shown_path``; a caller's copy of the same document is that file all the same)."""

    document_id: str
    source: str
    blocks: tuple[Block, ...]
    shown_path: str = ""  # how answers name it: inside its repository, never a server path

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SourceFile) and other.document_id == self.document_id

    def __hash__(self) -> int:
        return hash(self.document_id)

    @property
    def where(self) -> str:
        """The path an answer shows: ``shown_path``, else the source's last part."""
        return self.shown_path or PurePosixPath(self.source.replace("\\", "/")).name

    @property
    def stem(self) -> str:
        return PurePosixPath(self.source.replace("\\", "/")).stem

    @property
    def parts(self) -> tuple[str, ...]:
        return PurePosixPath(self.source.replace("\\", "/")).with_suffix("").parts

    @property
    def folder(self) -> str:
        return PurePosixPath(self.source.replace("\\", "/")).parent.as_posix()

    @property
    def language(self) -> str:
        grammar = grammar_for(self.source)
        return "" if grammar is None else grammar.name.replace("tsx", "typescript")


@dataclass(frozen=True)
class Place:
    """A block of a file of the repository."""

    file: SourceFile
    block: Block

    @property
    def qualname(self) -> tuple[str, ...]:
        return self.block.section_path

    @property
    def key(self) -> tuple[str, str]:
        return self.file.document_id, self.block.id
