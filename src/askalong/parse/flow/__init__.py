"""Parsers for flowing text (HTML, Markdown, plain text, DOCX) and the section-path builder
they share."""
