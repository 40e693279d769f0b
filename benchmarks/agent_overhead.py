"""The chat agent's overhead per model round (issue 15, figures; goal: at most 20 ms beyond
the model's own time), against the scripted chat-completions server.

Every question is two rounds: the model asks for two searches in one reply, then answers
citing both (the judge off: it is a model call of its own). The model's own time is
measured at the server (``ScriptedChatServer.served``: arrival to last byte, each reply
waiting ``--model-ms`` first, as a model thinks). Per question::

    overhead per round = (wall - model time at the server) / rounds
    loop per round     = (wall - model time at the server - tool time) / rounds
    agent's own        = (wall - the model calls as the client timed them - tools) / rounds

where the tool time is each round's calls from the first started to the last finished
(the searches, run in parallel). The baseline, in the same run: the same replies drawn by
the bare client (``OpenAIChat.complete_streamed``), no agent, so its overhead is the HTTP
client's and the stream's alone. Medians over the questions after two warm-up ones.

    python benchmarks/agent_overhead.py [--questions 24] [--model-ms 50] [--out FILE]
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent / "tests" / "helpers"))

from chat_server import Reply, ScriptedChatServer  # noqa: E402

from _table import markdown_table, write_results  # noqa: E402

TOPICS = (
    ("VACUUM", "VACUUM reclaims storage occupied by dead tuples."),
    ("tablespace", "A tablespace is a directory where PostgreSQL keeps the data files."),
    ("checkpoint", "A checkpoint flushes every dirty page to disk."),
    ("index", "An index lets the server find rows without reading the whole table."),
    ("sequence", "A sequence generates unique integers, one after another."),
    ("trigger", "A trigger runs a function when a row is inserted, updated or deleted."),
    ("view", "A view is a stored query that is read like a table."),
    ("role", "A role owns database objects and holds privileges on them."),
)


@dataclass(frozen=True)
class Measured:
    wall_ms: float
    model_ms: float  # at the server
    tool_ms: float
    rounds: int
    client_ms: float = 0.0  # the model calls as the client timed them (HTTP, the stream)

    @property
    def per_round(self) -> float:
        return (self.wall_ms - self.model_ms) / self.rounds

    @property
    def own_per_round(self) -> float:
        """Neither the model calls (as the client timed them) nor the tools."""
        return (self.wall_ms - self.client_ms - self.tool_ms) / self.rounds

    @property
    def client_per_round(self) -> float:
        return (self.client_ms - self.model_ms) / self.rounds

    @property
    def loop_per_round(self) -> float:
        return (self.wall_ms - self.model_ms - self.tool_ms) / self.rounds


def replies(n: int, delay: float) -> tuple[Reply, Reply]:
    """Question ``n``'s two model replies: two searches, then the answer citing both."""
    (a, a_says), (b, b_says) = TOPICS[n % len(TOPICS)], TOPICS[(n + 3) % len(TOPICS)]
    searches = Reply(
        content=None,
        calls=(
            ("search_knowledge", f'{{"query": "{a} {n}", "top_k": 3}}'),
            ("search_knowledge", f'{{"query": "{b} {n}", "top_k": 3}}'),
        ),
        finish_reason="tool_calls",
        delay=delay,
    )
    answer = Reply(content=f"{a_says[:-1]} [1]. {b_says[:-1]} [4].", delay=delay)
    return searches, answer


def chat_ms(server: ScriptedChatServer, since: int) -> float:
    served = server.served[since:]
    return sum(s for path, s in served if path.endswith("/chat/completions")) * 1000


def open_library(home: Path, url: str) -> Any:
    from askalong.config import load_settings
    from askalong.library import Library
    from askalong.types import Access

    settings = load_settings(
        home=home / "home",
        embedder="none",
        answerer="openai",
        llm_base_url=url,
        llm_model="scripted-model",
        llm_judge=False,
    )
    library = Library(settings)
    for name, text in TOPICS:
        path = home / f"{name}.md"
        path.write_text(f"# {name}\n\n{text} It is described in the manual.\n", encoding="utf-8")
        outcome = library.ingestor.add(str(path), Access.local())
        assert outcome.document is not None, outcome.error
    return library


def agent_run(library: Any, server: ScriptedChatServer, n: int, delay: float) -> Measured:
    from askalong.agent.chat_agent import ChatRequest
    from askalong.agent.wiring import make_chat_agent
    from askalong.types import Access

    agent = make_chat_agent(library)
    server.script(*replies(n, delay))
    since = len(server.served)
    started = time.perf_counter()
    answer = agent.ask(ChatRequest(f"Question {n}: what are they?", Access.local()))
    wall = (time.perf_counter() - started) * 1000
    assert answer.mode == "model" and answer.rounds == 2, answer
    timings = answer.timings
    return Measured(
        wall, chat_ms(server, since), timings.search_ms, answer.rounds, timings.answer_ms
    )


def bare_run(server: ScriptedChatServer, n: int, delay: float) -> Measured:
    """The same two replies drawn by the bare client, no agent: the baseline."""
    from askalong.agent.agent_prompts import TOOL_SPECS
    from askalong.providers.chat import ChatMessage, Sampling, ToolCall
    from askalong.providers.openai.chat import OpenAIChat

    chat = OpenAIChat(server.url, "scripted-model", timeout=30)
    server.script(*replies(n, delay))
    since = len(server.served)
    messages = [ChatMessage("system", "Use the tools."), ChatMessage("user", f"Question {n}")]
    started = time.perf_counter()
    first = chat.complete_streamed(messages, Sampling(tools=TOOL_SPECS))
    calls: tuple[ToolCall, ...] = first.tool_calls
    messages += [ChatMessage("assistant", "", tool_calls=calls)]
    messages += [ChatMessage.tool_result(c, "no passages found") for c in calls]
    chat.complete_streamed(messages, Sampling(tools=TOOL_SPECS))
    wall = (time.perf_counter() - started) * 1000
    chat.close()
    return Measured(wall, chat_ms(server, since), 0.0, 2, wall)


def report(agent: list[Measured], bare: list[Measured], args: argparse.Namespace) -> str:
    def median(values: list[float]) -> str:
        return f"{statistics.median(values):.1f}"

    rows = [
        ("model time per round, at the server", median([m.model_ms / 2 for m in agent])),
        ("baseline: bare client, wall - model, per round", median([m.per_round for m in bare])),
        ("agent: wall - model, per round", median([m.per_round for m in agent])),
        ("  of which the tools (2 searches in parallel)", median([m.tool_ms / 2 for m in agent])),
        ("  of which the loop, checks and storing", median([m.loop_per_round for m in agent])),
        (
            "    the model calls' client side (HTTP, stream)",
            median([m.client_per_round for m in agent]),
        ),
        (
            "    the agent's own (prompts, calls, checks, turn)",
            median([m.own_per_round for m in agent]),
        ),
        (
            "agent beyond the bare client, per round",
            median([a.per_round - b.per_round for a, b in zip(agent, bare, strict=True)]),
        ),
        (
            "agent beyond the bare client, tools excluded, per round",
            median([a.loop_per_round - b.per_round for a, b in zip(agent, bare, strict=True)]),
        ),
        ("agent wall per question", median([m.wall_ms for m in agent])),
    ]
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    load = os.getloadavg()[0]
    head = (
        f"# Agent overhead per round ({now})\n\n{len(agent)} questions (medians, ms), each two "
        f"model rounds (two searches in parallel, then the answer), the model's reply waiting "
        f"{args.model_ms:g} ms at the scripted server; library of {len(TOPICS)} small "
        f"documents, keyword search, judge off; load {load:.1f} on {os.cpu_count()} cores.\n\n"
    )
    return head + markdown_table(("measure", "ms"), "lr", rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--questions", type=int, default=24)
    parser.add_argument("--model-ms", type=float, default=50.0)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    delay = args.model_ms / 1000
    with tempfile.TemporaryDirectory() as folder, ScriptedChatServer() as server:
        os.environ["ASKALONG_HOME"] = folder
        with open_library(Path(folder), server.url) as library:
            for n in range(2):  # warm-up: imports, the first search, the client
                agent_run(library, server, n, delay)
                bare_run(server, n, delay)
            agent, bare = [], []
            for n in range(2, 2 + args.questions):
                agent.append(agent_run(library, server, n, delay))
                bare.append(bare_run(server, n, delay))
    day = datetime.date.today().isoformat()
    write_results(report(agent, bare, args), f"agent-overhead-{day}.md", args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
