"""Perl read through its grammar (issue 32): subs as blocks named (package, name), and the
call graph over every way Perl calls a sub by name (``f(x)``, ``&f(x)``, ``f $x``,
``Pkg::f(x)``, ``Pkg->m``, ``$self->m``), checked against what ``perl -MO=Xref`` binds
for the same files (plus the method calls it leaves to run time: ``$self->normalise``
in its own package or its parent's, ``Shape::Color->new``, ``$class->SUPER::new``)."""

from __future__ import annotations

from askalong.context.code_graph import Repository
from askalong.context.code_places import Place, SourceFile
from askalong.parse.code.languages import PERL
from askalong.parse.code.outline import code_outline
from askalong.parse.code.parser import parse

COLOR = """package Shape::Color;
use strict;
use warnings;
use Exporter 'import';
our @EXPORT_OK = qw(parse_hex);

sub clamp($);

# A colour read from hex digits.
sub new {
    my ( $class, $hex ) = @_;
    my $self = bless { rgb => [ parse_hex($hex) ] }, $class;
    $self->normalise;
    return $self;
}

sub parse_hex {
    my $hex = shift;
    return map { clamp hex $_ } &pairs($hex);
}

sub pairs { return $_[0] =~ /(..)/g }

sub clamp($) { my $n = shift; return $n > 255 ? 255 : $n }

sub normalise {
    my $self = shift;
    $self->{rgb} = [ map { clamp($_) } @{ $self->{rgb} } ];
    $self->{shade}->darken;
}

sub Shape::Color::Dark::new {
    my $class = shift;
    return Shape::Color::new( $class, "101010" ) if pairs("1010");
}

sub pair_count () { return 3 }

sub describe {
    my $n = pair_count;
    return $n;
}

1;
"""
PAINT = """#!/usr/bin/perl
use strict;
use lib 'lib';
use Shape::Color qw(parse_hex);

sub show {
    my ($hex) = @_;
    my $color = Shape::Color->new($hex);
    print join( ",", parse_hex($hex) ), "\\n";
    return $color;
}

show( $ARGV[0] // "ff8800" );
"""
PALE = """package Shape::Pale;
use parent -norequire, 'Shape::Color';

sub new {
    my ( $class, $hex ) = @_;
    my $self = $class->SUPER::new($hex);
    $self->normalise;
    return $self;
}

1;
"""
FILES = {"lib/Shape/Color.pm": COLOR, "paint.pl": PAINT, "lib/Shape/Pale.pm": PALE}


def repository() -> Repository:
    return Repository(
        [SourceFile(n, n, parse(t.encode(), source=n).blocks) for n, t in FILES.items()]
    )


def place(repo: Repository, file: str, qualname: tuple[str, ...]) -> Place:
    source = next(f for f in repo.files if f.source == file)
    return Place(source, next(b for b in source.blocks if b.section_path == qualname))


def callees(repo: Repository, file: str, qualname: tuple[str, ...]) -> set[tuple[str, ...]]:
    return {target.qualname for _, target in repo.callees(place(repo, file, qualname))}


def test_subs_are_blocks_named_by_their_package_and_a_forward_declaration_is_none() -> None:
    blocks = parse(COLOR.encode(), source="lib/Shape/Color.pm").blocks
    named = [(b.section_path, b.lines) for b in blocks if len(b.section_path) == 2]
    assert named == [
        (("Shape::Color", "new"), (9, 15)),  # its comment with it
        (("Shape::Color", "parse_hex"), (17, 20)),
        (("Shape::Color", "pairs"), (22, 22)),
        (("Shape::Color", "clamp"), (24, 24)),  # ``sub clamp($);`` took no body
        (("Shape::Color", "normalise"), (26, 30)),
        (("Shape::Color::Dark", "new"), (32, 35)),  # named with its own package
        (("Shape::Color", "pair_count"), (37, 37)),  # back in its package
        (("Shape::Color", "describe"), (39, 42)),
    ]
    assert blocks[0].section_path == ("Shape::Color",)
    assert blocks[0].text.startswith("package Shape::Color;\nuse strict;")


def test_every_way_of_calling_a_sub_by_name_is_a_call_site() -> None:
    outline = code_outline(COLOR.encode(), PERL)
    sites = {(s.receiver, s.callee, s.line) for s in outline.calls}
    assert {
        ("", "parse_hex", 12),  # f(x)
        ("self", "normalise", 13),  # $self->m: the receiver without its sigil
        ("", "clamp", 19),  # f $x: a list operator
        ("", "pairs", 19),  # &f(x)
        ("Shape::Color", "new", 34),  # Pkg::f(x)
    } <= sites
    imports = [i.text for i in outline.imports]
    assert imports == ["use strict;", "use warnings;", "use Exporter 'import';"]


def test_the_call_graph_binds_what_perl_binds_by_name() -> None:
    repo = repository()
    color = "lib/Shape/Color.pm"
    assert callees(repo, color, ("Shape::Color", "new")) == {
        ("Shape::Color", "parse_hex"),
        ("Shape::Color", "normalise"),  # $self->normalise: its own package's
    }
    assert callees(repo, color, ("Shape::Color", "parse_hex")) == {
        ("Shape::Color", "clamp"),
        ("Shape::Color", "pairs"),
    }
    # ``$self->{shade}->darken``: a receiver whose package the code does not give
    assert callees(repo, color, ("Shape::Color", "normalise")) == {("Shape::Color", "clamp")}
    # compiled in package Shape::Color, whatever package its name gives
    assert callees(repo, color, ("Shape::Color::Dark", "new")) == {
        ("Shape::Color", "new"),
        ("Shape::Color", "pairs"),
    }
    # a bareword, called as a value assigned
    assert callees(repo, color, ("Shape::Color", "describe")) == {("Shape::Color", "pair_count")}
    # ``Shape::Color->new`` and an imported ``parse_hex``, from another file
    assert callees(repo, "paint.pl", ("show",)) == {
        ("Shape::Color", "new"),
        ("Shape::Color", "parse_hex"),
    }


def test_a_method_not_its_package_s_own_is_its_parent_s() -> None:
    # ``$class->SUPER::new`` and ``$self->normalise`` under ``use parent``
    assert callees(repository(), "lib/Shape/Pale.pm", ("Shape::Pale", "new")) == {
        ("Shape::Color", "new"),
        ("Shape::Color", "normalise"),
    }


def test_callers_of_a_sub_come_from_every_file() -> None:
    repo = repository()
    target = place(repo, "lib/Shape/Color.pm", ("Shape::Color", "parse_hex"))
    found = {(c.file.source, c.qualname, s.line) for s, c in repo.callers(target)}
    assert found == {
        ("lib/Shape/Color.pm", ("Shape::Color", "new"), 12),
        ("paint.pl", ("show",), 9),
    }
