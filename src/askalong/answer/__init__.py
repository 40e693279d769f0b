"""Answering: evidence in, a grounded answer out.

- ``extractive``: the offline answerer, which selects and cites evidence sentences.
- ``cite``: sources numbered for the answerer, and quotes located verbatim in them.
- ``verify``: answers split into claims, each checked against the text it cites.
"""
