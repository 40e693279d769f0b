"""The model answerer: an OpenAI-compatible chat model answers, every quote is checked.

One question is one short conversation (at most three calls):

1. the policy, the thread's earlier turns and the fenced, numbered sources go out
   (``prompts.py``); the reply is JSON (JSON mode where the server has it, otherwise a
   fenced block or the first object in the text: ``reply.py``);
2. a reply that is not valid JSON gets one request for valid JSON; still invalid ->
   ``not_covered`` with a note;
3. every quote is located in the source it names (``cite.check_quotes``). Any quote not
   there, or an "answered" reply with no quotes at all, gets ONE retry naming the bad
   quotes; whatever is still invalid after it is dropped.

The surviving quotes are renumbered 1.. in the model's order and the answer's markers
rewritten to match (markers of dropped quotes removed). Nothing left -> ``not_covered``.
A quote shown is always the exact source text at the span found, never the model's words,
which stay in ``Draft.raw``.

Errors: a provider failure (endpoint down, 429/5xx storm, timeout, empty reply) is
retried by the provider itself and then raised as ``ProviderError``, which propagates to
the CLI/HTTP edge as a clear message. Only when the *retry* call fails is the first
reply used instead (its invalid quotes dropped), with a note saying so.

Streaming (``draft_streaming``): the first call is streamed and ``on_text`` receives the
``"answer"`` string as it is decoded. Retries are not streamed. When the check changes
the answer (a retry, dropped or renumbered quotes, not_covered) the draft's ``answer``
is the authority and replaces what was streamed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace

from askalong.answer.base import NOT_COVERED, Answerer, Draft, DraftRequest
from askalong.answer.llm.prompts import INVALID_JSON, NO_QUOTES, build_messages, quote_retry
from askalong.answer.llm.reply import AnswerStream, ModelReply, parse_reply
from askalong.answer.llm.route import Route, RouteDecision, decide_route
from askalong.errors import ProviderError
from askalong.providers.chat import ChatMessage, ChatModel, Sampling
from askalong.types import Quote
from askalong.verify.cite import InvalidQuote, QuoteCheck, Source, check_quotes, sources_from_units

Router = Callable[[DraftRequest], Route]
TextSink = Callable[[str], None]

RAW_SEPARATOR = "\n\n----- retry -----\n\n"
DEFAULT_SAMPLING = Sampling()
_MARKER = re.compile(r"[^\S\n]*\[\s*(\d+(?:\s*[,，、;]\s*\d+)*)\s*\]")


@dataclass
class _Conversation:
    """The messages of one question and every raw reply, in order."""

    chat: ChatModel
    messages: list[ChatMessage]
    sampling: Sampling
    raws: list[str] = field(default_factory=list)

    def first(self, on_text: TextSink | None) -> str:
        text = self._streamed(on_text) if on_text is not None else self._completed()
        self.raws.append(text)
        return text

    def again(self, instruction: str) -> str:
        """One more turn: the last reply as the assistant's, then ``instruction``."""
        self.messages += [
            ChatMessage("assistant", self.raws[-1]),
            ChatMessage("user", instruction),
        ]
        text = self._completed()
        self.raws.append(text)
        return text

    @property
    def raw(self) -> str:
        return RAW_SEPARATOR.join(self.raws)

    def _completed(self) -> str:
        return self.chat.complete(self.messages, self.sampling).text

    def _streamed(self, on_text: TextSink) -> str:
        answer = AnswerStream()
        pieces = []
        for piece in self.chat.stream(self.messages, self.sampling):
            pieces.append(piece)
            readable = answer.feed(piece)
            if readable:
                on_text(readable)
        return "".join(pieces)


@dataclass(frozen=True)
class _Checked:
    """A reply's quotes after the check: the valid ones by the model's number ``n``."""

    reply: ModelReply
    valid: dict[int, Quote]
    invalid: tuple[InvalidQuote, ...]

    @property
    def needs_retry(self) -> bool:
        return bool(self.invalid) or not self.valid

    def instruction(self) -> str:
        if self.invalid:
            return quote_retry(QuoteCheck(tuple(self.valid.values()), self.invalid))
        return NO_QUOTES


class ModelAnswerer(Answerer):
    """Answers with a chat model, strong or light by ``router``; quotes are checked."""

    name = "openai"

    def __init__(
        self,
        chat_strong: ChatModel,
        chat_light: ChatModel | None = None,
        *,
        router: Router | None = None,
        sampling: Sampling = DEFAULT_SAMPLING,
    ) -> None:
        self.strong = chat_strong
        self.light = chat_light
        self.router = router
        self.sampling = sampling

    def draft(self, request: DraftRequest) -> Draft:
        """The checked draft; raises ``ProviderError`` when the model cannot be reached."""
        return self._draft(request, None)

    def draft_streaming(self, request: DraftRequest, on_text: TextSink) -> Draft:
        return self._draft(request, on_text)

    # -- steps -------------------------------------------------------------------------

    def route(self, request: DraftRequest) -> RouteDecision:
        if self.light is None:
            return decide_route(request, has_light=False)
        if self.router is not None:
            return RouteDecision(self.router(request), "chosen by the configured router")
        return decide_route(request)

    def _draft(self, request: DraftRequest, on_text: TextSink | None) -> Draft:
        decision = self.route(request)
        chat = self.light if decision.route == "light" and self.light is not None else self.strong
        sources = sources_from_units(request.units)
        messages = build_messages(request, sources, request.titles)
        # Every reply is asked for as JSON, whatever the configured sampling says.
        talk = _Conversation(chat, messages, replace(self.sampling, json_mode=True))
        base = Draft(
            status="not_covered",
            answer=NOT_COVERED[request.question.wording],
            quotes=(),
            model=_model_name(chat),
            route=decision.route,
            notes=(f"route: {decision.route} ({decision.reason})",),
        )
        return self._answered(talk, sources, base, on_text)

    def _answered(
        self, talk: _Conversation, sources: Sequence[Source], base: Draft, on_text: TextSink | None
    ) -> Draft:
        reply = parse_reply(talk.first(on_text))
        notes: list[str] = []
        if reply is None:
            reply = parse_reply(talk.again(INVALID_JSON))
            if reply is None:
                return _with(base, talk, "the model did not reply with valid JSON (asked twice)")
            notes.append("the model's first reply was not valid JSON; it was asked again")
        if reply.status == "not_covered":
            return _with(base, talk, *notes, "the model found no answer in the sources")
        checked = _check(reply, sources)
        if not checked.needs_retry:
            return _final(base, talk, checked, notes)
        retried = self._retried(talk, sources, checked, notes)
        if retried is None:
            return _with(base, talk, *notes, "the model found no answer in the sources")
        return _final(base, talk, retried, notes)

    def _retried(
        self, talk: _Conversation, sources: Sequence[Source], checked: _Checked, notes: list[str]
    ) -> _Checked | None:
        """The one quote retry; None when the model then says the sources do not answer."""
        problem = (
            f"{len(checked.invalid)} quote(s) not in the sources"
            if checked.invalid
            else "no quotes"
        )
        try:
            text = talk.again(checked.instruction())
        except ProviderError as exc:
            notes.append(f"{problem}; the retry failed ({exc}), so they were dropped")
            return checked
        again = parse_reply(text)
        if again is None:
            notes.append(f"{problem}; the retry was not valid JSON, so they were dropped")
            return checked
        notes.append(f"{problem}; the model was asked once to fix them")
        if again.status == "not_covered":
            return None
        fixed = _check(again, sources)
        if not fixed.valid and checked.valid:  # the retry lost everything: keep what held
            notes.append("the retry had no valid quote, so the first reply was kept")
            return checked
        return fixed


# ------------------------------------------------------------------------------ checking


def _check(reply: ModelReply, sources: Sequence[Source]) -> _Checked:
    """Each claimed quote located in the source it names (the first of a repeated ``n``)."""
    valid: dict[int, Quote] = {}
    invalid: list[InvalidQuote] = []
    seen: set[int] = set()
    for claimed in reply.quotes:
        if claimed.n in seen:
            continue
        seen.add(claimed.n)
        result = check_quotes([(claimed.source, claimed.text)], sources)
        if result.valid:
            valid[claimed.n] = result.valid[0]
        invalid.extend(result.invalid)
    return _Checked(reply, valid, tuple(invalid))


def _final(base: Draft, talk: _Conversation, checked: _Checked, notes: list[str]) -> Draft:
    """The surviving quotes renumbered 1.., markers rewritten; none left -> not_covered."""
    if checked.invalid:
        dropped = ", ".join(f"source {bad.number}" for bad in checked.invalid)
        notes.append(f"dropped {len(checked.invalid)} quote(s) not found verbatim ({dropped})")
    if not checked.valid:
        return _with(base, talk, *notes, "no quote of the answer was found in the sources")
    numbers = {old: new for new, old in enumerate(sorted(checked.valid), start=1)}
    quotes = tuple(replace(checked.valid[old], number=new) for old, new in numbers.items())
    claimed = {quote.n for quote in checked.reply.quotes}
    return replace(
        base,
        status="answered",
        answer=renumber_markers(checked.reply.answer, numbers, claimed),
        quotes=quotes,
        explanation=renumber_markers(checked.reply.explanation, numbers, claimed),
        notes=(*base.notes, *notes),
        raw=talk.raw,
    )


def renumber_markers(text: str, numbers: Mapping[int, int], claimed: Collection[int] = ()) -> str:
    """``[n]`` / ``[n, m]`` markers mapped through ``numbers``; a marker left with no known
    number is removed with the space before it. Markers that map to themselves are kept
    exactly as written, and so is an index like ``items[0]`` right after a word, unless
    every number in it is one the model ``claimed`` as a quote number."""

    def rewrite(match: re.Match[str]) -> str:
        old = [int(n) for n in re.findall(r"\d+", match.group(1))]
        new = list(dict.fromkeys(numbers[n] for n in old if n in numbers))
        if new == old or (_after_word(text, match) and not set(old) <= set(claimed)):
            return match.group()
        if not new:
            return ""
        spacing = match.group()[: match.group().index("[")]
        return f"{spacing}[{', '.join(map(str, new))}]"

    return _MARKER.sub(rewrite, text)


def _after_word(text: str, match: re.Match[str]) -> bool:
    """Whether the bracket follows a letter, digit or underscore of a Latin-script word."""
    at = match.start() + match.group().index("[")
    before = text[at - 1] if at > 0 else " "
    return before.isascii() and (before.isalnum() or before == "_")


# ------------------------------------------------------------------------------ helpers


def _with(base: Draft, talk: _Conversation, *notes: str) -> Draft:
    return replace(base, notes=(*base.notes, *notes), raw=talk.raw)


def _model_name(chat: ChatModel) -> str:
    """The model's own name when the provider exposes it (``OpenAIChat.model``)."""
    model = getattr(chat, "model", None)
    return model if isinstance(model, str) and model else chat.name
