"""Clients for OpenAI-compatible endpoints: chat completions and embeddings."""
