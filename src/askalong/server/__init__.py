"""The HTTP edge: the JSON API and the web reader, served by ``askalong serve``."""

from askalong.server.app import create_app

__all__ = ["create_app"]
