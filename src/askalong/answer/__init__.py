"""Answering: evidence in, a grounded answer out. The pipeline is ``askalong.asking.asker``.

- ``base``: the ``Answerer`` ABC, its request (question, numbered sources, history) and draft.
- ``offline`` / ``extractive``: the default, offline answerer, which selects and cites
  evidence sentences.
- ``llm`` / ``prompts`` / ``reply`` / ``route``: answers from an OpenAI-compatible chat
  model: sources fenced as data, replies parsed, quotes checked and retried once, light
  or strong model by the question.
- ``choose``: which answerer (and claim judge) the settings ask for.
- ``cite``: sources numbered for the answerer, and quotes located verbatim in them.
- ``verify``: answers split into claims, each checked against the text it cites.
"""
