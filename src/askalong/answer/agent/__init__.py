"""The answering agent's pure parts: the source registry, the question's parts, the
passages as a model sees them, citation precision and recall, the chat answer's values."""
