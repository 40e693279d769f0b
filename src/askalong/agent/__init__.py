"""The answering agent over the knowledge base, in one package: the chat entry point
(``chat_agent``), the ReAct loop with a model (``react``, ``acting``, ``model_answer``) and
the offline path that answers each part of a question extractively (``offline``,
``choosing``, ``numbering``); the tools and the feedback they store (``tools``,
``feedback_tool``); and the pure parts both paths share: the source registry, the
question's parts, the passages as a model sees them, the limits, the checks after
generation, citation precision and recall and the chat answer's values."""
