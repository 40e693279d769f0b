"""Providers: embedders and chat models behind small ABCs (``base.py``)."""
