"""AskAlong's version, in a module that imports nothing: ``askalong.__version__`` is this,
and code under the package (the embedder's remembered choice) reads it without importing
the package's public API (an import cycle)."""

__version__ = "0.1.0"  # pyproject.toml's; tests/unit/test_public_api.py holds them equal
