"""Feedback on answers: the record with its frozen copy of what was judged (the values are
``askalong.values.feedback``; ``judged`` takes the copy), its triage (``triage``), the
guidance it gives later prompts (``guidance``), the evaluation items it exports
(``export``) and the one way to give it (``give``)."""
