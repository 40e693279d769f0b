"""The learned sentence scorer of the offline answerer (issue 32): general features of a
(question, candidate sentence) pair (``features``), a small model fitted on public QA data
by ``training/`` and shipped as ``weights.json`` (``model``)."""
