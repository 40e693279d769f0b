"""Stores: one protocol (``base.Store``), one implementation per backend, and
``backends.open_store`` to choose among them."""
