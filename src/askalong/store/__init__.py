"""Stores: one protocol (``base.Store``), one implementation per backend."""
