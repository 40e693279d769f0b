"""The answering agent over the knowledge base: its tools, the feedback they store, and
the offline path that answers each part of a question extractively."""
