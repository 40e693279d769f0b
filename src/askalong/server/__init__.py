"""The HTTP edge: the JSON API and the web reader, served by ``askalong serve``.

The app is built by ``askalong.server.app.create_app``. This file imports nothing, so that
importing one part of the edge (the schemas, the SSE framing) does not build all of it.
"""
