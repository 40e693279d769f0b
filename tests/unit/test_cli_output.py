"""What the CLI prints of a document is the document's text: no markup, no emoji codes."""

from __future__ import annotations

from askalong.cli.output import console, shown


def test_a_quote_with_markup_and_emoji_codes_is_printed_as_written() -> None:
    quote = "Reply :thumbs_up: or :smile: to [bold]approve[/bold]."
    with console.capture() as captured:
        console.print(shown(quote))
    assert captured.get().strip() == quote
