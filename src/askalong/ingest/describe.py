"""The ingestion step that gives chunks their descriptions (``chunk/descriptions``).

Off (``ASKALONG_CONTEXT_DESCRIPTIONS``, the default) chunks pass through untouched. On,
with a chat model configured (``ASKALONG_LLM_BASE_URL`` and ``ASKALONG_LLM_MODEL``; the light
model when there is one), each batch of a document's chunks is one call under the
provider's timeout and retry policy; without one, every chunk gets the offline
description. A batch whose call fails or whose reply is refused keeps the offline
descriptions and says so in a warning: ingestion never fails because of descriptions.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from askalong.answer.choose import make_chat_models
from askalong.chunk.descriptions import (
    DESCRIBE_SAMPLING,
    DescriptionReplyError,
    batches,
    describe_messages,
    offline_description,
    parsed_reply,
    with_descriptions,
)
from askalong.config import Settings
from askalong.errors import AskAlongError
from askalong.index.sections import section_titles
from askalong.providers.chat import ChatMessage
from askalong.types import Chunk, Document

Ask = Callable[[Sequence[ChatMessage]], str]  # the messages -> the reply's text


@dataclass(frozen=True)
class Described:
    chunks: tuple[Chunk, ...]
    warnings: tuple[str, ...] = ()  # one per batch that fell back to the offline descriptions


def describe_chunks(settings: Settings, title: str, chunks: tuple[Chunk, ...]) -> Described:
    """``chunks`` with their descriptions as the settings ask (none while the setting is off)."""
    if not settings.context_descriptions or not chunks:
        return Described(chunks)
    if not (settings.llm_base_url and settings.llm_model):
        return Described(_offline(title, chunks))
    try:
        strong, light = make_chat_models(settings)
    except (AskAlongError, ImportError) as exc:  # the SDK is an extra
        return Described(_offline(title, chunks), (f"descriptions: {exc}; {_STAND_IN}",))
    chat = light or strong
    try:
        return described_by(lambda m: chat.complete(m, DESCRIBE_SAMPLING).text, title, chunks)
    finally:
        close = getattr(chat, "close", None)  # an HTTP client's connections
        if callable(close):
            close()


_STAND_IN = "the title and section path stand in"


def descriptions_key(settings: Settings) -> str:
    """What fills the descriptions, as a name part: "" when off, "described-offline", or
    "described-<model>": libraries built one way are never taken for another's."""
    if not settings.context_descriptions:
        return ""
    model = settings.llm_light_model or settings.llm_model
    named = model if settings.llm_base_url and model else "offline"
    return "described-" + re.sub(r"[^A-Za-z0-9._-]+", "_", named)


def described_by(ask: Ask, title: str, chunks: Sequence[Chunk]) -> Described:
    """The chunks described by ``ask``, one call per batch; a failed batch keeps the
    offline descriptions and adds a warning naming its chunks and why."""
    done: list[Chunk] = []
    warnings: list[str] = []
    for batch in batches(chunks):
        try:
            reply = ask(describe_messages(title, batch))
            done.extend(with_descriptions(batch, parsed_reply(reply, len(batch))))
        except (AskAlongError, DescriptionReplyError) as exc:
            first, last = batch[0].order + 1, batch[-1].order + 1
            warnings.append(f"descriptions of chunks {first}-{last}: {exc}; {_STAND_IN}")
            done.extend(_offline(title, batch))
    return Described(tuple(done), tuple(warnings))


def with_warnings(document: Document, warnings: Sequence[str]) -> Document:
    """``document`` with the description warnings among its notices: the ingest report
    (``add``, a job's document) shows them."""
    return replace(document, notices=(*document.notices, *warnings)) if warnings else document


def _offline(title: str, chunks: Sequence[Chunk]) -> tuple[Chunk, ...]:
    described = [offline_description(section_titles(title, c.section_path)) for c in chunks]
    return with_descriptions(chunks, described)
