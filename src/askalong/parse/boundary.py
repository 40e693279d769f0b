"""The edge of every parser: no library error escapes it, only our own input errors."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from askalong.errors import AskAlongError, CorruptDocument


@contextmanager
def parser_boundary(what: str, source: str) -> Iterator[None]:
    """Turn anything but an ``AskAlongError`` raised inside into ``CorruptDocument``."""
    try:
        yield
    except AskAlongError:
        raise
    except RecursionError as exc:
        raise CorruptDocument(f"the {what} is nested too deeply to read", source=source) from exc
    except Exception as exc:
        raise CorruptDocument(f"cannot parse the {what}: {exc}", source=source) from exc
