"""Ruby, Lua, PHP, Kotlin and Perl repositories read through their grammars (issue 32, item 4): one
small file per language added with the CLI and asked through ``askalong ask`` with the
real store and tree-sitter. "Where is X defined" quotes the definition's own line (a
qualified name like ``Color.build`` too) and "what calls X" the call lines, read off the
call graph; before these grammars the files were line blocks with neither."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cli_json import run_json

from askalong.config import Settings

RUBY = """require "json"

module Paint
  # A colour read from hex digits.
  class Color
    def self.build(hex)
      new(parse_hex_color(hex))
    end

    def initialize(rgb)
      @rgb = rgb
    end

    def to_s
      Paint.format(@rgb)
    end
  end

  def self.format(rgb)
    rgb.join(",")
  end
end

def parse_hex_color(hex)
  hex.scan(/../).map { |pair| pair.to_i(16) }
end
"""
LUA = """local M = {}

-- Splits a line into its fields.
local function helper(line)
  return line:gmatch("[^,]+")
end

function M.parse(text, opts)
  local fields = {}
  for field in helper(text) do
    fields[#fields + 1] = field
  end
  return fields
end

function M.first(text)
  return M.parse(text)[1]
end

return M
"""
PHP = """<?php
namespace App;

class Color
{
    /** A colour read from hex digits. */
    public static function build(string $hex): Color
    {
        return new Color(parse_hex_color($hex));
    }

    public function __toString(): string
    {
        return $this->format();
    }

    private function format(): string
    {
        return implode(",", $this->rgb);
    }
}

function parse_hex_color(string $hex): array
{
    return array_map('hexdec', str_split($hex, 2));
}
"""
KOTLIN = """package paint

data class Color(val rgb: List<Int>) {
    companion object {
        /** A colour read from hex digits. */
        fun build(hex: String): Color {
            return Color(parseHexColor(hex))
        }
    }

    override fun toString(): String {
        return format()
    }

    private fun format(): String = rgb.joinToString(",")
}

fun parseHexColor(hex: String): List<Int> =
    hex.chunked(2).map { it.toInt(16) }
"""
PERL = """package Paint::Color;
use strict;

# A colour read from hex digits.
sub build {
    my ( $class, $hex ) = @_;
    return bless { rgb => [ parse_hex_color($hex) ] }, $class;
}

sub to_string {
    my $self = shift;
    return $self->format;
}

sub format { my $self = shift; return join ",", @{ $self->{rgb} } }

sub parse_hex_color { return map { hex } $_[0] =~ /(..)/g }

1;
"""
CASES = {
    "color.rb": (
        RUBY,
        ("Where is Color.build defined?", ["def self.build(hex)"]),
        ("What calls parse_hex_color?", ["new(parse_hex_color(hex))"]),
    ),
    "fields.lua": (
        LUA,
        ("Where is M.parse defined?", ["function M.parse(text, opts)"]),
        ("What calls helper?", ["for field in helper(text) do"]),
    ),
    "color.php": (
        PHP,
        ("Where is Color.build defined?", ["public static function build(string $hex): Color"]),
        ("What calls parse_hex_color?", ["return new Color(parse_hex_color($hex));"]),
    ),
    "color.pm": (
        PERL,
        ("Where is Paint::Color::build defined?", ["sub build {"]),
        (
            "What calls parse_hex_color?",
            ["return bless { rgb => [ parse_hex_color($hex) ] }, $class;"],
        ),
    ),
    "color.kt": (
        KOTLIN,
        ("Where is Color.build defined?", ["fun build(hex: String): Color {"]),
        ("What calls parseHexColor?", ["return Color(parseHexColor(hex))"]),
    ),
}


def asked(tmp_path: Path, name: str, question: str) -> dict[str, Any]:
    folder = tmp_path / "repo"
    if not folder.exists():
        folder.mkdir()
        (folder / name).write_text(CASES[name][0], encoding="utf-8")
        run_json("add", "--no-embed", str(folder))
    return run_json("ask", question)


def quoted(answer: dict[str, Any]) -> list[str]:
    return [q["text"].strip() for q in answer["quotes"]]


@pytest.mark.parametrize("name", sorted(CASES))
def test_where_is_x_defined_quotes_its_definition_line(
    settings: Settings, tmp_path: Path, name: str
) -> None:
    question, expected = CASES[name][1]
    answer = asked(tmp_path, name, question)
    assert answer["status"] == "answered", answer
    assert quoted(answer) == expected


@pytest.mark.parametrize("name", sorted(CASES))
def test_what_calls_x_is_answered_from_the_call_graph(
    settings: Settings, tmp_path: Path, name: str
) -> None:
    question, expected = CASES[name][2]
    answer = asked(tmp_path, name, question)
    assert answer["status"] == "answered", answer
    assert quoted(answer) == expected
    lines = CASES[name][0].splitlines()
    for quote in answer["quotes"]:  # line-exact: one whole line of the file
        assert quote["text"] in lines


@pytest.mark.parametrize(
    ("name", "question", "expected"),
    [
        ("color.rb", "What calls format?", ["Paint.format(@rgb)"]),
        ("fields.lua", "What calls parse?", ["return M.parse(text)[1]"]),
        ("color.php", "What calls format?", ["return $this->format();"]),
        ("color.kt", "What calls format?", ["return format()"]),
        ("color.pm", "What calls format?", ["return $self->format;"]),
    ],
)
def test_a_call_on_a_module_or_table_resolves_to_its_member(
    settings: Settings, tmp_path: Path, name: str, question: str, expected: list[str]
) -> None:
    answer = asked(tmp_path, name, question)
    assert answer["status"] == "answered", answer
    assert quoted(answer) == expected
