"""The one place that wires a ``ChatAgent`` from a ``Library``: the library's asker
(``asking/choose.make_asker``), its store and its settings. The CLI's ``chat``, the
knowledge-base evaluation and the benchmarks chat through it; the server hands the agent
the asker it made at startup.
"""

from __future__ import annotations

from askalong.agent.agent_limits import AgentLimits
from askalong.agent.chat_agent import ChatAgent
from askalong.asking.choose import make_asker
from askalong.library import Library
from askalong.providers.chat import ChatModel


def make_chat_agent(
    library: Library, model: ChatModel | None = None, limits: AgentLimits | None = None
) -> ChatAgent:
    """The chat agent of ``library`` (``model`` and ``limits`` as ``ChatAgent`` takes them)."""
    return ChatAgent(make_asker(library), library.store, library.settings, model, limits)
