"""Stores: one protocol per aggregate (``base``), one implementation per backend, and
``backends.open_store`` to choose among them."""
